/// One packet of git's pkt-line framing: a length in four hex digits, then the payload; or one
/// of the special packets with no payload.
///
/// ```swift
/// var bytes = try PktLine.data(Array("command=ls-refs\n".utf8)).encoded()  // "0014command=ls-refs\n"
/// bytes += try PktLine.flush.encoded()                                     // "0000"
/// ```
public enum PktLine: Sendable, Hashable {
    /// A data packet.
    case data([UInt8])
    /// `0000`: the end of a message.
    case flush
    /// `0001`: the end of a section (protocol v2).
    case delimiter
    /// `0002`: the end of a response (protocol v2, stateless).
    case responseEnd

    /// The largest packet, length prefix included (git's `LARGE_PACKET_MAX`).
    public static let maximumLength = 65520

    /// The packet's bytes on the wire.
    ///
    /// - Throws: ``PktLineError`` for a data payload longer than 65516 bytes.
    public func encoded() throws(PktLineError) -> [UInt8] {
        switch self {
        case .flush: return Array("0000".utf8)
        case .delimiter: return Array("0001".utf8)
        case .responseEnd: return Array("0002".utf8)
        case .data(let payload):
            let length = payload.count + 4
            guard length <= Self.maximumLength else {
                throw PktLineError(
                    offset: 0,
                    bytes: [],
                    reason:
                        "a payload of \(payload.count) bytes is longer than the \(Self.maximumLength - 4) a packet can hold"
                )
            }
            return Self.hex(length) + payload
        }
    }

    /// The payload of a data packet as text, without its trailing newline; `nil` for the special
    /// packets.
    public var text: String? {
        guard case .data(let payload) = self else { return nil }
        let trimmed = payload.last == UInt8(ascii: "\n") ? payload.dropLast() : payload[...]
        return String(decoding: trimmed, as: UTF8.self)
    }

    /// The server's message when this is an `ERR <message>` packet.
    public var errorMessage: String? {
        guard let text, text.hasPrefix("ERR ") else { return nil }
        return String(text.dropFirst(4))
    }

    private static func hex(_ value: Int) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return [12, 8, 4, 0].map { digits[(value >> $0) & 0xF] }
    }
}

/// A pkt-line stream that breaks the framing rules: where, which bytes, and what is wrong.
public struct PktLineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offset of the packet's length prefix in the stream.
    public var offset: Int
    /// The offending bytes (the length prefix, at most four).
    public var bytes: [UInt8]
    /// What is wrong.
    public var reason: String

    /// "malformed pkt-line at offset 12 (bytes 30 30 30 33): length 3 is reserved".
    public var description: String {
        let shown = bytes.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 0x10 ? "0" + digits : digits
        }.joined(separator: " ")
        return "malformed pkt-line at offset \(offset)\(shown.isEmpty ? "" : " (bytes \(shown))"): \(reason)"
    }
}

/// Reads pkt-lines from bytes that arrive in pieces split anywhere.
///
/// ```swift
/// var decoder = PktLineDecoder()
/// decoder.append(chunk)
/// while let packet = try decoder.next() { handle(packet) }   // nil: wait for more bytes
/// ```
public struct PktLineDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    /// How many bytes of the stream have been decoded into packets.
    public private(set) var offset = 0

    /// A decoder with no input yet.
    public init() {}

    /// Adds bytes that arrived.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received but not yet decoded.
    public var pendingByteCount: Int { buffer.count - start }

    /// The next complete packet, or `nil` until more bytes arrive.
    ///
    /// - Throws: ``PktLineError`` for a length that is not four hex digits, is 3 (reserved), or
    ///   is longer than 65520.
    public mutating func next() throws(PktLineError) -> PktLine? {
        guard buffer.count - start >= 4 else { return nil }
        var length = 0
        for byte in buffer[start..<(start + 4)] {
            guard let value = Self.hexValue(byte) else {
                throw PktLineError(offset: offset, bytes: prefix, reason: "the length is not four hexadecimal digits")
            }
            length = length << 4 | value
        }
        switch length {
        case 0: return consume(4, .flush)
        case 1: return consume(4, .delimiter)
        case 2: return consume(4, .responseEnd)
        case 3: throw PktLineError(offset: offset, bytes: prefix, reason: "length 3 is reserved and never valid")
        case ...PktLine.maximumLength:
            guard buffer.count - start >= length else { return nil }
            let payload = Array(buffer[(start + 4)..<(start + length)])
            return consume(length, .data(payload))
        default:
            throw PktLineError(
                offset: offset,
                bytes: prefix,
                reason: "length \(length) is longer than the \(PktLine.maximumLength) a packet may have"
            )
        }
    }

    /// The length digits of the packet at `start`, for error messages.
    private var prefix: [UInt8] { Array(buffer[start..<(start + 4)]) }

    private mutating func consume(_ count: Int, _ packet: PktLine) -> PktLine {
        start += count
        offset += count
        return packet
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
