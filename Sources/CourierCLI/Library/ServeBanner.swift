import CourierServerKit
import Foundation

/// What `courier serve` prints once it listens: where, and client commands that work as
/// printed — from this machine and, when it listens beyond loopback, from others.
struct ServeBanner {
    /// The `--host` given.
    var host: String
    /// The certificate served, for HTTPS.
    var certificate: ServerCertificate?
    /// `--tls-cert`, which clients pass to `--ca-cert` when the certificate signed itself.
    var certificateFile: String?
    /// This machine's name, for clients elsewhere.
    var machineName = ProcessInfo.processInfo.hostName

    /// The banner for a server listening on `url`.
    func text(listeningOn url: URL, summary: String) -> String {
        let port = url.port.map { ":\($0)" } ?? ""
        var lines = ["Serving the library on \(url) (\(summary))\(certificate == nil ? "" : ", HTTPS with HTTP/2")."]
        if let certificate {
            // Absolute: the client may run in another directory.
            let file = certificateFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? "CERT.pem"
            let trust = certificate.isSelfSigned ? " --ca-cert \(Self.quoted(file))" : ""
            let (local, remote) = serverNames(for: certificate)
            if let local {
                let service = "https://\(Self.authority(local))\(port)"
                lines.append(
                    "Open \(service)/ in a browser, or run: courier locations France --service \(service)\(trust)"
                )
            }
            if let remote {
                let service = "https://\(Self.authority(remote))\(port)"
                lines.append(
                    "\(local == nil ? "Run" : "From another machine"): courier locations France --service \(service)\(trust)"
                )
            }
            if !certificate.isSelfSigned {
                lines.append("(Clients add --ca-cert with your authority's certificate if it is a private one.)")
            }
            if certificate.names.isEmpty {
                lines.append("Warning: the certificate names no host, so clients will refuse it: add a subjectAltName.")
            }
        } else if isWildcard {
            let local = "http://127.0.0.1\(port)"
            lines.append("Open \(local)/ in a browser, or run: courier locations France --service \(local)")
            let remote = "http://\(Self.authority(machineName))\(port)"
            lines.append(
                "From another machine: courier locations France --service \(remote) --allow-http \(machineName)"
            )
        } else {
            let local = "http://\(Self.authority(host))\(port)"
            let allow = Self.isLoopback(host) ? "" : " --allow-http \(host)"
            lines.append("Open \(local)/ in a browser, or run: courier locations France --service \(local)\(allow)")
        }
        lines.append("Ctrl-C stops it.")
        return lines.joined(separator: "\n")
    }

    /// 0.0.0.0 or `::`, however written: every interface.
    private var isWildcard: Bool { ListeningAddress.isWildcard(host) }

    /// The names clients use for HTTPS, which must be names the certificate lists (wildcards
    /// cannot be connected to): one for this machine (the host listened on, or for every
    /// interface a loopback name) and one for other machines when the server is reachable
    /// from them.
    private func serverNames(for certificate: ServerCertificate) -> (local: String?, remote: String?) {
        let exact = certificate.names.filter { !$0.contains("*") }
        if !isWildcard {
            let name = exact.contains(host) || exact.isEmpty ? host : exact[0]
            return Self.isLoopback(name) ? (name, nil) : (nil, name)
        }
        let local = exact.first(where: Self.isLoopback)
        let remote = exact.first(where: { !Self.isLoopback($0) }) ?? (local == nil ? machineName : nil)
        return (local, remote)
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1"
    }

    private static func authority(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }

    /// A path as a shell reads it back: quoted when it holds anything but safe characters.
    private static func quoted(_ path: String) -> String {
        let safe = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "/._-+=:,@"))
        if !path.isEmpty, path.unicodeScalars.allSatisfy(safe.contains) { return path }
        return "'" + path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
