public import Foundation

extension Redaction {
    /// `body` with the values of secret fields replaced by `REDACTED`: the members of JSON
    /// objects, the fields of URL-encoded forms and the parts of `multipart/form-data` whose
    /// names ``isSecretName(_:)`` calls secret (`password`, `client_secret`, `access_token`,
    /// `api_key`…), at any depth; and in JSON and other text, the credentials in the URLs it
    /// contains (``redactingURLs(in:)``). Every other byte is kept, so that what is left reads
    /// and compares as it did.
    ///
    /// The form is told by `contentType`; a body without one (or `application/octet-stream`,
    /// which says nothing) is read as JSON when it starts like JSON, and as a form when it is
    /// made of form characters only and has a `=`. Other bodies (images, archives…) are
    /// returned as they are.
    ///
    /// - Parameters:
    ///   - body: The body's bytes.
    ///   - contentType: The body's `Content-Type`, if it has one.
    /// - Returns: The body with the secret values replaced.
    public static func redactingBody(_ body: Data, contentType: String?) -> Data {
        let essence = contentType.map { MediaType.essence(of: $0) } ?? ""
        // `application/octet-stream` says nothing of what the bytes are (`--data-binary`): read
        // like a body without a type.
        let contentType = essence == "application/octet-stream" ? nil : contentType
        if essence == "application/x-www-form-urlencoded" || (contentType == nil && looksLikeForm(body)) {
            // On bytes: a form with a byte that is not UTF-8 is redacted all the same.
            return redactingItems(in: [UInt8](body), as: .form).map { Data($0) } ?? body
        }
        if essence == "multipart/form-data", let contentType, let boundary = MediaType.boundary(in: contentType) {
            return redactingMultipart(body, boundary: boundary)
        }
        let startsLikeJSON = body.first { !isJSONWhitespace($0) }.map {
            $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[")
        }
        var text: Data
        if MediaType.matches(essence, anyOf: MediaType.jsonLike) || (contentType == nil && startsLikeJSON == true) {
            text = redactingJSON(body)
        } else if MediaType.matches(essence, anyOf: textLike) {
            text = body
        } else {
            return body
        }
        if let redacted = redactingItems(in: [UInt8](text), as: .freeText) { text = Data(redacted) }
        return text
    }

    /// Whether a body without a type reads as `name=value&…`: a `=`, and nothing but the
    /// characters of a URL-encoded form.
    static func looksLikeForm(_ body: Data) -> Bool {
        var sawEquals = false
        for byte in body {
            if byte == UInt8(ascii: "=") {
                sawEquals = true
            } else if !formBytes.contains(byte) {
                return false
            }
        }
        return sawEquals
    }

    private static let formBytes = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789%&+-._~*".utf8
    )

    /// Bodies searched for URLs that carry credentials, besides JSON.
    static let textLike = ["text/*", "*/*+xml", "application/xml", "application/xhtml+xml"]

    /// A `multipart/form-data` body with the content of every part named like a secret
    /// (`Content-Disposition: form-data; name="password"`) replaced. A body that does not
    /// follow the boundaries comes back unchanged from where it stops following them.
    static func redactingMultipart(_ body: Data, boundary: String) -> Data {
        let bytes = [UInt8](body)
        let delimiter = Array("--\(boundary)".utf8)
        let headerEnd = Array("\r\n\r\n".utf8)
        let nextPart = Array("\r\n--\(boundary)".utf8)
        guard var partStart = firstIndex(of: delimiter, in: bytes, from: 0) else { return body }
        var output: [UInt8] = []
        var copied = 0
        while let headersEnd = firstIndex(of: headerEnd, in: bytes, from: partStart + delimiter.count) {
            let contentStart = headersEnd + headerEnd.count
            guard let contentEnd = firstIndex(of: nextPart, in: bytes, from: contentStart) else { break }
            let headers = String(decoding: bytes[partStart..<headersEnd], as: UTF8.self)
            if let name = formDataName(in: headers), isSecretName(name) {
                output += bytes[copied..<contentStart]
                output += placeholder.utf8
                copied = contentEnd
            }
            partStart = contentEnd + 2
        }
        guard copied > 0 else { return body }
        output += bytes[copied...]
        return Data(output)
    }

    /// The `name` parameter of a part's `Content-Disposition: form-data` field.
    private static func formDataName(in headers: String) -> String? {
        for line in headers.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":"),
                line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition"
            else { continue }
            return MediaType.parameter("name", in: String(line[line.index(after: colon)...]))
        }
        return nil
    }

    /// The first index of `needle` in `bytes` at or after `start`. Needles are short (a
    /// boundary is at most 70 bytes), so the search is linear in practice.
    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, start < bytes.count else { return nil }
        var index = start
        while let found = bytes[index...].firstIndex(of: first) {
            guard found + needle.count <= bytes.count else { return nil }
            if bytes[found..<(found + needle.count)].elementsEqual(needle) { return found }
            index = found + 1
        }
        return nil
    }

    /// The JSON text with the value of every member named like a secret replaced by
    /// `"REDACTED"`. A string followed by `:` is always a member name in JSON, so one pass over
    /// the bytes finds them all, at any depth; text that is not JSON comes back unchanged
    /// where the pass cannot follow it.
    static func redactingJSON(_ body: Data) -> Data {
        let bytes = [UInt8](body)
        var output: [UInt8] = []
        var copied = 0  // bytes[..<copied] are decided
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                index += 1
                continue
            }
            guard let end = stringEnd(bytes, from: index) else { break }
            var next = end
            while next < bytes.count, isJSONWhitespace(bytes[next]) { next += 1 }
            guard next < bytes.count, bytes[next] == UInt8(ascii: ":"),
                isSecretName(memberName(bytes[(index + 1)..<(end - 1)]))
            else {
                index = end
                continue
            }
            var valueStart = next + 1
            while valueStart < bytes.count, isJSONWhitespace(bytes[valueStart]) { valueStart += 1 }
            guard valueStart < bytes.count, let valueEnd = valueEnd(bytes, from: valueStart) else { break }
            // `true`, `false` and `null` say whether there is one, not what it is.
            if ["true", "false", "null"].contains(where: { bytes[valueStart..<valueEnd].elementsEqual($0.utf8) }) {
                index = valueEnd
                continue
            }
            if output.isEmpty { output.reserveCapacity(bytes.count) }
            output += bytes[copied..<valueStart]
            output += Array("\"\(placeholder)\"".utf8)
            copied = valueEnd
            index = valueEnd
        }
        guard copied > 0 else { return body }
        output += bytes[copied...]
        return Data(output)
    }

    /// The index after the string that starts with the quote at `start`; `nil` when it does
    /// not end.
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return nil
    }

    /// The index after the value that starts at `start`: a string, an object or array (nested
    /// ones and strings in them skipped), or a bare number or literal.
    private static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(bytes, from: index) else { return nil }
                    index = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return nil
        default:
            var index = start
            while index < bytes.count, !isJSONWhitespace(bytes[index]),
                ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[index])
            {
                index += 1
            }
            return index
        }
    }

    /// A member name's text; escapes (`pass\u0077ord`) decoded so they cannot hide a name.
    private static func memberName(_ raw: ArraySlice<UInt8>) -> String {
        guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
        let quoted = Data([UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")])
        return (try? JSONDecoder().decode(String.self, from: quoted)) ?? String(decoding: raw, as: UTF8.self)
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
