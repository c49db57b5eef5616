import Courier
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The page and its script and style, read once from the bundle. The page is the only HTML the
/// app serves; it carries the run's token and a policy that lets it load nothing from
/// elsewhere.
struct PageFiles: Sendable {
    private let page: String
    private let script: ByteBuffer
    private let style: ByteBuffer

    init() throws(AppServerError) {
        page = String(decoding: try Self.read("index.html"), as: UTF8.self)
        script = ByteBuffer(bytes: try Self.read("app.js"))
        style = ByteBuffer(bytes: try Self.read("app.css"))
    }

    private static func read(_ name: String) throws(AppServerError) -> Data {
        guard let url = Bundle.module.resourceURL?.appendingPathComponent("Web/\(name)"),
            let data = try? Data(contentsOf: url)
        else { throw .missingResource("Web/\(name)") }
        return data
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
        add(script, at: "/app.js", type: "text/javascript; charset=utf-8", to: router)
        add(style, at: "/app.css", type: "text/css; charset=utf-8", to: router)
        router.get("/api/about") { _, _ in AppResponse.json(About(notes: notes)) }
    }

    private func add(_ file: ByteBuffer, at path: RouterPath, type: String, to router: Router<BasicRequestContext>) {
        let tag = "\"\(String(FNV1a.hash(Array(file.readableBytesView)), radix: 16))\""
        router.get(path) { request, _ in
            if request.headers[values: .ifNoneMatch].contains(where: { $0.contains(tag) }) {
                return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: "no-cache"])
            }
            return Response(
                status: .ok,
                headers: [.contentType: type, .eTag: tag, .cacheControl: "no-cache", .xContentTypeOptions: "nosniff"],
                body: ResponseBody(byteBuffer: file)
            )
        }
    }

    private struct About: Encodable {
        var notes: [String]
    }
}

extension HTTPField.Name {
    /// `Referrer-Policy`.
    static let referrerPolicy = Self("Referrer-Policy")!
}
