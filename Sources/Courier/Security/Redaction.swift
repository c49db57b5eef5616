import Foundation
package import HTTPTypes

/// Hides secrets in header fields and URLs before they reach logs, cURL commands or messages.
package enum Redaction {
    package static let placeholder = "REDACTED"

    /// Header fields whose values are credentials.
    static let secretHeaders: Set<HTTPField.Name> = [
        .authorization, .proxyAuthorization, .cookie, .setCookie,
        .xAPIKey, .xAuthToken, .xAccessToken,
    ]

    /// Query item names (lowercased) whose values are credentials.
    static let secretQueryNames: Set<String> = [
        "api_key", "apikey", "api-key", "key", "token", "access_token", "refresh_token", "id_token",
        "auth", "password", "passwd", "secret", "client_secret", "signature", "sig",
    ]

    static func isSecret(_ name: HTTPField.Name) -> Bool { secretHeaders.contains(name) }

    /// The field's value, or `REDACTED` when it is a credential and `redacting` is on.
    package static func displayedValue(of field: HTTPField, redacting: Bool = true) -> String {
        redacting && isSecret(field.name) ? placeholder : field.value
    }

    static func isSecretQueryName(_ name: Substring) -> Bool {
        let decoded = name.removingPercentEncoding ?? String(name)
        return secretQueryNames.contains(decoded.lowercased())
    }

    /// The URL with the values of secret query items and any user:password replaced.
    package static func redactingURL(_ url: String) -> String {
        var url = Substring(url)
        var fragment: Substring = ""
        if let hash = url.firstIndex(of: "#") {
            fragment = url[hash...]
            url = url[..<hash]
        }
        var result: String
        if let question = url.firstIndex(of: "?") {
            result = String(url[...question]) + redactingQuery(url[url.index(after: question)...])
        } else {
            result = String(url)
        }
        if let schemeEnd = result.range(of: "://"), let at = result[schemeEnd.upperBound...].firstIndex(of: "@"),
            !result[schemeEnd.upperBound..<at].contains("/")
        {
            result.replaceSubrange(schemeEnd.upperBound..<at, with: placeholder)
        }
        return result + fragment
    }

    /// `name=value&…` (a query or a URL-encoded form) with the values of secret names replaced.
    static func redactingQuery(_ query: Substring) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "="), isSecretQueryName(item[..<equals]) else { return String(item) }
            return item[..<equals] + "=" + placeholder
        }.joined(separator: "&")
    }
}
