import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// `courier store` against the loopback iTunes stand-in, and against a recording of it served
/// by `courier replay`.
@Suite("courier store", .loadLimited)
struct StoreCommandTests {
    private static func temporaryDirectory(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(name)-\(UUID().uuidString)")
    }

    @Test func printsATableAndCountsWhatItSkipped() async throws {
        try await TestServer.withRunning { server in
            let result = try await Courier.run("store", "king", "--service", server.baseURL.absoluteString)
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.first?.hasPrefix("NAME") == true)
            #expect(lines.count == 1 + 16)
            #expect(lines.contains { $0.contains("Teen Angel") && $0.contains("Song") && $0.contains("Rock") })
            #expect(lines.contains { $0.contains("Kingdom Rush") && $0.contains("Free") })
            #expect(lines.contains { $0.hasPrefix("Zebra Katz") && $0.contains("Unknown") && $0.contains("Artist") })
            #expect(result.stderr == "16 results; 2 items without a name skipped.\n")
        }
    }

    @Test func jsonHasOneShapeForEveryItem() async throws {
        try await TestServer.withRunning { server in
            let result = try await Courier.run(
                "store",
                "king",
                "--service",
                server.baseURL.absoluteString,
                "--json",
                "--category",
                "music"
            )
            #expect(result.status == 0)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            )
            #expect(object["result_count"] as? Int == 6)
            #expect(object["skipped"] as? Int == 2)
            let results = try #require(object["results"] as? [[String: Any]])
            #expect(results.map { $0["name"] as? String } == ["Carrie", "Teen Angel", "Track 9", "Track 10"])
            let keys: Set = [
                "name", "artist", "type", "genre", "price", "currency", "store_url", "image_small", "image_large",
            ]
            #expect(results.allSatisfy { Set($0.keys) == keys })
            #expect(results[3]["price"] is NSNull, "Track 10 is sold only with its album")
            #expect(results[1]["price"] as? Double == 1.29)
            #expect(results[1]["image_small"] as? String == server.url("/artwork/song-60.png").absoluteString)
        }
    }

    @Test func nothingFoundAndBadInputHaveTheirOwnStatuses() async throws {
        try await TestServer.withRunning { server in
            let service = server.baseURL.absoluteString
            let nothing = try await Courier.run("store", "nothing", "--service", service)
            #expect(nothing.status == 7)
            #expect(nothing.stderr.contains("Nothing found for 'nothing'"))
            for arguments in [
                ["store", "king", "--category", "films"], ["store", "king", "--country", "usa"],
                ["store", "king", "--limit", "0"], ["store", "king", "--service", "ftp://example.org"], ["store", ""],
            ] {
                let bad = try await Courier.run(
                    arguments + (arguments.contains("--service") ? [] : ["--service", service])
                )
                #expect(bad.status == 2, "\(arguments)")
                #expect(!bad.stderr.isEmpty)
            }
        }
        let down = try await Courier.run("store", "king", "--service", "http://127.0.0.1:9")
        #expect(down.status == 3)
    }

    /// The locale's country and language are sent unless given (issue 32).
    @Test func theLocalesCountryAndLanguageAreSentUnlessGiven() async throws {
        try await TestServer.withRunning { server in
            let service = server.baseURL.absoluteString
            let japanese = try await Courier.run(
                ["store", "king", "--service", service],
                environment: ["LANG": "ja_JP.UTF-8"]
            )
            #expect(japanese.status == 0)
            let first = try #require(await server.events.queries(for: "search").last)
            #expect(first.contains("country=jp") && first.contains("lang=ja_jp"), "\(first)")
            let given = try await Courier.run(
                ["store", "king", "--service", service, "--country", "GB", "--language", "EN_US"],
                environment: ["LC_ALL": "ja_JP.UTF-8"]
            )
            #expect(given.status == 0)
            let second = try #require(await server.events.queries(for: "search").last)
            #expect(second.contains("country=gb") && second.contains("lang=en_us"), "\(second)")
            let plain = try await Courier.run("store", "king", "--service", service)
            #expect(plain.status == 0)
            let third = try #require(await server.events.queries(for: "search").last)
            #expect(!third.contains("country=") && !third.contains("lang="), "\(third)")
        }
        let unknown = try await Courier.run("store", "king", "--language", "fr_fr")
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--language 'fr_fr' is not one the store knows: en_us or ja_jp."))
    }

    /// The store's refusal is told as a pause to wait out, not as an HTTP error.
    @Test(arguments: [("rate:429:30", "429", "in 30 s"), ("rate:403", "403", "in a minute")])
    func aRefusingStoreSaysWhenToTryAgain(term: String, status: String, wait: String) async throws {
        try await TestServer.withRunning { server in
            let result = try await Courier.run("store", term, "--service", server.baseURL.absoluteString)
            #expect(result.status == 3)
            #expect(
                result.stderr.contains(
                    "The store is refusing searches for now (\(status): it answers about 20 a minute); try again \(wait)."
                ),
                "\(result.stderr)"
            )
        }
    }

    @Test func savesArtworkThenRevalidatesItOnTheNextRun() async throws {
        let artwork = Self.temporaryDirectory("artwork")
        let cache = Self.temporaryDirectory("cache")
        defer {
            try? FileManager.default.removeItem(at: artwork)
            try? FileManager.default.removeItem(at: cache)
        }
        try await TestServer.withRunning { server in
            let arguments = [
                "store", "king", "--service", server.baseURL.absoluteString, "--artwork", artwork.path, "--cache",
                cache.path,
                // A loaded machine's margin: no test waits for it, the search ends at its answer.
                "--timeout", "60",
            ]
            let first = try await Courier.run(arguments)
            #expect(first.status == 0)
            #expect(
                first.stderr.hasSuffix(
                    "Artwork in \(artwork.path): 14 downloaded, 0 cached, 0 failed, 2 without artwork.\n"
                )
            )
            let files = try FileManager.default.contentsOfDirectory(atPath: artwork.path).sorted()
            #expect(files.count == 14)
            #expect(files.first == "01 Ångström Units.png")
            #expect(files.contains("13 Track 9.gif"), "the extension comes from the bytes")
            let second = try await Courier.run(arguments)
            #expect(second.stderr.hasSuffix("0 downloaded, 14 cached, 0 failed, 2 without artwork.\n"))
            #expect(await server.events.hitCount("artwork:song-60.png") == 1)
            #expect(await server.events.hitCount("artwork-304:song-60.png") == 1)

            let large = try await Courier.run(arguments + ["--size", "large"])
            #expect(large.status == 0)
            #expect(large.stderr.contains("1 failed"))
            #expect(
                large.stderr.contains(
                    "Carrie: \(server.url("/artwork/corrupt-100.png").absoluteString) is not an image"
                )
            )
        }
    }

    @Test func aRecordingReplaysTheSameResults() async throws {
        let cassette = Self.temporaryDirectory("store-cassette").appendingPathExtension("json")
        defer { try? FileManager.default.removeItem(at: cassette) }
        let (original, recordedOrigin) = try await TestServer.withRunning { server in
            let result = try await Courier.run(
                "store",
                "king",
                "--service",
                server.baseURL.absoluteString,
                "--json",
                "--record",
                cassette.path
            )
            return (result, "http://127.0.0.1:\(server.port)")
        }
        #expect(original.status == 0)
        let replay = try await CourierService.start(command: ["replay", cassette.path, "--port", "0"])
        let replayed = try await Courier.run("store", "king", "--service", replay.url.absoluteString, "--json")
        #expect(replayed.status == 0)
        // The same results, the artwork at the replay's address (issue 32).
        let replayOrigin = "http://127.0.0.1:\(replay.url.port ?? 0)"
        #expect(original.stdout.contains(recordedOrigin))
        #expect(replayed.stdout == original.stdout.replacingOccurrences(of: recordedOrigin, with: replayOrigin))
        #expect(await replay.stop(with: SIGINT).status == 0)
    }

    /// The README's offline demonstration: the cassette in Examples/, recorded on port 9400,
    /// replays a search and its artwork on any other port (issue 32): the replay names itself
    /// in the artwork links.
    @Test func theExampleCassetteReplaysOffline() async throws {
        let cassette = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/store-king.json")
        if ProcessInfo.processInfo.environment["COURIER_RECORD_EXAMPLES"] != nil {
            try? FileManager.default.removeItem(at: cassette)
            let cache = Self.temporaryDirectory("record-cache")
            let artwork = Self.temporaryDirectory("record-artwork")
            defer {
                try? FileManager.default.removeItem(at: cache)
                try? FileManager.default.removeItem(at: artwork)
            }
            let recorded = try await TestServer.withRunning(port: 9400) { server in
                try await Courier.run(
                    "store",
                    "king",
                    "--service",
                    server.baseURL.absoluteString,
                    "--record",
                    cassette.path,
                    "--artwork",
                    artwork.path,
                    "--cache",
                    cache.path
                )
            }
            #expect(recorded.status == 0)
        }
        let artwork = Self.temporaryDirectory("replayed-artwork")
        let cache = Self.temporaryDirectory("replayed-cache")
        defer {
            try? FileManager.default.removeItem(at: artwork)
            try? FileManager.default.removeItem(at: cache)
        }
        let replay = try await CourierService.start(command: ["replay", cassette.path, "--port", "0"])
        #expect(replay.url.port != 9400)
        // As the README runs it, in a person's regional locale.
        let result = try await Courier.run(
            [
                "store", "king", "--service", replay.url.absoluteString, "--no-locale", "--artwork", artwork.path,
                "--cache", cache.path,
            ],
            environment: ["LANG": "en_US.UTF-8"]
        )
        #expect(result.status == 0)
        #expect(result.stdout.contains("Teen Angel"))
        #expect(result.stderr.hasSuffix("14 downloaded, 0 cached, 0 failed, 2 without artwork.\n"))
        // The artwork was recorded with `max-age=0` and a tag: the second run revalidates it,
        // and the replay answers 304 for each.
        let again = try await Courier.run(
            "store",
            "king",
            "--service",
            replay.url.absoluteString,
            "--artwork",
            artwork.path,
            "--cache",
            cache.path
        )
        #expect(again.stderr.hasSuffix("0 downloaded, 14 cached, 0 failed, 2 without artwork.\n"))
        #expect(await replay.stop(with: SIGINT).status == 0)
    }
}
