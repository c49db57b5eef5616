import Courier
import CourierImages
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import StoreSearch

/// The Store tab: search as you type, and artwork through the image pipeline.
///
/// - `GET /api/store/search?term=&category=&page=ID&seq=N[&locale=TAG]`: the results, sorted as
///   the chapter sorts, for the country and language of `locale` (the browser's language tag,
///   ``StoreLocale``) unless the app fixes them (`AppServices.storeLocale`). A search from the same page numbered higher supersedes this one (`204`)
///   — whichever of the two arrives first, since a browser sends them over several connections
///   — and a browser that drops the request cancels the store request on the wire. When the
///   store refuses searches for a while (``StoreRateLimit``), every page gets `429` with the
///   `Retry-After` of the pause (``StoreThrottle``), and the store is not asked until it ends.
/// - `GET /api/artwork?url=`: the image at `url` — only for URLs of results returned here.
struct StoreRoutes: Sendable {
    let sessions: SearchSessions
    /// The country and language of every search, or `nil` for each page's own.
    let locale: StoreLocale?
    let artwork: ImagePipeline
    /// Where the store's answers come from, and the policy its artwork is judged by: artwork
    /// the store names is fetched only as a redirect from the store would be followed (no
    /// loopback or local-network address unless the store itself is one, no cleartext the
    /// policy refuses).
    let store: URL
    let policy: TransportSecurityPolicy
    let allowed = ArtworkAllowList()
    let throttle = StoreThrottle()

    func add(to router: Router<BasicRequestContext>) {
        router.get("/api/store/search") { request, _ in await search(request) }
        router.get("/api/artwork") { request, _ in await image(request) }
    }

    // MARK: - Search

    /// Search and artwork end when the browser drops the request, which Hummingbird tells by
    /// reading the connection past the request: it cannot be reused, so each answer says so.
    private func search(_ request: Request) async -> Response {
        AppResponse.closingConnection(await answerSearch(request))
    }

    private func image(_ request: Request) async -> Response {
        AppResponse.closingConnection(await answerImage(request))
    }

