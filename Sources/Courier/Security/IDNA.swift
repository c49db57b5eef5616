import Foundation

/// Internationalized domain names as they travel: ASCII. A name's A-labels (`xn--bcher-kva`) are
/// what DNS, TLS certificates and the security policy see; its U-labels (`bücher`) are how a
/// person writes it.
///
/// Foundation decodes A-labels in `URLComponents.host` and `percentEncodedHost`, so Courier reads
/// hosts with `encodedHost` (the host as written, in ASCII), and converts a host given with
/// U-labels by IDNA (UTS #46, as Foundation does for URLs). Anything else non-ASCII is refused
/// by ``RequestTarget``.
enum IDNA {
    /// `host` in ASCII: as it is when it is ASCII already; its IDNA conversion when it has
    /// U-labels and converts to a name of ASCII letters, digits, `-` and `.`; otherwise as it
    /// is, for ``RequestTarget`` to refuse with the reason.
    static func asciiHost(_ host: String) -> String {
        guard host.utf8.contains(where: { $0 >= 0x80 }) else { return host }
        var components = URLComponents()
        components.host = host
        guard let converted = components.encodedHost,
            converted.utf8.allSatisfy({ byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            })
        else { return host }
        return converted
    }

}
