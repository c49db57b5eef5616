import Courier
import CourierServerKit
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The page and its script and style, read once from what is built in. The page is the only HTML the
/// app serves; it carries the run's token and a policy that lets it load nothing from
/// elsewhere.
struct PageFiles: Sendable {
    private let page: String
    private let script: StaticFile
    private let style: StaticFile

    init() throws(AppServerError) {
        page = String(decoding: try Self.read("index.html"), as: UTF8.self)
        script = StaticFile(bytes: Array(try Self.read("app.js")), contentType: "text/javascript; charset=utf-8")
        style = StaticFile(bytes: Array(try Self.read("app.css")), contentType: "text/css; charset=utf-8")
    }

    private static func read(_ name: String) throws(AppServerError) -> Data {
        guard let bytes = EmbeddedResources.bytes("Web/\(name)") else { throw .missingResource("Web/\(name)") }
        return Data(bytes)
    }

    /// Nothing from elsewhere: scripts, styles, images and connections to the app itself only.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    func add(to router: Router<BasicRequestContext>, token: AppToken, notes: [String]) {
        let html = ByteBuffer(string: page.replacingOccurrences(of: "{{token}}", with: token.value))
        router.get("/") { request, _ in
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                    .contentSecurityPolicy: Self.contentSecurityPolicy, .xContentTypeOptions: "nosniff",
                    .referrerPolicy: "no-referrer", .setCookie: token.setCookie(for: request.head.authority ?? ""),
                ],
                body: ResponseBody(byteBuffer: html)
            )
        }
        router.get("/app.js") { [script] request, _ in script.response(to: request) }
        router.get("/app.css") { [style] request, _ in style.response(to: request) }
        router.get("/api/about") { _, _ in AppResponse.json(About(notes: notes)) }
    }

    private struct About: Encodable {
        var notes: [String]
    }
}
