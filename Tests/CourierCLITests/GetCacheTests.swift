import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// `courier get --cache DIR`: responses reused across runs of the command.
@Suite("courier get --cache", .loadLimited)
struct GetCacheTests {
    /// A cache directory of the test's own, not yet created.
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-\(UUID().uuidString)")
    }

    @Test func aSecondRunIsAnsweredFromTheCacheDirectory() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.withRunning { server in
            let url = server.url("/cacheable/cli?cc=max-age%3D600").absoluteString
            let first = try await Courier.run("get", url, "--cache", directory.path, "--verbose")
            #expect(first.stdout == "cli #1")
            #expect(first.stderr.contains("bytes, cache MISS)"))
            let second = try await Courier.run("get", url, "--cache", directory.path, "--verbose")
            #expect(second.stdout == "cli #1")
            #expect(second.stderr.contains("bytes, cache HIT)"))
            let offline = try await Courier.run("get", url, "--cache", directory.path, "--offline")
            #expect(offline.stdout == "cli #1")
            #expect(await server.events.hitCount("cli") == 1)
        }
    }

    /// A stale response within its stale-while-revalidate window is printed at once, and the
    /// command revalidates it before it exits: the next run finds it fresh.
    @Test func aStaleWhileRevalidateAnswerIsRevalidatedBeforeTheCommandExits() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.withRunning { server in
            // Stale on arrival (Age 1200, max-age 600); the 304 carries no Age.
            let query = "cc=max-age%3D600%2C%20stale-while-revalidate%3D6000&etag=%22c%22&age=1200"
            let url = server.url("/cacheable/cliswr?\(query)").absoluteString
            _ = try await Courier.run("get", url, "--cache", directory.path)
            let stale = try await Courier.run("get", url, "--cache", directory.path, "--verbose")
            #expect(stale.stdout == "cliswr #1")
            #expect(stale.stderr.contains("bytes, cache STALE)"))
            #expect(await server.events.hitCount("cliswr:304") == 1, "revalidated before the command exited")
            let fresh = try await Courier.run("get", url, "--cache", directory.path, "--verbose")
            #expect(fresh.stderr.contains("bytes, cache HIT)"))
            #expect(await server.events.hitCount("cliswr") == 2)
        }
    }

    /// A stale error status is revalidated before the command exits, too.
    @Test func aStaleErrorIsRevalidatedBeforeTheCommandExits() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.withRunning { server in
            let query = "status=404&cc=max-age%3D600%2C%20stale-while-revalidate%3D6000&etag=%22e%22&age=1200"
            let url = server.url("/cacheable/cli404?\(query)").absoluteString
            _ = try await Courier.run("get", url, "--cache", directory.path)
            let stale = try await Courier.run("get", url, "--cache", directory.path)
            #expect(stale.status != 0)
            #expect(await server.events.hitCount("cli404:304") == 1, "revalidated before the command exited")
        }
    }

    /// A range is answered from the stored response.
    @Test func aRangeIsAnsweredFromTheCacheDirectory() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.withRunning { server in
            let url = server.url("/cacheable/clirange?cc=max-age%3D600&etag=%22r%22").absoluteString
            _ = try await Courier.run("get", url, "--cache", directory.path)
            let part = try await Courier.run(
                "get",
                url,
                "--cache",
                directory.path,
                "-H",
                "Range: bytes=-2",
                "--include",
                "--verbose"
            )
            #expect(part.stdout.hasPrefix("HTTP 206 "))
            #expect(part.stdout.lowercased().contains("content-range: bytes 9-10/11"))  // of "clirange #1"
            #expect(part.stdout.hasSuffix("\n\n#1"))
            #expect(part.stderr.contains("cache HIT"))
            #expect(await server.events.hitCount("clirange") == 1)
        }
    }

    @Test func offlineWithoutAStoredResponseSaysSo() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Courier.run("get", "http://127.0.0.1:9/nothing", "--cache", directory.path, "--offline")
        #expect(result.status == 5)
        #expect(
            result.stderr
                == "courier: Nothing stored for http://127.0.0.1:9/nothing in \(directory.path): run once without --offline to fill the cache.\n"
        )
        let misuse = try await Courier.run("get", "http://127.0.0.1:9/nothing", "--offline")
        #expect(misuse.status == 2)
        #expect(misuse.stderr.contains("--offline needs --cache DIR."))
    }

    @Test func anUnusableCacheDirectoryIsAUsageError() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-file-\(UUID().uuidString)")
        try Data("not a directory".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await Courier.run("get", "http://127.0.0.1:9/x", "--cache", file.path)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("courier: Cannot use \(file.path) as a cache directory: "))
        #expect(result.stderr.hasSuffix(". Pass a directory you can write to.\n"))
    }
}
