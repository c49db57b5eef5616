// libFuzzer harness: LineSplitter and EventStreamParser (Sources/Courier/Streaming).
//
// Splits the input into lines and Server-Sent Events twice — whole, and cut into pieces at
// places the input's first byte picks — and checks that both readings agree: the same lines
// (or the same "too long"), the same events, the same last event ID. Lines are bounded at 4 KiB
// and events at 16 KiB, so a hostile input also exercises the limits.
import Foundation

struct Reading: Equatable {
    var lines: [Data] = []
    var events: [ServerSentEvent] = []
    var lastEventID = ""
    var failure: String?
}

func read(_ pieces: [Data], endings: LineSplitter.Endings) -> Reading {
    var splitter = LineSplitter(endings: endings, maxLength: 4096)
    var parser = EventStreamParser(maxEventSize: 16384)
    var reading = Reading()
    func take(_ line: Data) -> Bool {
        reading.lines.append(line)
        guard endings == .any else { return true }
        do {
            if let event = try parser.parse(line: line) { reading.events.append(event) }
        } catch {
            reading.failure = "event too large"
            return false
        }
        return true
    }
    var index = 0
    var ended = false
    while true {
        switch ended ? splitter.finish() : splitter.next() {
        case .line(let line):
            guard take(line) else { return reading }
        case .tooLong:
            reading.failure = "line too long"
            return reading
        case .needMore:
            if ended {
                reading.lastEventID = parser.lastEventID
                return reading
            }
            if index < pieces.count {
                splitter.append(pieces[index])
                index += 1
            } else {
                ended = true
            }
        }
    }
}

/// libFuzzer's entry point: runs one input of `count` bytes at `start`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Data(UnsafeRawBufferPointer(start: start, count: count))
    guard let seed = bytes.first else { return 0 }
    var pieces: [Data] = []
    var offset = 0
    var step = Int(seed % 7) + 1
    while offset < bytes.count {
        let end = min(bytes.count, offset + step)
        pieces.append(bytes[offset..<end])
        offset = end
        step = step * 3 % 17 + 1
    }
    for endings in [LineSplitter.Endings.lineFeed, .any] {
        let whole = read([bytes], endings: endings)
        let cut = read(pieces, endings: endings)
        precondition(whole == cut, "reading in pieces differs from reading whole (\(endings))")
        precondition(whole.lines.allSatisfy { $0.count <= 4096 }, "a line passed the limit")
    }
    return 0
}
