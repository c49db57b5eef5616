import Foundation

/// A secret chosen for one run of the app: its page carries it, and the API asks for it.
struct AppToken: Sendable {
    /// 32 random bytes in hexadecimal.
    let value: String
    /// The cookie that carries it for requests a script cannot add fields to (images, event
    /// streams). Its name is random too: cookies are shared by every port of a host, and two
    /// apps on two ports must not overwrite each other's.
    let cookieName: String

    /// A new random token.
    init() {
        value = Self.randomHex(bytes: 32)
        cookieName = "courier-app-\(Self.randomHex(bytes: 4))"
    }

    private static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
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
    var setCookie: String {
        "\(cookieName)=\(value); Path=/; HttpOnly; SameSite=Strict"
    }
}
