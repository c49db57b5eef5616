import Foundation

/// Splits a body into lines as its pieces arrive, each line at most ``maxLength`` bytes, in time
/// linear in the bytes: each byte is looked at once, and a line split across pieces is kept
/// until its end arrives (bounded by the maximum).
struct LineSplitter {
    /// What ends a line.
    enum Endings {
        /// LF, with a CR before it dropped (text lines, JSON Lines).
        case lineFeed
        /// CRLF, LF or a lone CR (event streams).
        case any
    }

    /// One step of splitting.
    enum Step {
        case line(Data)
        case needMore
        case tooLong
    }

    let endings: Endings
    let maxLength: Int
    /// Lines returned so far.
    private(set) var lineNumber = 0
    private var chunk = Data()
    private var offset = 0
    /// The start of a line whose end has not arrived yet.
    private var partial: [UInt8] = []
    /// The last piece ended with a CR: an LF first in the next one belongs to it.
    private var afterCR = false
    private var atStart = true

    init(endings: Endings, maxLength: Int) {
        self.endings = endings
        self.maxLength = maxLength
    }

    /// Adds the next piece; call once ``next()`` has asked for more.
    mutating func append(_ chunk: Data) {
        self.chunk = chunk
        offset = 0
    }

    /// The next whole line, without its ending.
    mutating func next() -> Step {
        let count = chunk.count
        guard offset < count else { return .needMore }
        let found = chunk.withUnsafeBytes { buffer -> (end: Int?, skip: Int) in
            var start = offset
            if afterCR {
                afterCR = false
                if buffer[start] == 0x0A { start += 1 }
            }
            return (Self.terminator(in: buffer, from: start, endings: endings), start - offset)
        }
        offset += found.skip
        guard let end = found.end else {
            // No end in this piece: keep its rest, within the limit (plus a CR that may precede LF).
            guard partial.count + (count - offset) <= maxLength + 1 else { return .tooLong }
            partial.append(contentsOf: chunk[(chunk.startIndex + offset)...])
            offset = count
            return .needMore
        }
        let endIndex = chunk.startIndex + end
        var line: Data
        if partial.isEmpty {
            line = chunk[(chunk.startIndex + offset)..<endIndex]
        } else {
            partial.append(contentsOf: chunk[(chunk.startIndex + offset)..<endIndex])
            line = Data(partial)
            partial.removeAll(keepingCapacity: true)
        }
        let ending = chunk[endIndex]
        offset = end + 1
        if ending == 0x0D {
            if offset < count {
                if chunk[chunk.startIndex + offset] == 0x0A { offset += 1 }
            } else {
                afterCR = true
            }
        } else if endings == .lineFeed, line.last == 0x0D {
            line = line.dropLast()
        }
        return finished(line)
    }

    /// The last line of a body that does not end with a line ending, if any.
    mutating func finish() -> Step {
        guard !partial.isEmpty else { return .needMore }
        var line = Data(partial)
        partial.removeAll()
        if endings == .lineFeed, line.last == 0x0D { line = line.dropLast() }
        return finished(line)
    }

    private mutating func finished(_ line: Data) -> Step {
        var line = line
        if atStart {
            atStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        }
        guard line.count <= maxLength else { return .tooLong }
        lineNumber += 1
        return .line(line)
    }

    /// The index of the first line ending at or after `start`.
    private static func terminator(in buffer: UnsafeRawBufferPointer, from start: Int, endings: Endings) -> Int? {
        guard start < buffer.count, let base = buffer.baseAddress else { return nil }
        switch endings {
        case .lineFeed:
            guard let found = memchr(base + start, 0x0A, buffer.count - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        case .any:
            for index in start..<buffer.count where buffer[index] == 0x0A || buffer[index] == 0x0D {
                return index
            }
            return nil
        }
    }
}
