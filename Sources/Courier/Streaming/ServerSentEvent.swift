import Foundation

/// One event of a Server-Sent Events stream (`text/event-stream`).
///
/// ```
/// event: price
/// id: 42
/// data: {"symbol":"ACME",
/// data:  "price":12.5}
/// ```
///
/// arrives as `ServerSentEvent(type: "price", data: "{\"symbol\":\"ACME\",\n \"price\":12.5}", id: "42")`.
public struct ServerSentEvent: Sendable, Hashable, Codable {
    /// The `event` field; `message` when the event has none.
    public var type: String
    /// The `data` fields, joined by line feeds.
    public var data: String
    /// The last event ID the stream set (its `id` fields so far), sent back as `Last-Event-ID`
    /// when reconnecting; empty when none was set.
    public var id: String

    /// Creates an event.
    public init(type: String = "message", data: String, id: String = "") {
        self.type = type
        self.data = data
        self.id = id
    }
}

/// Interprets the lines of an event stream as the WHATWG HTML standard's "event stream
/// interpretation" says, each line in time linear in its length.
struct EventStreamParser {
    /// The largest `data` of one event, in bytes.
    let maxEventSize: Int
    /// The last event ID, committed when an event is dispatched (a blank line): what a
    /// reconnection sends. An `id` of an event the stream was cut in the middle of is not.
    private(set) var lastEventID = ""
    /// The ID the `id` fields set so far.
    private var idBuffer = ""
    /// The reconnection time the last valid `retry` field set, in milliseconds.
    private(set) var retryMilliseconds: Int?
    private var data: [UInt8] = []
    private var type = ""

    init(maxEventSize: Int) {
        self.maxEventSize = maxEventSize
    }

    /// An event's data grew past ``maxEventSize``.
    struct EventTooLarge: Error {}

    /// Takes one line (without its ending); returns the event a blank line completes.
    mutating func parse(line: Data) throws(EventTooLarge) -> ServerSentEvent? {
        if line.isEmpty { return dispatch() }
        // On the bytes themselves: `Data`'s own indexing costs more than the parsing.
        let fits = line.withUnsafeBytes { parse(field: $0) }
        guard fits else { throw EventTooLarge() }
        return nil
    }

    /// Interprets one non-blank line; `false` when it would make the event too large.
    private mutating func parse(field line: UnsafeRawBufferPointer) -> Bool {
        guard let base = line.baseAddress, line[0] != UInt8(ascii: ":") else { return true }  // a comment
        let colon = memchr(base, Int32(UInt8(ascii: ":")), line.count).map { base.distance(to: UnsafeRawPointer($0)) }
        let fieldEnd = colon ?? line.count
        var valueStart = colon.map { $0 + 1 } ?? line.count
        if valueStart < line.count, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let field = UnsafeRawBufferPointer(rebasing: line[..<fieldEnd])
        let value = UnsafeRawBufferPointer(rebasing: line[valueStart...])
        switch fieldEnd {
        case 2 where field.elementsEqual("id".utf8):
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case 4 where field.elementsEqual("data".utf8):
            guard value.count < maxEventSize - data.count else { return false }
            data.append(contentsOf: value)
            data.append(0x0A)
        case 5 where field.elementsEqual("event".utf8):
            guard value.count <= maxEventSize else { return false }
            type = String(decoding: value, as: UTF8.self)
        case 5 where field.elementsEqual("retry".utf8):
            if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                retryMilliseconds = Self.milliseconds(value)
            }
        default:
            break  // unknown fields are ignored
        }
        return true
    }

    /// Forgets an event the stream ended in the middle of (its last ID and retry stay).
    mutating func discardPartialEvent() {
        data.removeAll(keepingCapacity: true)
        type = ""
        idBuffer = lastEventID
    }

    /// A blank line: the event so far, if it has data.
    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = idBuffer
        defer {
            data.removeAll(keepingCapacity: true)
            type = ""
        }
        guard !data.isEmpty else { return nil }
        data.removeLast()  // the line feed after the last data line
        return ServerSentEvent(
            type: type.isEmpty ? "message" : type,
            data: String(decoding: data, as: UTF8.self),
            id: lastEventID
        )
    }

    /// The digits' value, or `Int.max` when it does not fit.
    private static func milliseconds(_ digits: UnsafeRawBufferPointer) -> Int {
        var value = 0
        for digit in digits {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return .max }
            value = sum
        }
        return value
    }
}
