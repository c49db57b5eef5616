import Courier
import CourierApp
import CourierTestServer
import CourierTestTraits
import CourierTesting
import Foundation
import HTTPTypes
import StoreSearch
import Testing

/// The store recording the app replays offline is made here, from the store stand-in's items:
/// every search a person starts typing "stephen king", "king" or "shining" sends, in every
/// category, matched as the iTunes store matches (each word starts a word of the item), and
/// the artwork of what they find. The test fails when `Sources/CourierApp/Resources/Examples/
/// store.json` differs from what it makes; `COURIER_WRITE_EXAMPLES=1 swift test --filter
/// ExampleRecordingsTests` writes it anew.
@Suite(.loadLimited)
struct ExampleRecordingsTests {
    static let terms = ["stephen king", "king", "shining"]
    static let artworkBase = "https://is1-ssl.mzstatic.com/courier-example"
    static let kept: Set<String> = [
        "wrapperType", "kind", "artistName", "trackName", "collectionName", "trackPrice", "collectionPrice", "price",
        "currency", "primaryGenreName", "genres", "trackViewUrl", "collectionViewUrl", "artistLinkUrl", "artworkUrl30",
        "artworkUrl60", "artworkUrl100", "artworkUrl512", "artworkUrl600",
    ]

    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    @Test func theStoreRecordingIsUpToDate() async throws {
        let made = try await Self.makeStoreRecording()
        let file = Self.repository.appendingPathComponent("Sources/CourierApp/Resources/Examples/store.json")
        if ProcessInfo.processInfo.environment["COURIER_WRITE_EXAMPLES"] == "1" {
            try made.write(to: file)
        }
        let committed = try Cassette.load(from: file)
        #expect(
            committed == made,
            "regenerate with COURIER_WRITE_EXAMPLES=1 swift test --filter ExampleRecordingsTests"
        )
        #expect(try AppExamples.storeRecording() == committed, "the built-in copy is the same file")
    }

    /// Every prefix a person types on the way to each term, without repeats.
    static var typedTerms: [String] {
        var seen: Set<String> = []
        var typed: [String] = []
        for term in terms {
            for end in term.indices.dropFirst() + [term.endIndex] {
                let prefix = term[..<end].trimmingCharacters(in: .whitespaces)
                if seen.insert(prefix).inserted { typed.append(prefix) }
            }
        }
        return typed
    }

    static func makeStoreRecording() async throws -> Cassette {
        let fixture = try Data(
            contentsOf: repository.appendingPathComponent("Tests/CourierTestServer/Resources/itunes-search.json")
        )
        let text = String(decoding: fixture, as: UTF8.self).replacingOccurrences(of: "{base}", with: artworkBase)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        // Only the fields a result is made of: the recording stays small.
        let items = try #require(object["results"] as? [[String: Any]]).map { $0.filter { kept.contains($0.key) } }
        let recorder = CassetteRecorder()
        let transport = FixtureStore(
            items: try items.map { try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
        )
        let store = HTTPClient(
            transport: transport,
            configuration: .iTunesStore(middleware: [recorder])
        )
        var artwork: [URL] = []
        for term in typedTerms {
            for category in StoreCategory.allCases {
                let found = try await store.send(ITunesStore.search(term: term, category: category))
                for url in found.results.compactMap(\.imageSmall) where !artwork.contains(url) { artwork.append(url) }
            }
        }
        let images = HTTPClient(transport: transport, configuration: .init(middleware: [recorder]))
        for url in artwork {
            _ = try await images.send(Endpoint<Data>(url: url))
        }
        var cassette = recorder.cassette
        // The date a real store sends changes every run; the recording keeps none.
        for index in cassette.interactions.indices {
            cassette.interactions[index].response.headers.removeAll { $0.first?.lowercased() == "date" }
        }
        return cassette
    }
}

/// Answers store searches from the stand-in's items, and artwork with real images.
private struct FixtureStore: HTTPTransport {
    let items: [Data]

    func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        let components = URLComponents(string: request.url)
        if components?.path.hasPrefix("/courier-example/artwork/") == true {
            let name = components?.path.split(separator: "/").last.map(String.init) ?? ""
            // A small square of a colour of its own, which the page scales to 60 points.
            let hash = FNV1a.hash(name.utf8)
            let image =
                name.hasSuffix(".gif")
                ? TestImages.gif(width: 20, height: 20)
                : TestImages.png(
                    width: 20,
                    height: 20,
                    red: UInt8(hash & 0xFF),
                    green: UInt8(hash >> 8 & 0xFF),
                    blue: UInt8(hash >> 16 & 0xFF)
                )
            return RawResponse(
                head: HTTPResponse(
                    status: .ok,
                    headerFields: [
                        .contentType: name.hasSuffix(".gif") ? "image/gif" : "image/png",
                        .cacheControl: "max-age=604800",
                        .eTag: "\"\(name)-v1\"",
                    ]
                ),
                body: image,
                url: request.url
            )
        }
        let query = components?.queryItems ?? []
        let term = query.first { $0.name == "term" }?.value ?? ""
        let entity = query.first { $0.name == "entity" }?.value
        let chosen = items.filter { data in
            guard let item = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
            return Self.matches(item, term: term) && StoreRoutes.matches(item, entity: entity)
        }
        let lines = chosen.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",\n")
        let body = "\n\n\n{\n \"resultCount\":\(chosen.count),\n \"results\": [\n\(lines)]\n}\n"
        return RawResponse(
            head: HTTPResponse(status: .ok, headerFields: [.contentType: "text/javascript; charset=utf-8"]),
            body: Data(body.utf8),
            url: request.url
        )
    }

    /// Each word of the term starts a word of the item's names, ignoring case and accents.
    static func matches(_ item: [String: Any], term: String) -> Bool {
        let names = ["trackName", "collectionName", "artistName"].compactMap { item[$0] as? String }.joined(
            separator: " "
        )
        let words = fold(names).split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        return fold(term).split(separator: " ").allSatisfy { part in words.contains { $0.hasPrefix(part) } }
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
