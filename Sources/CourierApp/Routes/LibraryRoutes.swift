import Courier
import Hummingbird
import LibraryKit

/// The Libraries tab: the library service's two searches, through `LibraryService`'s endpoints.
///
/// - `GET /api/library/locations?country=&offset=`
/// - `GET /api/library/catalog?q=&offset=`
struct LibraryRoutes: Sendable {
    let library: HTTPClient
    static let pageSize = 50

    func add(to router: Router<BasicRequestContext>) {
        router.get("/api/library/locations") { request, _ in
            await answer(request) { offset throws(RequestError) in
                try await library.send(
                    LibraryService.locations(
                        country: request.parameter("country") ?? "",
                        limit: Self.pageSize,
                        offset: offset
                    )
                )
            }
        }
        router.get("/api/library/catalog") { request, _ in
            await answer(request) { offset throws(RequestError) in
                try await library.send(
                    LibraryService.catalog(
                        titlePrefix: request.parameter("q") ?? "",
                        limit: Self.pageSize,
                        offset: offset
                    )
                )
            }
        }
    }

    private func answer<Item: Encodable & Sendable>(
        _ request: Request,
        _ search: (Int) async throws(RequestError) -> Page<Item>
    ) async -> Response {
        guard let offset = Int(request.parameter("offset") ?? "0"), (0...1_000_000_000).contains(offset) else {
            return AppResponse.problem(.badRequest, "The offset must be a whole number from 0.")
        }
        do {
            let page = try await search(offset)
            return AppResponse.json(Answer(items: page.items, total: page.total, offset: offset))
        } catch {
            return AppResponse.problem(.badGateway, error.message)
        }
    }

    private struct Answer<Item: Encodable>: Encodable {
        var items: [Item]
        var total: Int
        var offset: Int
    }
}
