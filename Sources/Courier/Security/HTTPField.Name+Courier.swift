public import HTTPTypes

extension HTTPField.Name {
    // Each literal is a valid field-name token, so the initializer cannot return nil here.
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    /// The ID of the last Server-Sent Event received, sent when reconnecting.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    /// `Pragma` (HTTP/1.0): `no-cache` there means what `Cache-Control: no-cache` means.
    static let pragma = HTTPField.Name("Pragma")!
    /// `Sec-Fetch-Dest`: what a browser's request is for (`empty` for `fetch`, `image`, `document`…).
    public static let secFetchDest = HTTPField.Name("Sec-Fetch-Dest")!
    /// `Sec-Fetch-Site`: who made a request, as a browser tells a server (`same-origin`,
    /// `same-site`, `cross-site`, `none`). Courier's local servers refuse what another site's
    /// page sends.
    public static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
}
