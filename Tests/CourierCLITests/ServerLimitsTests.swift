import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// `courier serve` and `courier replay` shed silent clients, cap their connections, and
/// `replay` answers only requests addressed to this machine.
@Suite("Server limits", .loadLimited)
struct ServerLimitsTests {
    static let cassette = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/store-king.json").path

    @Test(arguments: [["serve", "--port", "0"], ["replay", cassette, "--port", "0"]])
    func aSilentConnectionIsClosed(command: [String]) async throws {
        let service = try await CourierService.start(command: command + ["--idle-timeout", "1"])
        let silent = try RawConnection(port: try #require(service.url.port))
        // The server closes it after a second; 60 s is only the margin for a loaded machine.
        let answer = await silent.read(for: 60)
        #expect(answer.closed, "the connection was still open after 60 s")
        #expect(answer.text.isEmpty)
        #expect(await service.stop(with: SIGINT).status == 0)
    }

    /// A client that sends part of a request and then trickles (or stalls) is never idle long
    /// enough for the idle timeout; the request deadline closes its connection.
    @Test(arguments: [["serve", "--port", "0"], ["replay", cassette, "--port", "0"]])
    func aClientTooSlowToSendItsRequestIsCutOff(command: [String]) async throws {
        let service = try await CourierService.start(
            command: command + ["--idle-timeout", "86400", "--request-timeout", "1"]
        )
        let slow = try RawConnection(port: try #require(service.url.port))
        slow.send("POST /search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nterm=")
        // Only the request deadline can close it: the idle timeout is a day. 60 s is the margin
        // for a loaded machine.
        let answer = await slow.read(for: 60)
        #expect(answer.closed, "the connection was still open after 60 s")
        #expect(await service.stop(with: SIGINT).status == 0)
    }

    /// A client that asks for a lot and never reads the answers is not idle (a request is in
    /// progress) and sends nothing late: the write clock closes it. With one connection
    /// allowed, a second client is served exactly when the first has been cut off.
    @Test func aClientThatDoesNotReadIsCutOff() async throws {
        let service = try await CourierService.start(
            command: [
                "serve", "--port", "0", "--max-connections", "1", "--idle-timeout", "86400", "--request-timeout", "1",
            ]
        )
        let port = try #require(service.url.port)
        let greedy = try RawConnection(port: port)
        let ask = "GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        greedy.send(ask)
        // Served: it holds the one place (connections accepted together could both get in).
        #expect(await greedy.read(for: 60, until: "HTTP/1.1 200").text.hasPrefix("HTTP/1.1 200"))
        // 2,000 answers of 12 KB: far more than the kernel buffers on both sides hold.
        greedy.send(String(repeating: ask, count: 2000))
        let next = try RawConnection(port: port)
        next.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let answer = await next.read(for: 60)
        #expect(answer.text.hasPrefix("HTTP/1.1 200"), "the second client was not served within 60 s")
        withExtendedLifetime(greedy) {}  // open, and unread, until then
        #expect(await service.stop(with: SIGINT).status == 0)
    }

    @Test func connectionsBeyondTheLimitWaitTheirTurn() async throws {
        let service = try await CourierService.start(command: ["serve", "--port", "0", "--max-connections", "1"])
        let port = try #require(service.url.port)
        var first: RawConnection? = try RawConnection(port: port)
        first?.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let served = await first?.read(for: 60, until: "}").text
        #expect(served?.hasPrefix("HTTP/1.1 200") == true, "\(served ?? "")")  // served, and kept open
        let second = try RawConnection(port: port)
        second.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(await second.read(for: 1).text.isEmpty, "a second connection was served beside the first")
        first = nil  // closes it: the place is free
        let answer = await second.read(for: 60)
        #expect(answer.text.hasPrefix("HTTP/1.1 200"), "\(answer.text)")
        // SIGHUP (`systemctl reload`) with the built-in data changes nothing and stops nothing.
        service.send(SIGHUP)
        #expect(await service.waitForLog("SIGHUP: nothing to reload"))
        #expect(await service.stop(with: SIGINT).status == 0)
    }

    @Test func replayAnswersOnlyRequestsAddressedToThisMachine() async throws {
        let service = try await CourierService.start(command: ["replay", Self.cassette, "--port", "0"])
        let port = try #require(service.url.port)
        for host in ["evil.example", "evil.example:\(port)", "127.0.0.1.evil.example", "[::2]"] {
            let connection = try RawConnection(port: port)
            connection.send("GET /search?term=king HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            let answer = await connection.read(for: 60)
            #expect(answer.text.hasPrefix("HTTP/1.1 421"), "Host: \(host): \(answer.text.prefix(80))")
        }
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST", "[::1]:\(port)"] {
            let connection = try RawConnection(port: port)
            connection.send("GET /nothing HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            let answer = await connection.read(for: 60)
            #expect(answer.text.hasPrefix("HTTP/1.1 404"), "Host: \(host): \(answer.text.prefix(80))")
        }
        #expect(await service.stop(with: SIGINT).status == 0)
    }
}
