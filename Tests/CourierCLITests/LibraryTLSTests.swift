import CourierServerKit
import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

@testable import CourierCLI

/// `courier serve` over HTTPS, and `courier locations` trusting a private authority or a
/// self-signed certificate with `--ca-cert`; the banner's commands, run as printed.
@Suite(.loadLimited)
struct LibraryTLSTests {
    private static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-tls-\(UUID().uuidString)")
    }

    /// `courier get -v` names the protocol: HTTP/2 from `courier serve --tls-cert`, which offers
    /// it by ALPN, and HTTP/1.1 from a server that offers only that.
    @Test func verboseNamesTheProtocolEachServerSpeaks() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificates = try TestCertificates.make(in: directory)
        let service = try await CourierService.start([
            "--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile,
        ])
        let port = try #require(service.url.port)
        let h2 = try await Courier.run(
            "get",
            "https://127.0.0.1:\(port)/locations?country=fr",
            "-v",
            "--ca-cert",
            certificates.authorityFile
        )
        #expect(h2.status == 0, "\(h2.stderr)")
        #expect(h2.stderr.contains("(HTTP/2, "), "\(h2.stderr)")
        #expect(h2.stdout.contains("Paris"))
        #expect(await service.stop().status == 0)

        try await TestServer.withRunning(certificate: certificates) { server in
            let h1 = try await Courier.run(
                "get",
                server.url("/json").absoluteString,
                "-v",
                "--ca-cert",
                certificates.authorityFile
            )
            #expect(h1.status == 0, "\(h1.stderr)")
            #expect(h1.stderr.contains("(HTTP/1.1, "), "\(h1.stderr)")
        }
    }

    @Test func aPrivateAuthorityIsTrustedWithCACert() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificates = try TestCertificates.make(in: directory)
        let service = try await CourierService.start([
            "--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile,
        ])
        #expect(service.url.scheme == "https")
        let port = try #require(service.url.port)

        for host in ["127.0.0.1", "localhost"] {
            let address = "https://\(host):\(port)"
            let trusted = try await Courier.run(
                "locations",
                "France",
                "--service",
                address,
                "--ca-cert",
                certificates.authorityFile
            )
            #expect(trusted.status == 0, "\(trusted.stderr)")
            #expect(trusted.stdout.contains("Paris"))
        }

        let untrusted = try await Courier.run("catalog", "the", "--service", "https://127.0.0.1:\(port)")
        #expect(untrusted.status == 3)
        #expect(untrusted.stderr.localizedCaseInsensitiveContains("certificate"), "\(untrusted.stderr)")
        #expect(untrusted.stdout.isEmpty)

        let stopped = await service.stop()
        #expect(stopped.status == 0)

        // The authority vouches for the names in the certificate only.
        let named = try TestCertificates.make(in: directory.appendingPathComponent("named"), addressed: false)
        let onlyLocalhost = try await CourierService.start([
            "--tls-cert", named.certificateFile, "--tls-key", named.keyFile,
        ])
        let namedPort = try #require(onlyLocalhost.url.port)
        let wrongName = try await Courier.run(
            "locations",
            "France",
            "--service",
            "https://127.0.0.1:\(namedPort)",
            "--ca-cert",
            named.authorityFile
        )
        #expect(wrongName.status == 3, "\(wrongName.stdout)")
        #expect(wrongName.stderr.localizedCaseInsensitiveContains("certificate"), "\(wrongName.stderr)")
        #expect(!wrongName.stderr.contains("refused"), "\(wrongName.stderr)")
        let rightName = try await Courier.run(
            "locations",
            "France",
            "--service",
            "https://localhost:\(namedPort)",
            "--ca-cert",
            named.authorityFile
        )
        #expect(rightName.status == 0, "\(rightName.stderr)")
        #expect(await onlyLocalhost.stop().status == 0)
    }

    @Test func theBannerCommandWorksAsPrintedWithASelfSignedCertificate() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificates = try TestCertificates.make(in: directory, selfSigned: true)
        let service = try await CourierService.start([
            "--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile,
        ])
        let command = try #require(Self.command(after: "or run: courier ", in: service.banner), "\(service.banner)")
        #expect(command.joined(separator: " ").hasSuffix("--ca-cert \(certificates.certificateFile)"))
        let result = try await Courier.run(command)
        #expect(result.status == 0, "\(command): \(result.stderr)")
        #expect(result.stdout.contains("Paris"))
        _ = await service.stop()
    }

    /// For every interface the banner gives a command for this machine and one for others; the
    /// server is not started here (tests listen on loopback only).
    @Test func theBannerOfEveryInterfaceNamesThisMachineAndOthers() throws {
        let url = try #require(URL(string: "http://0.0.0.0:8080"))
        let cleartext = ServeBanner(host: "0.0.0.0", certificate: nil, certificateFile: nil, machineName: "shelf")
            .text(listeningOn: url, summary: "3 books")
        #expect(
            cleartext == """
                Serving the library on http://0.0.0.0:8080 (3 books).
                Open http://127.0.0.1:8080/ in a browser, or run: courier locations France --service http://127.0.0.1:8080
                From another machine: courier locations France --service http://shelf:8080 --allow-http shelf
                Ctrl-C stops it.
                """
        )

        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try TestCertificates.make(in: directory, selfSigned: true)
        let certificate = try ServerCertificate(certificateFile: files.certificateFile, privateKeyFile: files.keyFile)
        let https = try #require(URL(string: "https://0.0.0.0:8443"))
        let banner = ServeBanner(
            host: "::",
            certificate: certificate,
            certificateFile: files.certificateFile,
            machineName: "shelf"
        )
        .text(listeningOn: https, summary: "3 books")
        // The certificate names only this machine: no command for others, whose name it lacks.
        #expect(
            banner == """
                Serving the library on https://0.0.0.0:8443 (3 books), HTTPS with HTTP/2.
                Open https://localhost:8443/ in a browser, or run: courier locations France --service https://localhost:8443 --ca-cert \(files.certificateFile)
                Ctrl-C stops it.
                """
        )
    }

    /// A client that opens a connection and never finishes its TLS handshake is cut off by the
    /// request deadline, as one that never finishes a request is.
    @Test func aClientThatNeverFinishesItsHandshakeIsCutOff() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try TestCertificates.make(in: directory)
        let service = try await CourierService.start([
            "--tls-cert", files.certificateFile, "--tls-key", files.keyFile, "--request-timeout", "1",
            "--idle-timeout", "86400",
        ])
        let port = try #require(service.url.port)
        let silent = try RawConnection(port: port)
        let trickling = try RawConnection(port: port)
        trickling.send("\u{16}\u{03}\u{01}")  // the start of a TLS record, and no more
        // Closed after a second; 60 s is only the margin for a loaded machine.
        #expect(await silent.read(for: 60).closed, "a silent connection was still open after 60 s")
        #expect(await trickling.read(for: 60).closed, "a half-sent hello was still open after 60 s")
        let answered = try await Courier.run(
            "locations",
            "France",
            "--service",
            "https://127.0.0.1:\(port)",
            "--ca-cert",
            files.authorityFile
        )
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(await service.stop().status == 0)
    }

    @Test func certificateProblemsAreExplainedAtStart() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificates = try TestCertificates.make(in: directory)
        let cases: [([String], String)] = [
            (
                ["--tls-cert", certificates.certificateFile, "--tls-key", certificates.otherKeyFile],
                "\(certificates.otherKeyFile) is not the key of the certificate in \(certificates.certificateFile)"
            ),
            (
                ["--tls-cert", certificates.expiredCertificateFile, "--tls-key", certificates.keyFile],
                "\(certificates.expiredCertificateFile) expired on "
            ),
            (
                ["--tls-cert", directory.path + "/missing.pem", "--tls-key", certificates.keyFile],
                "\(directory.path)/missing.pem does not exist"
            ),
            (
                ["--tls-cert", certificates.keyFile, "--tls-key", certificates.keyFile],
                "\(certificates.keyFile) holds no -----BEGIN CERTIFICATE----- block"
            ),
            (
                ["--tls-cert", certificates.certificateFile, "--tls-key", certificates.certificateFile],
                "\(certificates.certificateFile) is not an unencrypted PEM private key"
            ),
            (["--tls-cert", certificates.certificateFile], "HTTPS needs both --tls-cert and --tls-key."),
        ]
        for (arguments, message) in cases {
            let result = try await Courier.run(["serve", "--port", "0"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let badCA = try await Courier.run("locations", "--ca-cert", certificates.keyFile)
        #expect(badCA.status == 2)
        #expect(badCA.stderr.contains("--ca-cert \(certificates.keyFile) holds no -----BEGIN CERTIFICATE----- block"))
    }

    @Test func thePortComesFromTheEnvironmentWhenNotGiven() async throws {
        let service = try await CourierService.start(command: ["serve"], environment: ["PORT": "0"])
        #expect(service.url.port != 8080)
        #expect(service.url.port != 0)
        _ = await service.stop()

        let bad = try await Courier.run(["serve"], environment: ["PORT": "http"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("PORT 'http' in the environment is not a port (0 to 65535)"), "\(bad.stderr)")
    }

    /// The words of the command that follows `marker` on its line of `banner`.
    private static func command(after marker: String, in banner: String) -> [String]? {
        guard let line = banner.split(separator: "\n").first(where: { $0.contains(marker) }),
            let range = line.range(of: marker)
        else { return nil }
        return line[range.upperBound...].split(separator: " ").map(String.init)
    }
}
