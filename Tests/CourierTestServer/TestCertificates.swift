import Crypto
public import Foundation
import SwiftASN1
import X509

/// Certificates made for one test run, written as PEM files: a private certificate authority
/// and a server certificate it signed, or a server certificate that signed itself; each for
/// `localhost` and 127.0.0.1.
public struct TestCertificates: Sendable {
    /// The authority's certificate: what clients pass to `--ca-cert` (for a self-signed set,
    /// the server's own certificate).
    public let authorityFile: String
    /// The server's certificate.
    public let certificateFile: String
    /// The server certificate's private key.
    public let keyFile: String
    /// A key that belongs to no certificate here, for mismatch tests.
    public let otherKeyFile: String
    /// A certificate for the same names that expired yesterday.
    public let expiredCertificateFile: String

    /// Writes a new set into `directory`.
    /// With `addressed` false the server's certificate names `localhost` only, not 127.0.0.1.
    public static func make(
        in directory: URL,
        selfSigned: Bool = false,
        addressed: Bool = true
    ) throws
        -> TestCertificates
    {
        let now = Date()
        let serverKey = P256.Signing.PrivateKey()
        let serverName = try DistinguishedName { CommonName("localhost") }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            try ExtendedKeyUsage([.serverAuth])
            SubjectAlternativeNames(
                [.dnsName("localhost")]
                    + (addressed ? [.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))] : [])
            )
        }
        let authorityKey = selfSigned ? serverKey : P256.Signing.PrivateKey()
        let authorityName = selfSigned ? serverName : try DistinguishedName { CommonName("Courier Test CA") }
        func serverCertificate(validUntil end: Date) throws -> Certificate {
            try Certificate(
                version: .v3,
                serialNumber: .init(),
                publicKey: .init(serverKey.publicKey),
                notValidBefore: now - 3600,
                notValidAfter: end,
                issuer: authorityName,
                subject: serverName,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: extensions,
                issuerPrivateKey: .init(authorityKey)
            )
        }
        let server = try serverCertificate(validUntil: now + 86_400)
        let expired = try serverCertificate(validUntil: now - 86_400)
        let authority =
            selfSigned
            ? server
            : try Certificate(
                version: .v3,
                serialNumber: .init(),
                publicKey: .init(authorityKey.publicKey),
                notValidBefore: now - 3600,
                notValidAfter: now + 86_400,
                issuer: authorityName,
                subject: authorityName,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true))
                },
                issuerPrivateKey: .init(authorityKey)
            )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            // Keys are their owner's, as openssl writes them (a server refuses a key others may read).
            if name.hasSuffix(".key") {
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
            }
            return url.path
        }
        return TestCertificates(
            authorityFile: try write("ca.pem", authority.serializeAsPEM().pemString),
            certificateFile: try write("server.pem", server.serializeAsPEM().pemString),
            keyFile: try write("server.key", serverKey.pemRepresentation),
            otherKeyFile: try write("other.key", P256.Signing.PrivateKey().pemRepresentation),
            expiredCertificateFile: try write("expired.pem", expired.serializeAsPEM().pemString)
        )
    }
}
