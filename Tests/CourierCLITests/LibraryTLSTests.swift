import CourierTestServer
import Foundation
import Testing

/// `courier serve` over HTTPS, and `courier locations` trusting a private authority or a
/// self-signed certificate with `--ca-cert`; the banner's commands, run as printed.
struct LibraryTLSTests {
    private static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-tls-\(UUID().uuidString)")
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

        // The authority vouches for the server's names only.
        let wrongName = try await Courier.run(
            "locations",
            "France",
            "--service",
            "https://127.0.0.2:\(port)",
            "--ca-cert",
            certificates.authorityFile
        )
        #expect(wrongName.status == 3, "\(wrongName.stdout)")

        let stopped = await service.stop()
        #expect(stopped.status == 0)
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

    @Test func theBannerOfEveryInterfaceGivesCommandsThatAreNotRefused() async throws {
        let service = try await CourierService.start(["--host", "0.0.0.0"])
        let local = try #require(Self.command(after: "or run: courier ", in: service.banner), "\(service.banner)")
        let result = try await Courier.run(local)
        #expect(result.status == 0, "\(local): \(result.stderr)")
        #expect(result.stdout.contains("Paris"))

        // Another machine reaches this one by name, in cleartext: the command allows that name.
        let remote = try #require(Self.command(after: "From another machine: courier ", in: service.banner))
        let name = try #require(remote.last)
        #expect(remote.suffix(2) == ["--allow-http", name])
        #expect(remote.contains { $0.hasPrefix("http://\(name):") })
        _ = await service.stop()
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
