/// What RFC 3629 allows after each lead byte of UTF-8: for parsers that check text byte by byte
/// as it arrives, rather than decoding it whole.
///
/// ```swift
/// let bytes: [UInt8] = [0xE2, 0x82, 0xAC]  // "€"
/// if let sequence = UTF8Sequence(lead: bytes[0]), sequence.second.contains(bytes[1]) {
///     print(sequence.length)  // 3: two more bytes in 0x80...0xBF follow the lead
/// }
/// ```
public struct UTF8Sequence: Sendable, Hashable {
    /// How many bytes the sequence has, its lead byte included: 2 to 4.
    public let length: Int
    /// The range its second byte must be in: no overlong forms, no surrogates, nothing above
    /// U+10FFFF. Its later bytes are in 0x80...0xBF.
    public let second: ClosedRange<UInt8>

    /// The sequence `lead` starts; `nil` when `lead` starts none (ASCII, a continuation byte,
    /// or a byte UTF-8 never uses).
    ///
    /// - Parameter lead: The sequence's first byte.
    public init?(lead: UInt8) {
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
    }
}
