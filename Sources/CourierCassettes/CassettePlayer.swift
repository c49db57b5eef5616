import Courier
public import Foundation
import Synchronization

/// Picks the recorded response for a request: the first interaction with the same method, URL
/// and body (JSON bodies compared as values, secrets redacted first) that has not been replayed yet, else the last one that matches, so repeated
/// requests replay in the order they were recorded.
public final class CassettePlayer: Sendable {
    /// The cassette played.
    public let cassette: Cassette
    private let used: Mutex<Set<Int>>

    /// Plays `cassette`.
    public init(_ cassette: Cassette) {
        self.cassette = cassette
        self.used = Mutex([])
    }

    /// The response recorded for `method` on the absolute `url` with `body`.
    ///
    /// The URL and body are redacted as the recorder redacted them before they are compared,
    /// so a request that carries a real `api_key` or password finds its recording.
    public func response(method: String, url: String, body: Data, contentType: String? = nil) -> Cassette.Response? {
        let url = Redaction.redactingURL(url)
        return play(method: method, body: body, contentType: contentType) { $0 == url }
    }

    /// The response recorded for `method` on a URL whose path and query are `target` (any
    /// scheme and host), with `body`: for serving a cassette from another address. Redacted
    /// like ``response(method:url:body:contentType:)``.
    public func response(
        method: String,
        target: String,
        body: Data,
        contentType: String? = nil
    )
        -> Cassette.Response?
    {
        let target = Redaction.redactingURL(target)
        return play(method: method, body: body, contentType: contentType) { Self.target(of: $0) == target }
    }

    /// "GET https://…, POST https://…": what the cassette holds, for error messages — the
    /// first ``summaryLimit`` requests and how many more.
    public var summary: String {
        let recorded = cassette.interactions.prefix(Self.summaryLimit).map { "\($0.request.method) \($0.request.url)" }
        guard !recorded.isEmpty else { return "nothing" }
        let more = cassette.interactions.count - recorded.count
        return recorded.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
    }

    /// How many requests ``summary`` names.
    public static let summaryLimit = 5

    private func play(
        method: String,
        body: Data,
        contentType: String?,
        url matches: (String) -> Bool
    ) -> Cassette.Response? {
        let body = Redaction.redactingBody(body, contentType: contentType)
        let json = try? JSONValue(parsing: body)
        let candidates = cassette.interactions.indices.filter { index in
            let request = cassette.interactions[index].request
            guard request.method == method, matches(request.url) else { return false }
            let recorded = request.body?.data ?? Data()
            // JSON encoders need not keep member order: JSON bodies are compared as values.
            return recorded == body || (json != nil && json == (try? JSONValue(parsing: recorded)))
        }
        let chosen = used.withLock { used -> Int? in
            guard let chosen = candidates.first(where: { !used.contains($0) }) ?? candidates.last else { return nil }
            used.insert(chosen)
            return chosen
        }
        return chosen.map { cassette.interactions[$0].response }
    }

    /// The path and query of an absolute URL: everything from the first `/` after `://`.
    static func target(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let target = String(rest[slash...])
        return target.hasPrefix("?") ? "/" + target : target
    }
}
