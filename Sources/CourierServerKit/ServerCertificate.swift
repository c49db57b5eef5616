public import Foundation
import NIOSSL
import SwiftASN1
import X509

/// The certificate chain and private key a server presents over TLS, read from PEM files and
/// checked at start: both readable, the key the certificate's own and not readable by every
/// user, the certificate in date.
///
/// ```swift
/// let certificate = try ServerCertificate(certificateFile: "server.pem", privateKeyFile: "server.key")
/// try await limits.serve(responder, host: "0.0.0.0", port: 8443, certificate: certificate, logger: logger)
/// ```
public struct ServerCertificate: Sendable {
    /// The DNS names and IP addresses the certificate is for, in the order it lists them.
    public let names: [String]
    /// Whether the certificate signed itself: clients must be told to trust it (`--ca-cert`).
    public let isSelfSigned: Bool
    /// When it stops being valid.
    public let notValidAfter: Date
    let chain: [NIOSSLCertificate]
    let privateKey: NIOSSLPrivateKey

    /// Reads and checks the certificate chain (the server's first, then any intermediates) and
    /// the private key, both PEM, at most 1 MiB each.
    ///
    /// - Throws: ``ServerCertificateError`` naming the file and what is wrong with it.
    public init(certificateFile: String, privateKeyFile: String, now: Date = Date()) throws(ServerCertificateError) {
        let certificatePEM = try Self.read(certificateFile, what: "certificate")
        let keyPEM = try Self.read(privateKeyFile, what: "private key")
        let chain: [NIOSSLCertificate]
        let leaf: Certificate
        guard certificatePEM.contains("-----BEGIN CERTIFICATE-----") else {
            throw ServerCertificateError(file: certificateFile, problem: "holds no -----BEGIN CERTIFICATE----- block")
        }
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))
            guard let first = chain.first else {
                throw ServerCertificateError(
                    file: certificateFile,
                    problem: "holds no -----BEGIN CERTIFICATE----- block"
                )
            }
            leaf = try Certificate(derEncoded: first.toDERBytes())
        } catch let error as ServerCertificateError {
            throw error
        } catch {
            throw ServerCertificateError(file: certificateFile, problem: "is not a PEM certificate (\(error))")
        }
        let privateKey: NIOSSLPrivateKey
        let key: Certificate.PrivateKey
        do {
            privateKey = try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
            key = try Certificate.PrivateKey(pemEncoded: keyPEM)
        } catch {
            throw ServerCertificateError(
                file: privateKeyFile,
                problem: "is not an unencrypted PEM private key (RSA, ECDSA or Ed25519)"
            )
        }
        try Self.checkPrivate(privateKeyFile)
        guard key.publicKey == leaf.publicKey else {
            throw ServerCertificateError(
                file: privateKeyFile,
                problem: "is not the key of the certificate in \(certificateFile): give the pair made together"
            )
        }
        guard leaf.notValidAfter > now else {
            throw ServerCertificateError(
                file: certificateFile,
                problem: "expired on \(leaf.notValidAfter.formatted(.iso8601)): renew it"
            )
        }
        guard leaf.notValidBefore <= now else {
            throw ServerCertificateError(
                file: certificateFile,
                problem: "is not valid before \(leaf.notValidBefore.formatted(.iso8601)): check the clock"
            )
        }
        self.chain = chain
        self.privateKey = privateKey
        self.notValidAfter = leaf.notValidAfter
        self.isSelfSigned = leaf.issuer == leaf.subject
        self.names = Self.names(of: leaf)
    }

    /// The subject alternative names a client can check: DNS names and IP addresses.
    private static func names(of certificate: Certificate) -> [String] {
        guard let alternatives = try? certificate.extensions.subjectAlternativeNames else { return [] }
        return alternatives.compactMap { name in
            switch name {
            case .dnsName(let dnsName): dnsName
            case .ipAddress(let octets): address(Array(octets.bytes))
            default: nil
            }
        }
    }

    /// "192.0.2.1" or "2001:db8::1" (uncompressed groups) from an address's bytes.
    private static func address(_ bytes: [UInt8]) -> String? {
        switch bytes.count {
        case 4: return bytes.map(String.init).joined(separator: ".")
        case 16:
            return stride(from: 0, to: 16, by: 2).map {
                String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
            }
            .joined(separator: ":")
        default: return nil
        }
    }

    private static let maximumFileSize = 1 << 20

    /// Refuses a key file any user of the machine may read, or one others than its owner may
    /// change, as PostgreSQL does: such a key is no longer the server's alone. The file judged
    /// is the one read, through any symbolic link (certbot's `live/` keys are links). A key its
    /// group may read (0640, group `ssl-cert`) is accepted when root owns it.
    private static func checkPrivate(_ path: String) throws(ServerCertificateError) {
        // Reading it already said why a file that cannot be looked at cannot be used.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: target),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
        else { return }
        let owner = (attributes[.ownerAccountID] as? NSNumber)?.intValue
        let forbidden = owner == 0 ? 0o026 : 0o066  // others may read or write; the group may write (or read)
        guard mode & forbidden == 0 else {
            throw ServerCertificateError(
                file: path,
                problem:
                    "may be read or changed by other users (mode 0\(String(mode & 0o777, radix: 8))): chmod 600 it "
                    + "(or 640, owned by root, for a group such as ssl-cert), and replace the key and certificate "
                    + "if others could read it"
            )
        }
    }

    private static func read(_ path: String, what: String) throws(ServerCertificateError) -> String {
        let url = URL(fileURLWithPath: path)
        let contents: Data
        do {
            if let size = try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize, size > maximumFileSize {
                throw ServerCertificateError(file: path, problem: "is larger than 1 MiB: that is not a PEM \(what)")
            }
            contents = try Data(contentsOf: url)
        } catch let error as ServerCertificateError {
            throw error
        } catch {
            let problem =
                FileManager.default.fileExists(atPath: path)
                ? "cannot be read (\((error as NSError).localizedDescription))" : "does not exist"
            throw ServerCertificateError(file: path, problem: problem)
        }
        guard let text = String(data: contents, encoding: .utf8) else {
            throw ServerCertificateError(file: path, problem: "is not PEM text: convert a DER \(what) to PEM")
        }
        return text
    }
}

/// A certificate or key file a server cannot use: which file and what is wrong.
public struct ServerCertificateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public var file: String
    /// What is wrong with it.
    public var problem: String

    /// Creates the error.
    public init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    /// "server.key is not the key of the certificate in server.pem: …".
    public var description: String { "\(file) \(problem)" }
}