    private func answerSearch(_ request: Request) async -> Response {
        let term = (request.parameter("term") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard let category = StoreCategory(rawValue: request.parameter("category") ?? "all") else {
            let known = StoreCategory.allCases.map(\.rawValue).joined(separator: ", ")
            return AppResponse.problem(.badRequest, "The category must be one of \(known).")
        }
        guard let page = request.parameter("page"), SearchSessions.isValidID(page) else {
            return AppResponse.problem(.badRequest, "The page parameter must name the page (letters, digits, dashes).")
        }
        guard let sequence = Int(request.parameter("seq") ?? ""), sequence >= 0 else {
            return AppResponse.problem(.badRequest, "The seq parameter must number the search (0 or more).")
        }
        guard term.count <= 200 else {
            return AppResponse.problem(.badRequest, "Search for at most 200 characters.")
        }
        let locale = self.locale ?? StoreLocale(identifier: request.parameter("locale") ?? "")
        let session = sessions.session(for: page)
        guard !term.isEmpty else {
            await session.cancel()
            return AppResponse.json(StorePage(term: term, category: category, found: nil))
        }
        if let wait = throttle.remaining() { return Self.paused(for: wait) }
        do {
            var found = try await request.untilClientLeaves {
                try await session.search(
                    term,
                    category: category,
                    country: locale.country,
                    language: locale.language,
                    sequence: sequence
                )
            }
            found = found.map(withoutRefusedArtwork)
            // Superseded by a newer search from the same page, or the browser left.
            guard let found else { return Response(status: .noContent, headers: [.cacheControl: "no-store"]) }
            // Only an answer ends the store's pause: a superseded search says nothing of it.
            throttle.answered()
            allowed.allow(found.results.flatMap { [$0.imageSmall, $0.imageLarge].compactMap(\.self) })
            return AppResponse.json(StorePage(term: term, category: category, found: found))
        } catch let error as RequestError {
            if let limit = StoreRateLimit(error) { return Self.paused(for: throttle.refused(limit)) }
            return AppResponse.problem(.badGateway, error.message)
        } catch {
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
    }

    /// `429` for searches paused for `wait`: the page waits `Retry-After` seconds and says so.
    static func paused(for wait: Duration) -> Response {
        let seconds = wait.roundedUpSeconds
        var response = AppResponse.problem(
            .tooManyRequests,
            "The store asks for a pause in searches; searching again in \(seconds) s."
        )
        response.headers[.retryAfter] = String(seconds)
        return response
    }

    // MARK: - Artwork

    /// `found` with the artwork URLs the policy refuses, seen from the store, removed: the page
    /// shows no artwork for those results, and the app never fetches them.
    private func withoutRefusedArtwork(_ found: SearchResults) -> SearchResults {
        var found = found
        for index in found.results.indices {
            if let url = found.results[index].imageSmall, !policy.allows(url, linkedFrom: store) {
                found.results[index].imageSmall = nil
            }
            if let url = found.results[index].imageLarge, !policy.allows(url, linkedFrom: store) {
                found.results[index].imageLarge = nil
            }
        }
        return found
    }

    private func answerImage(_ request: Request) async -> Response {
        guard let text = request.parameter("url"), let url = URL(string: text), allowed.allows(url) else {
            return AppResponse.problem(.notFound, "Only the artwork of results this app returned is served.")
        }
        let loaded: LoadedImage
        do {
            loaded = try await request.untilClientLeaves {
                try await artwork.image(for: url)
            }
        } catch ImageError.cancelled {
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        } catch let error as ImageError {
            return Self.placeholder(for: error)
        } catch {
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
        let tag = "\"\(String(FNV1a.hash(Array(loaded.data)), radix: 16))\""
        if request.headers[values: .ifNoneMatch].contains(where: { $0.contains(tag) }) {
            return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: Self.artworkCaching])
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: loaded.format.mediaType, .cacheControl: Self.artworkCaching, .eTag: tag,
                .xContentTypeOptions: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: loaded.data))
        )
    }

    /// Artwork does not change under its URL: the browser may keep it for a day.
    static let artworkCaching = "private, max-age=86400"

    /// A grey square instead of bytes that are not an image, so the page shows no broken image.
    /// Its `X-Courier-Placeholder` says why in the app's words only: nothing the artwork's
    /// server sent (not its body's first bytes, not its error text) reaches the page.
    static func placeholder(for error: ImageError) -> Response {
        let reason =
            switch error {
            case .notAnImage: "not an image"
            case .request(let failure): "not fetched (\(failure.shortDescription))"
            case .cancelled: "cancelled"
            }
        return placeholder(reason: reason)
    }

    /// The grey square, with `reason` (the app's own words).
    private static func placeholder(reason: String) -> Response {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="60" height="60" viewBox="0 0 60 60">\
            <rect width="60" height="60" rx="6" fill="#8884"/>\
            <path d="M18 40l8-10 6 7 4-5 6 8z" fill="#8888"/></svg>
            """
        return Response(
            status: .ok,
            headers: [
                .contentType: "image/svg+xml", .cacheControl: "no-store", .xContentTypeOptions: "nosniff",
                .courierPlaceholder: reason,
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: svg))
        )
    }
}

extension HTTPField.Name {
    /// `X-Courier-Placeholder`: why the artwork answer is a placeholder.
    static let courierPlaceholder = Self("X-Courier-Placeholder")!
}

/// A search's answer to the page.
struct StorePage: Encodable {
    var term: String
    var category: StoreCategory
    var resultCount: Int
    var skipped: Int
    var results: [Row]

    struct Row: Encodable {
        var name: String
        /// "artist (type)", with "Unknown" for a missing artist, as the chapter shows it.
        var subtitle: String
        var type: String
        var genre: String?
        var price: Decimal?
        var currency: String?
        var storeURL: URL?
        /// The app's own artwork URL for the result, if it has artwork.
        var artwork: String?

        enum CodingKeys: String, CodingKey {
            case name, subtitle, type, genre, price, currency, artwork
            case storeURL = "store_url"
        }
    }

    init(term: String, category: StoreCategory, found: SearchResults?) {
        self.term = term
        self.category = category
        resultCount = found?.resultCount ?? 0
        skipped = found?.skipped ?? 0
        results = (found?.results ?? []).map { result in
            Row(
                name: result.name,
                subtitle: "\(result.artist ?? "Unknown") (\(result.type))",
                type: result.type,
                genre: result.genre,
                price: result.price,
                currency: result.currency,
                storeURL: result.storeURL,
                artwork: result.imageSmall.map { "/api/artwork?url=" + Self.queryValue($0.absoluteString) }
            )
        }
    }

    /// `text` percent-encoded for a query value: everything but letters, digits and `-._~`.
    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "-._~").union(
        CharacterSet(charactersIn: "a"..."z").union(CharacterSet(charactersIn: "A"..."Z")).union(
            CharacterSet(charactersIn: "0"..."9")
        )
    )

    enum CodingKeys: String, CodingKey {
        case term, category, skipped, results
        case resultCount = "result_count"
    }
}
