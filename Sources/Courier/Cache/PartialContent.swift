import Foundation

/// Which bytes of a representation an incomplete stored response holds (RFC 9111 §3.3, §3.4):
/// the parts 206 responses brought, merged where they overlap or touch. The bytes are the
/// stored response's body, the parts back to back in order.
struct PartialContent: Sendable, Equatable, Codable {
    /// One stored run of bytes.
    struct Span: Sendable, Equatable, Codable {
        /// Where it starts in the complete representation.
        var offset: Int
        /// How many bytes it holds.
        var count: Int

        var range: Range<Int> { offset..<(offset + count) }
    }

    /// The complete representation's length, from `Content-Range`.
    let completeLength: Int
    /// The runs, in order, apart from each other.
    private(set) var spans: [Span]

    /// The most runs one entry keeps: a part that would make more is not stored, so that a
    /// server sending scattered parts cannot make merging slow.
    static let maximumSpans = 32

    /// One part of a representation of `completeLength` bytes.
    init?(part: Range<Int>, completeLength: Int) {
        guard !part.isEmpty, part.lowerBound >= 0, part.upperBound <= completeLength else { return nil }
        self.completeLength = completeLength
        self.spans = [Span(offset: part.lowerBound, count: part.count)]
    }

    /// Whether the parts are the whole representation.
    var isComplete: Bool { spans.count == 1 && spans[0].offset == 0 && spans[0].count == completeLength }

    /// Whether every byte of `range` is stored.
    func covers(_ range: Range<Int>) -> Bool {
        range.isEmpty
            || spans.contains { $0.range.contains(range.lowerBound) && $0.range.upperBound >= range.upperBound }
    }

    /// The smallest range holding every byte of `range` that is not stored; `nil` when all are.
    func missing(in range: Range<Int>) -> Range<Int>? {
        var first: Int?
        var last: Int?
        var position = range.lowerBound
        for span in spans where span.range.upperBound > position && span.offset < range.upperBound {
            if span.offset > position {
                first = first ?? position
                last = span.offset
            }
            position = span.range.upperBound
        }
        if position < range.upperBound {
            first = first ?? position
            last = range.upperBound
        }
        guard let first, let last else { return nil }
        return first..<last
    }

    /// The stored bytes of `range`, out of `body` (the parts back to back), when all are stored.
    func bytes(_ range: Range<Int>, in body: Data) -> Data? {
        var start = body.startIndex
        for span in spans {
            if span.range.contains(range.lowerBound), span.range.upperBound >= range.upperBound {
                let from = start + (range.lowerBound - span.offset)
                return Data(body[from..<(from + range.count)])
            }
            start += span.count
        }
        return range.isEmpty ? Data() : nil
    }

    /// These parts and `part` (bytes at `offset`), merged, with the body that goes with them;
    /// `nil` when the part does not fit the representation or would make too many runs.
    /// Where parts overlap, the stored bytes stay: both come from the same representation.
    func merging(_ part: Data, at offset: Int, body: Data) -> (parts: PartialContent, body: Data)? {
        guard offset >= 0, part.count <= completeLength, offset <= completeLength - part.count else { return nil }
        if part.isEmpty { return (self, body) }
        var pieces: [(offset: Int, bytes: Data)] = []
        var start = body.startIndex
        for span in spans {
            pieces.append((span.offset, body[start..<(start + span.count)]))
            start += span.count
        }
        pieces.append((offset, part))
        pieces.sort { $0.offset < $1.offset }
        var merged: [(offset: Int, bytes: Data)] = []
        for piece in pieces {
            guard let last = merged.last, piece.offset <= last.offset + last.bytes.count else {
                merged.append((piece.offset, Data(piece.bytes)))
                continue
            }
            let end = last.offset + last.bytes.count
            let pieceEnd = piece.offset + piece.bytes.count
            if pieceEnd > end {
                merged[merged.count - 1].bytes.append(piece.bytes.suffix(pieceEnd - end))
            }
        }
        guard merged.count <= Self.maximumSpans else { return nil }
        var result = self
        result.spans = merged.map { Span(offset: $0.offset, count: $0.bytes.count) }
        return (result, merged.reduce(into: Data()) { $0.append($1.bytes) })
    }

    /// Whether parts read back from a file describe `bodyCount` bytes of one representation:
    /// runs in order, apart, within the length, adding up to the body.
    func isConsistent(bodyCount: Int) -> Bool {
        guard completeLength >= 0, !spans.isEmpty, spans.count <= Self.maximumSpans else { return false }
        var end = -1
        var total = 0
        for span in spans {
            guard span.count > 0, span.offset > end, span.offset <= completeLength - span.count else { return false }
            end = span.offset + span.count
            total += span.count
        }
        return total == bodyCount
    }
}
