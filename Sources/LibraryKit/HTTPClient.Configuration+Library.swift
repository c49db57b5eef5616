public import Courier
public import Foundation

extension HTTPClient.Configuration {
    /// A configuration for the library service at `service`, to send ``LibraryService``'s
    /// endpoints.
    ///
    /// ```swift
    /// let library = HTTPClient(transport: transport, configuration: .library(service: service))
    /// let books = try await library.send(LibraryService.catalog(titlePrefix: "dune"))
    /// ```
    ///
    /// - Parameters:
    ///   - service: The service's address, such as `http://127.0.0.1:8080`.
    ///   - securityPolicy: Which hosts may be reached over cleartext HTTP.
    ///   - timeout: How long one request may take.
    /// - Returns: The configuration; pass it to `HTTPClient(transport:configuration:)`.
    public static func library(
        service: URL,
        securityPolicy: TransportSecurityPolicy = .default,
        timeout: Duration = .seconds(10)
    ) -> Self {
        Self(baseURL: service, securityPolicy: securityPolicy, timeout: timeout)
    }
}
