public import Foundation
import Synchronization

extension StreamedResponse.Body {
    /// The body as JSON Lines (NDJSON): one JSON value per line, each decoded as `type`. Blank
    /// lines are passed over.
    ///
    /// ```swift
    /// let response = try await client.stream(Endpoint<Data>(url: exportURL))
    /// let records = response.body.jsonLines(of: Record.self, skippingInvalidLines: true)
    /// for try await record in records { save(record) }
    /// print(records.skippedCount, "lines skipped")
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type each line decodes to.
    ///   - decoder: Decodes each line.
    ///   - skippingInvalidLines: Whether a line that does not decode is skipped and counted (as
    ///     ``LossyArray`` does with elements) instead of ending the reading with
    ///     ``RequestError/decoding(_:)`` naming the line.
    ///   - maxLineLength: The longest line accepted, in bytes.
    public func jsonLines<Value: Decodable>(
        of type: Value.Type,
        decoder: JSONDecoder = JSONDecoder(),
        skippingInvalidLines: Bool = false,
        maxLineLength: Int = 1 << 20
    ) -> JSONLines<Value> {
        JSONLines(body: self, decoder: decoder, skipsInvalidLines: skippingInvalidLines, maxLineLength: maxLineLength)
    }
}

/// The values of a JSON Lines body; see ``StreamedResponse/Body/jsonLines(of:decoder:skippingInvalidLines:maxLineLength:)``.
public struct JSONLines<Value: Decodable>: AsyncSequence, Sendable {
    /// What the sequence yields.
    public typealias Element = Value
    /// What reading throws.
    public typealias Failure = RequestError

    /// A line that did not decode and was skipped.
    public struct Skipped: Sendable, Equatable {
        /// Its line number, 1 for the first line of the body.
        public var line: Int
        /// Why it did not decode.
        public var reason: String
    }

    let body: StreamedResponse.Body
    let decoder: JSONDecoder
    let skipsInvalidLines: Bool
    let maxLineLength: Int
    private let skips = Skips()

    init(body: StreamedResponse.Body, decoder: JSONDecoder, skipsInvalidLines: Bool, maxLineLength: Int) {
        self.body = body
        self.decoder = decoder
        self.skipsInvalidLines = skipsInvalidLines
        self.maxLineLength = maxLineLength
    }

    /// How many lines were skipped so far.
    public var skippedCount: Int { skips.state.withLock { $0.count } }

    /// The first 100 lines skipped so far, with why.
    public var skipped: [Skipped] { skips.state.withLock { $0.first } }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            reader: LineReader(body: body, endings: .lineFeed, maxLength: maxLineLength),
            decoder: decoder,
            skips: skipsInvalidLines ? skips : nil
        )
    }

    /// Reads the values of a JSON Lines body.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var reader: LineReader
        let decoder: JSONDecoder
        let skips: Skips?

        /// The next value, or `nil` at the end of the body.
        public mutating func next() async throws(RequestError) -> Value? {
            try await next(isolation: nil)
        }

        /// The next value, or `nil` at the end of the body.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Value? {
            while let line = try await reader.next(isolation: actor) {
                guard line.contains(where: { !Self.isWhitespace($0) }) else { continue }
                do {
                    return try decoder.decode(Value.self, from: line)
                } catch {
                    var failure = DecodingFailure(
                        error,
                        type: String(describing: Value.self),
                        request: reader.request,
                        body: line,
                        contentType: "application/json"
                    )
                    if let skips {
                        let path = failure.codingPath.isEmpty ? "" : "\(failure.codingPath): "
                        skips.add(Skipped(line: reader.lineNumber, reason: path + failure.reason))
                        continue
                    }
                    reader.cancel()
                    let place = "line \(reader.lineNumber)"
                    failure.codingPath = failure.codingPath.isEmpty ? place : "\(place), \(failure.codingPath)"
                    throw .decoding(failure)
                }
            }
            return nil
        }

        private static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
        }
    }

    /// The lines skipped, shared by the sequence and its iterator.
    final class Skips: Sendable {
        struct State {
            var count = 0
            var first: [Skipped] = []
        }

        let state = Mutex(State())

        func add(_ skipped: Skipped) {
            state.withLock { state in
                state.count += 1
                if state.first.count < 100 { state.first.append(skipped) }
            }
        }
    }
}

extension JSONLines.Skipped: CustomStringConvertible {
    /// `line 3: the key 'id' is missing`.
    public var description: String { "line \(line): \(reason)" }
}
