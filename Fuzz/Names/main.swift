// libFuzzer harness: the names Courier reads from outside — a download's file name from a URL
// or a server (Download/DownloadFileName.swift), and a `Host` field or URL authority
// (Security/HTTPAuthority.swift), with the address space a redirect is judged by
// (Security/AddressSpace.swift) and IDNA conversion (Security/IDNA.swift).
//
// Built into the Courier module's own sources (internal types are reachable); HTTPTypes and
// Logging are linked from the package's debug build.
import Foundation

/// libFuzzer's entry point: runs one input of `count` bytes at `start`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let value = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)

    // A file name: one component, never empty, hidden, `.` or `..`, no separator or control
    // character, within the length limit; whether from a name or a URL's last segment.
    var names = [DownloadFileName.sanitized(value), DownloadFileName.sanitized(value, fallback: value)]
    if let url = URL(string: "https://example.com/d/" + value) { names.append(DownloadFileName.suggested(by: url)) }
    if let url = URL(string: value) { names.append(DownloadFileName.suggested(by: url)) }
    for name in names {
        precondition(!name.isEmpty && !name.hasPrefix("."), "an empty or hidden name")
        precondition(name.utf8.count <= DownloadFileName.maximumLength, "a name past the limit")
        precondition(
            !name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
            "a separator or control character in a name"
        )
    }

    // An authority: what is accepted reads back the same, has a name-like or IPv6 host, and a
    // port in range; what is refused says why.
    if let authority = HTTPAuthority(parsing: value) {
        precondition(HTTPAuthority(parsing: authority.description) == authority, "an authority that reads back differently")
        precondition(!authority.host.isEmpty, "an empty host")
        precondition(
            !authority.host.utf8.contains { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "%") || $0 >= 0x80 || $0 <= 0x20 },
            "a host with a delimiter"
        )
        if let port = authority.port { precondition((1...65535).contains(port), "a port out of range") }
        _ = AddressSpace(host: authority.host)
        precondition(authority.isLoopback == TransportSecurityPolicy.isLoopback(authority: value), "two loopback answers")
    } else {
        precondition(HTTPAuthority.problem(with: value) != nil, "a refusal without a reason")
        precondition(!TransportSecurityPolicy.isLoopback(authority: value), "loopback but refused")
    }
    _ = AddressSpace(host: value)
    _ = IDNA.asciiHost(value)
    return 0
}
