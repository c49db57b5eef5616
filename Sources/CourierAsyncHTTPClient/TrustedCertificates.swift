import Foundation
import NIOSSL

/// Certificates a transport trusts besides the system's roots: a private certificate
/// authority, or a service's own self-signed certificate.
///
/// ```swift
/// let trusted = try TrustedCertificates(pemFile: "ca.pem")
/// let transport = AsyncHTTPClientTransport(configuration: .init(additionalTrustRoots: trusted))
/// ```
///
/// Names are still checked: the service's certificate must name the host the URL names.
public struct TrustedCertificates: Sendable {
    /// No certificates beyond the system's.
    public static let none = TrustedCertificates(certificates: [])

    let certificates: [NIOSSLCertificate]

    private init(certificates: [NIOSSLCertificate]) {
        self.certificates = certificates
    }

    /// The certificates in a PEM file (`-----BEGIN CERTIFICATE-----` blocks), at most 1 MiB.
    ///
    /// - Throws: ``CertificateFileError`` when the file cannot be read or holds no certificate.
    public init(pemFile path: String) throws(CertificateFileError) {
        let contents: Data
        do {
            let url = URL(fileURLWithPath: path)
            let values = try url.resolvingSymlinksInPath().resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            guard values.isRegularFile != false else {
                throw CertificateFileError(path: path, reason: "is not a regular file: give a PEM certificate file")
            }
            guard values.fileSize ?? 0 <= Self.maximumFileSize else {
                throw CertificateFileError(
                    path: path,
                    reason: "is larger than 1 MiB: a PEM certificate file is far smaller"
                )
            }
            contents = try Data(contentsOf: url)
        } catch let error as CertificateFileError {
            throw error
        } catch {
            let reason =
                FileManager.default.fileExists(atPath: path)
                ? "cannot be read (\((error as NSError).localizedDescription))" : "does not exist"
            throw CertificateFileError(path: path, reason: reason)
        }
        try self.init(pem: Array(contents), path: path)
    }

    /// The certificates in PEM text; `path` names its source in errors.
    public init(pem bytes: [UInt8], path: String = "the PEM text") throws(CertificateFileError) {
        guard bytes.firstRange(of: Array("-----BEGIN CERTIFICATE-----".utf8)) != nil else {
            throw CertificateFileError(path: path, reason: "holds no -----BEGIN CERTIFICATE----- block")
        }
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMBytes(bytes)
        } catch {
            throw CertificateFileError(path: path, reason: "is not a PEM certificate (\(error))")
        }
        guard !certificates.isEmpty else {
            throw CertificateFileError(path: path, reason: "holds no -----BEGIN CERTIFICATE----- block")
        }
        self.init(certificates: certificates)
    }

    /// All of `self`'s certificates and `other`'s.
    public func adding(_ other: TrustedCertificates) -> TrustedCertificates {
        TrustedCertificates(certificates: certificates + other.certificates)
    }

    /// How many certificates are trusted.
    public var count: Int { certificates.count }

    private static let maximumFileSize = 1 << 20
}

/// A certificate file that cannot be trusted: which file and why.
public struct CertificateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    /// Creates the error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// "ca.pem does not exist".
    public var description: String { "\(path) \(reason)" }
}
