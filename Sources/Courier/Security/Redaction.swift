import Foundation
public import HTTPTypes

/// The one rule Courier uses to keep credentials out of logs, error messages, cURL commands,
/// cassettes and cache files: which header fields, query items and body fields hold secrets,
/// and the text with their values replaced by `REDACTED`.
///
/// Use it wherever a program of yours writes down what it sent or received:
///
/// ```swift
/// let shown = Redaction.redactingURL("https://api.example.com/v1?api_key=abc123&page=2")
/// // "https://api.example.com/v1?api_key=REDACTED&page=2"
/// let header = Redaction.displayedValue(of: HTTPField(name: .authorization, value: "Bearer abc123"))
/// // "REDACTED"
/// ```
public enum Redaction {
    /// What a secret value is replaced with: `REDACTED`.
    public static let placeholder = "REDACTED"

    /// Header fields whose values are credentials, besides those whose names contain one of
    /// ``secretNameParts`` or `auth`.
    static let secretHeaders: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie, .setCookie]

    /// Authentication challenges: they name a scheme and realm, not a credential.
    private static let challengeHeaders: Set<HTTPField.Name> = [.wwwAuthenticate, .proxyAuthenticate]

    /// Query item names (lowercased) whose values are credentials, besides those containing one
    /// of ``secretNameParts``.
    static let secretQueryNames: Set<String> = [
        "key", "auth", "sig", "appid", "app_id", "otp", "totp", "pin", "passcode", "mfa_code", "otp_code",
    ]

    /// Names secret in a URL or a form only: OAuth's one-time `code` (in a redirect's
    /// `Location` or a token request), where JSON's `code` is usually a status.
    static let secretOnlyInQueries: Set<String> = ["code"]

    /// Parts of a name (lowercased) that mark its value as a credential wherever it appears: a
    /// header field, a query item, a form field or a JSON object key.
    static let secretNameParts = [
        "token", "secret", "password", "passwd", "api-key", "api_key", "apikey", "session", "credential",
        "signature", "private-key", "private_key", "cookie", "passphrase", "assertion", "verifier", "authorization",
    ]

    /// Whether a header field's value is a credential: `Authorization`, `Proxy-Authorization`,
    /// `Cookie`, `Set-Cookie`, and any field whose name contains `auth`, `token`, `secret`,
    /// `password`, `api-key`, `session`… (`X-API-Key`, `X-Auth-Token`, `X-Session-Id`). The one
    /// rule behind redaction in logs, messages and cassettes and behind what a redirect to
    /// another origin leaves behind.
    ///
    /// - Parameter name: The header field's name.
    /// - Returns: Whether the field's value must never be shown.
    public static func isSecret(_ name: HTTPField.Name) -> Bool {
        if secretHeaders.contains(name) { return true }
        if challengeHeaders.contains(name) { return false }
        let canonical = name.canonicalName
        return canonical.contains("auth") || containsSecretPart(canonical)
    }

    /// Whether a query item, form field or JSON key of this name holds a credential
    /// (`api_key`, `access_token`, `client_secret`, `password`, `key`…), in any case.
    ///
    /// - Parameter name: The item's, field's or key's name.
    /// - Returns: Whether its value must never be shown.
    public static func isSecretName(_ name: some StringProtocol) -> Bool {
        let lowercased = name.lowercased()
        return secretQueryNames.contains(lowercased) || containsSecretPart(lowercased)
    }

    /// Endings that make a name describe a credential rather than hold one (`token_type`,
    /// `token_endpoint`, `expires_in`…).
    static let describingSuffixes = [
        "type", "type_hint", "endpoint", "url", "uri", "expires_in", "expires_at", "expiry", "expiration", "length",
        "count",
    ]

    /// What a name ending in `key` names when it is not a credential (`Idempotency-Key`,
    /// `public_key`, `sortKey`).
    static let nonSecretKeyKinds: Set<String> = [
        "idempotency", "sort", "cache", "public", "foreign", "partition", "hash", "range", "row", "shard", "object",
        "lookup", "group", "dedup", "dedupe", "unique", "composite",
    ]

    private static func containsSecretPart(_ lowercased: String) -> Bool {
        if describingSuffixes.contains(where: { lowercased.hasSuffix($0) }) { return false }
        // `max_tokens`, `prompt_tokens`: counts of tokens, not tokens.
        if lowercased.hasSuffix("tokens"), !credentialTokenKinds.contains(where: lowercased.contains) { return false }
        if isSecretKeyName(lowercased) { return true }
        return secretNameParts.contains { lowercased.contains($0) }
    }

    /// Words that make a name ending in `tokens` a list of credentials (`access_tokens`) rather
    /// than a count (`max_tokens`).
    static let credentialTokenKinds = ["access", "refresh", "auth", "session", "api", "bearer", "id_", "id-"]

    /// Names ending in `key`, or `key` and digits (Azure's `key1`), are credentials
    /// (`X-Functions-Key`, `primaryKey`, `access_key`, `apikey`) — unless the word before
    /// `key` says another kind (`public_key`, `sort-key`, `publicKey`). Better a `monkey`
    /// redacted than a key in clear.
    private static func isSecretKeyName(_ lowercased: String) -> Bool {
        var name = Substring(lowercased)
        while name.last?.isNumber == true { name.removeLast() }
        guard name.hasSuffix("key") else { return false }
        let before = name.dropLast(3)
        let word = before.split(whereSeparator: { "-_. ".contains($0) }).last.map(String.init) ?? ""
        return !nonSecretKeyKinds.contains(word)
    }

    /// The field's value, or `REDACTED` when it is a credential and `redacting` is on; with
    /// `redacting` on, the credentials in URLs it holds (a `Location` or `Link` with
    /// `?access_token=…`) are replaced too.
    ///
    /// - Parameters:
    ///   - field: The header field.
    ///   - redacting: Whether to hide secrets; `false` shows the value as it is.
    /// - Returns: The value to show.
    public static func displayedValue(of field: HTTPField, redacting: Bool = true) -> String {
        guard redacting else { return field.value }
        return isSecret(field.name) ? placeholder : redactingURLs(in: field.value)
    }

    static func isSecretQueryName(_ name: Substring) -> Bool {
        let decoded = name.removingPercentEncoding ?? String(name)
        return isSecretName(decoded) || secretOnlyInQueries.contains(decoded.lowercased())
    }

}
