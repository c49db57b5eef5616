import Foundation
package import HTTPTypes

/// Hides secrets in header fields and URLs before they reach logs, cURL commands or messages.
package enum Redaction {
    package static let placeholder = "REDACTED"

    /// Header fields whose values are credentials, besides those whose names contain one of
    /// ``secretNameParts`` or `auth`.
    static let secretHeaders: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie, .setCookie]

    /// Authentication challenges: they name a scheme and realm, not a credential.
    private static let challengeHeaders: Set<HTTPField.Name> = [.wwwAuthenticate, .proxyAuthenticate]

    /// Query item names (lowercased) whose values are credentials, besides those containing one
    /// of ``secretNameParts``.
    static let secretQueryNames: Set<String> = ["key", "auth", "sig", "appid", "app_id"]

    /// Parts of a name (lowercased) that mark its value as a credential wherever it appears: a
    /// header field, a query item, a form field or a JSON object key.
    static let secretNameParts = [
        "token", "secret", "password", "passwd", "api-key", "api_key", "apikey", "session", "credential",
        "signature", "private-key", "private_key", "cookie", "passphrase", "assertion", "verifier",
    ]

    /// Whether a header field's value is a credential: `Authorization`, `Proxy-Authorization`,
    /// `Cookie`, `Set-Cookie`, and any field whose name contains `auth`, `token`, `secret`,
    /// `password`, `api-key`, `session`… (`X-API-Key`, `X-Auth-Token`, `X-Session-Id`). The one
    /// rule behind redaction in logs, messages and cassettes and behind what a redirect to
    /// another origin leaves behind.
    package static func isSecret(_ name: HTTPField.Name) -> Bool {
        if secretHeaders.contains(name) { return true }
        if challengeHeaders.contains(name) { return false }
        let canonical = name.canonicalName
        return canonical.contains("auth") || containsSecretPart(canonical)
    }

    /// Whether a query item, form field or JSON key of this name holds a credential
    /// (`api_key`, `access_token`, `client_secret`, `password`, `key`…), in any case.
    package static func isSecretName(_ name: some StringProtocol) -> Bool {
        let lowercased = name.lowercased()
        return secretQueryNames.contains(lowercased) || containsSecretPart(lowercased)
    }

    /// Endings that make a name describe a credential rather than hold one (`token_type`,
    /// `token_endpoint`, `expires_in`…).
    static let describingSuffixes = [
        "type", "type_hint", "endpoint", "url", "uri", "expires_in", "expires_at", "expiry", "expiration", "length",
        "count",
    ]

    /// Names ending in `key` that are not credentials.
    static let nonSecretKeys: Set<String> = ["idempotency-key", "idempotency_key", "sort_key", "sort-key", "cache-key"]

    private static func containsSecretPart(_ lowercased: String) -> Bool {
        if describingSuffixes.contains(where: { lowercased.hasSuffix($0) }) { return false }
        // `X-Functions-Key`, `Ocp-Apim-Subscription-Key`, `access_key`, `apikey`: keys are credentials.
        if lowercased.hasSuffix("key"), !nonSecretKeys.contains(lowercased) { return true }
        return secretNameParts.contains { lowercased.contains($0) }
    }

    /// The field's value, or `REDACTED` when it is a credential and `redacting` is on; with
    /// `redacting` on, the credentials in URLs it holds (a `Location` or `Link` with
    /// `?access_token=…`) are replaced too.
    package static func displayedValue(of field: HTTPField, redacting: Bool = true) -> String {
        guard redacting else { return field.value }
        return isSecret(field.name) ? placeholder : redactingURLs(in: field.value)
    }

    static func isSecretQueryName(_ name: Substring) -> Bool {
        isSecretName(name.removingPercentEncoding ?? String(name))
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
