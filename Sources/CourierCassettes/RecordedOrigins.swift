import Courier
import Foundation
import HTTPTypes

/// The origins a cassette's requests were recorded against, found again in its responses and
/// replaced by the address it is replayed on: a recording made against `http://127.0.0.1:9400`
/// (or `https://itunes.apple.com`) replays on any host and port, its links included.
///
/// The recorded origins are the cassette's placeholders, as VCR-style tools keep one: every
/// `scheme://host[:port]` of a recorded request URL. Where one appears in a response — a header
/// value such as `Location` or `Link`, or a text body (`text/*`, JSON, XML, JavaScript, a
/// form; not compressed, not a part of a `206`), JSON's `http:\/\/` form included — it is
/// replaced by the replaying origin, and only as a whole origin: `http://127.0.0.1:94001`,
/// `http://example.com.evil.test` and `git+http://…` are other addresses and stay.
///
/// ```swift
/// let origins = RecordedOrigins(cassette)
/// let replayed = origins.rewriting(cassette.interactions[0].response, to: "http://127.0.0.1:18700")
/// ```
///
/// Other bodies (images, protocol buffers, compressed bytes) are left as they are, since a
/// changed length would break them. One pass over each value, whatever the number of origins.
public struct RecordedOrigins: Sendable, Equatable {
    /// The origins, `scheme://authority` as the requests spelled them (scheme and host
    /// lowercased), in the order first recorded.
    public let origins: [String]
    private let lookup: Set<String>

    /// The origins of `cassette`'s requests (http and https).
    public init(_ cassette: Cassette) {
        var seen: Set<String> = []
        var origins: [String] = []
        for interaction in cassette.interactions {
            guard let origin = Self.origin(of: interaction.request.url), seen.insert(origin).inserted else { continue }
            origins.append(origin)
        }
        self.origins = origins
        self.lookup = seen
    }

    /// `response` with every recorded origin in its header values and its UTF-8 body replaced
    /// by `origin` (`http://host:port`, no path).
    public func rewriting(_ response: Cassette.Response, to origin: String) -> Cassette.Response {
        guard !lookup.isEmpty else { return response }
        var response = response
        response.headers = response.headers.map { pair in
            pair.count == 2 ? [pair[0], rewriting(pair[1], to: origin)] : pair
        }
        if let body = response.body, Self.isText(response), let text = String(validatingUTF8Data: body.data) {
            let rewritten = rewriting(text, to: origin)
            if rewritten != text { response.body = Cassette.Body(Data(rewritten.utf8)) }
        }
        return response
    }

    /// The media types whose bodies are rewritten.
    static let textTypes = [
        "text/*", "*/*+json", "*/*+xml", "application/json", "application/xml", "application/javascript",
        "application/x-javascript", "application/x-ndjson", "application/x-www-form-urlencoded",
    ]

    /// Whether `response`'s body is text that can change length: a text type, no content
    /// coding, not one part of a larger body.
    static func isText(_ response: Cassette.Response) -> Bool {
        let fields = response.headerFields
        guard response.status != 206, let type = fields[.contentType] else { return false }
        let coding = fields[values: .contentEncoding].joined(separator: ",").trimmingCharacters(in: .whitespaces)
        return (coding.isEmpty || coding.lowercased() == "identity") && MediaType.matches(type, anyOf: textTypes)
    }

    /// `text` with every recorded origin replaced by `origin`; JSON's escaped `\/` form by the
    /// same form of `origin`.
    public func rewriting(_ text: String, to origin: String) -> String {
        guard !lookup.isEmpty else { return text }
        let escapedOrigin = origin.replacingOccurrences(of: "/", with: "\\/")
        let source = Array(text.utf8)
        var output: [UInt8] = []
        var copied = 0
        var index = 0
        while index < source.count {
            // A scheme starts where no other scheme character comes before it (`git+http:` is another).
            guard source[index] | 0x20 == UInt8(ascii: "h"), index == 0 || !Self.isSchemeByte(source[index - 1]),
                let match = match(in: source, at: index)
            else {
                index += 1
                continue
            }
            if output.isEmpty { output.reserveCapacity(source.count) }
            output.append(contentsOf: source[copied..<index])
            output.append(contentsOf: (match.escaped ? escapedOrigin : origin).utf8)
            index = match.end
            copied = index
        }
        guard copied > 0 else { return text }
        output.append(contentsOf: source[copied...])
        return String(decoding: output, as: UTF8.self)
    }

    // MARK: - Matching

    /// The longest authority looked at: longer runs are no recorded origin.
    private static let maximumAuthority = 300

    /// A recorded origin starting at `start` (`http://` or `http:\/\/`, then an authority that
    /// ends where the text leaves authority characters), and where it ends.
    private func match(in bytes: [UInt8], at start: Int) -> (end: Int, escaped: Bool)? {
        var index = start
        for byte in "http".utf8 {
            guard index < bytes.count, bytes[index] | 0x20 == byte else { return nil }
            index += 1
        }
        let secure = index < bytes.count && bytes[index] | 0x20 == UInt8(ascii: "s")
        if secure { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        let escaped: Bool
        if bytes[index...].starts(with: "//".utf8) {
            escaped = false
            index += 2
        } else if bytes[index...].starts(with: #"\/\/"#.utf8) {
            escaped = true
            index += 4
        } else {
            return nil
        }
        let authorityStart = index
        while index < bytes.count, Self.isAuthorityByte(bytes[index]) {
            index += 1
            if index - authorityStart > Self.maximumAuthority { return nil }
        }
        guard index > authorityStart else { return nil }
        let scheme = secure ? "https://" : "http://"
        let authority = String(decoding: bytes[authorityStart..<index], as: UTF8.self).lowercased()
        if lookup.contains(scheme + authority) { return (index, escaped) }
        // A sentence's full stop after an address is not part of it.
        if authority.hasSuffix("."), lookup.contains(scheme + authority.dropLast()) { return (index - 1, escaped) }
        return nil
    }

    /// Letters, digits and `-._~%:[]@`: what continues an address's authority, so that a match
    /// ends only where the origin does (`:94001`, `.evil.test`, `@evil.test` go on; `/`, `?`,
    /// quotes, spaces and punctuation end it).
    private static func isAuthorityByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._~%:[]@".utf8.contains(byte)
        }
    }

    /// Letters, digits, `+`, `-` and `.`: what a URL scheme is made of.
    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        switch byte | 0x20 {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): true
        default: (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "+-.".utf8.contains(byte)
        }
    }

    /// `scheme://host[:port]` of an absolute http(s) URL, lowercased, without user information.
    static func origin(of url: String) -> String? {
        let lowered = url.lowercased()
        let scheme: String
        if lowered.hasPrefix("http://") {
            scheme = "http://"
        } else if lowered.hasPrefix("https://") {
            scheme = "https://"
        } else {
            return nil
        }
        let rest = lowered.dropFirst(scheme.count)
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard !authority.isEmpty, authority.utf8.allSatisfy(isAuthorityByte) else { return nil }
        return scheme + authority
    }
}

extension String {
    /// The text of `data` if it is valid UTF-8, else `nil`.
    fileprivate init?(validatingUTF8Data data: Data) {
        guard let text = String(bytes: data, encoding: .utf8) else { return nil }
        self = text
    }
}
