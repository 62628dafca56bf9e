import Foundation
import Logging

/// Where the state is kept, as `--database` names it: a file path (or `sqlite:PATH`) for SQLite,
/// `postgres://…` (or `postgresql://…`) for PostgreSQL.
public enum StoreLocation: Hashable, Sendable, CustomStringConvertible {
    /// An SQLite file.
    case sqlite(path: String)
    /// A PostgreSQL URL.
    case postgres(url: String)

    /// The default: `receipt-state.sqlite` in the working directory.
    public static let defaultLocation = StoreLocation.sqlite(path: "receipt-state.sqlite")

    /// Reads a `--database` value.
    public init(_ text: String) throws(TokenStoreError) {
        let lowercased = text.lowercased()
        if lowercased.hasPrefix("postgres://") || lowercased.hasPrefix("postgresql://") {
            _ = try PostgresLocation(url: text)
            self = .postgres(url: text)
        } else if lowercased.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw TokenStoreError(.invalidLocation, "sqlite: needs a file path") }
            self = .sqlite(path: path)
        } else if text.contains("://") {
            throw TokenStoreError(.invalidLocation, "'\(text)': the database is a file path, sqlite:PATH or postgres://user@host:port/database")
        } else {
            guard !text.isEmpty else { throw TokenStoreError(.invalidLocation, "the database location is empty") }
            self = .sqlite(path: text)
        }
    }

    /// The location with any password left out.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let url): (try? PostgresLocation(url: url).display) ?? "postgres://…"
        }
    }

    /// Opens the store here.
    public func open(limits: TokenStoreLimits = .init(), maximumConnections: Int = 16, logger: Logger) async throws(TokenStoreError) -> any TokenStore {
        switch self {
        case .sqlite(let path): try await SQLiteTokenStore.open(path: path, limits: limits, logger: logger)
        case .postgres(let url): try await PostgresTokenStore.open(url: url, limits: limits, maximumConnections: maximumConnections, logger: logger)
        }
    }
}

/// The parts of a PostgreSQL URL.
struct PostgresLocation: Hashable, Sendable {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String?

    /// Reads `postgres://user[:password]@host[:port][/database][?sslmode=disable]`.
    init(url: String) throws(TokenStoreError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql"
        else {
            throw TokenStoreError(.invalidLocation, "not a postgres:// URL")
        }
        guard let host = components.host, !host.isEmpty else {
            throw TokenStoreError(.invalidLocation, "the postgres:// URL names no host")
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw TokenStoreError(.invalidLocation, "the port \(port) is out of range") }
        guard let user = components.user, !user.isEmpty else {
            throw TokenStoreError(.invalidLocation, "the postgres:// URL names no user (postgres://USER@host/database)")
        }
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("sslmode", "disable"): continue
            case ("sslmode", let value):
                throw TokenStoreError(.invalidLocation, "sslmode=\(value ?? "") is not offered: this build connects without TLS (sslmode=disable), for a database on a private network")
            default:
                throw TokenStoreError(.invalidLocation, "the URL parameter '\(item.name)' is not understood")
            }
        }
        self.host = host
        self.port = port
        self.user = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? nil : path
    }

    /// The URL with its password left out.
    var display: String {
        "postgres://\(user)@\(host):\(port)/\(database ?? "")"
    }
}
