public import Foundation
import NIOSSL
public import PostgresNIO

/// A PostgreSQL address as libpq writes it:
/// `postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=MODE`.
///
/// The password may instead come from `PGPASSWORD`, so that it stays out of command lines;
/// ``description`` never shows it.
///
/// ```swift
/// let url = try DatabaseURL("postgres://courier@db.example:5432/library?sslmode=require")
/// ```
public struct DatabaseURL: Sendable, Hashable, CustomStringConvertible {
    /// The server's host name or address.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The role to connect as.
    public var username: String
    /// The role's password, if it needs one.
    public var password: String?
    /// The database.
    public var database: String
    /// Whether to use TLS: `disable`, `prefer` (the default, as libpq), `require` or
    /// `verify-full` (TLS with the server's certificate and name checked).
    public var tlsMode: TLSMode

    /// How the connection uses TLS.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Cleartext only.
        case disable
        /// TLS when the server offers it.
        case prefer
        /// TLS or no connection; the certificate is not checked (as libpq's `require`).
        case require
        /// TLS with the certificate checked against the system's roots and the host name.
        case verifyFull = "verify-full"
    }

    /// Reads a `postgres://` or `postgresql://` URL; the password falls back to `environment`'s
    /// `PGPASSWORD`.
    ///
    /// - Throws: ``DatabaseURLError`` saying what is missing or wrong; never echoing a password.
    public init(
        _ text: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    )
        throws(DatabaseURLError)
    {
        guard let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), ["postgres", "postgresql"].contains(scheme)
        else {
            throw DatabaseURLError("is not a postgres:// URL, such as postgres://courier@127.0.0.1:5432/library")
        }
        guard let host = components.host, !host.isEmpty else {
            throw DatabaseURLError("names no host: postgres://USER@HOST:PORT/DATABASE")
        }
        guard let user = components.user, !user.isEmpty else {
            throw DatabaseURLError("names no user: postgres://USER@HOST:PORT/DATABASE")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw DatabaseURLError("names no database: postgres://USER@HOST:PORT/DATABASE")
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw DatabaseURLError("has port \(port), not 1 to 65535") }
        self.username = user
        self.password = components.password ?? environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        self.database = database
        var mode = TLSMode.prefer
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode" else {
                throw DatabaseURLError("has the parameter '\(item.name)': only sslmode is understood")
            }
            guard let value = item.value, let chosen = TLSMode(rawValue: value) else {
                let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw DatabaseURLError("has sslmode '\(item.value ?? "")': use one of \(modes)")
            }
            mode = chosen
        }
        self.tlsMode = mode
    }

    /// `postgres://courier:•••@host:5432/library`: the password hidden.
    public var description: String {
        let authority = host.contains(":") ? "[\(host)]" : host
        let secret = password == nil ? "" : ":•••"
        let query = tlsMode == .prefer ? "" : "?sslmode=\(tlsMode.rawValue)"
        return "postgres://\(username)\(secret)@\(authority):\(port)/\(database)\(query)"
    }

    /// The pool's configuration for this address.
    public func clientConfiguration(
        maximumConnections: Int = 12,
        connectTimeout: Duration = .seconds(5)
    ) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host,
            port: port,
            username: username,
            password: password,
            database: database,
            tls: clientTLS
        )
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = connectTimeout
        return configuration
    }

    private var clientTLS: PostgresClient.Configuration.TLS {
        switch tlsMode {
        case .disable: .disable
        case .prefer: .prefer(Self.unverified)
        case .require: .require(Self.unverified)
        case .verifyFull: .require(.makeClientConfiguration())
        }
    }

    /// One connection's configuration for this address, for `LISTEN`.
    func connectionConfiguration(connectTimeout: Duration = .seconds(5)) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS =
            switch tlsMode {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: Self.unverified))
            case .require: .require(try NIOSSLContext(configuration: Self.unverified))
            case .verifyFull: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        var configuration = PostgresConnection.Configuration(
            host: host,
            port: port,
            username: username,
            password: password,
            database: database,
            tls: tls
        )
        configuration.options.connectTimeout = TimeAmount(connectTimeout)
        return configuration
    }

    /// libpq's `prefer` and `require` encrypt without checking the certificate.
    private static var unverified: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        return configuration
    }
}

/// A database address that cannot be used, and why; the address itself is never repeated, as
/// it may hold a password.
public struct DatabaseURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the address.
    public var problem: String

    init(_ problem: String) {
        self.problem = problem
    }

    /// "The database address names no user: …".
    public var description: String { "The database address \(problem)." }
}
