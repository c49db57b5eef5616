import Foundation

/// A secret chosen for one run of the app: its page carries it, and the API asks for it.
struct AppToken: Sendable {
    /// 32 random bytes in hexadecimal.
    let value: String
    /// A new random token.
    init() {
        var generator = SystemRandomNumberGenerator()
        value = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// The cookie that carries the token for requests a script cannot add fields to (images,
    /// event streams), for the app at `authority`. Cookies are shared by every port of a host,
    /// so the name holds the port: two apps on two ports keep theirs apart, and a new run on
    /// the same port replaces the last run's.
    func cookieName(for authority: String) -> String {
        let port = authority.split(separator: ":").last.flatMap { Int($0) } ?? 80
        return "courier-app-\(port)"
    }

    /// Whether `candidate` is the token, compared in time independent of where they differ.
    func matches(_ candidate: String?) -> Bool {
        guard let candidate else { return false }
        let (given, expected) = (Array(candidate.utf8), Array(value.utf8))
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= given[index] ^ expected[index] }
        return difference == 0
    }

    /// The `Set-Cookie` value that hands the token to the page's images and event streams.
    func setCookie(for authority: String) -> String {
        "\(cookieName(for: authority))=\(value); Path=/; HttpOnly; SameSite=Strict"
    }
}
