import Foundation
import Logging
import PostgresNIO

/// The shared store: PostgreSQL through postgres-nio's `PostgresClient` (a connection pool), for
/// several replicas serving one app. A call returns once PostgreSQL has committed (its
/// `synchronous_commit` decides what that means; the default waits for the WAL flush).
///
/// The pool reconnects on its own: while the database is down calls throw `timeout` or
/// `unavailable` within ``TokenStoreLimits/operationTimeout``, and succeed again once it is back.
public final class PostgresTokenStore: TokenStore {
    private let client: PostgresClient
    private let running: Task<Void, Never>
    private let limits: TokenStoreLimits
    private let logger: Logger
    /// The location, with its password left out.
    public let displayLocation: String

    private init(client: PostgresClient, running: Task<Void, Never>, limits: TokenStoreLimits, logger: Logger, displayLocation: String) {
        self.client = client
        self.running = running
        self.limits = limits
        self.logger = logger
        self.displayLocation = displayLocation
    }

    /// Connects to `postgres://user[:password]@host[:port]/database` and brings the schema up to
    /// date (under an advisory lock, so that replicas starting at once migrate once).
    /// - Parameter maximumConnections: The pool's size (at least one: a smaller number opens one).
    public static func open(
        url: String, limits: TokenStoreLimits = .init(), maximumConnections: Int = 16, logger: Logger
    ) async throws(TokenStoreError) -> PostgresTokenStore {
        let location = try PostgresLocation(url: url)
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: .disable)
        configuration.options.connectTimeout = .milliseconds(Int64(max(limits.operationTimeout, 0.5) * 1000))
        configuration.options.maximumConnections = max(1, maximumConnections)
        configuration.options.keepAliveBehavior = .init(frequency: .seconds(15))
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let running = Task { await client.run() }
        let store = PostgresTokenStore(client: client, running: running, limits: limits, logger: logger, displayLocation: location.display)
        do {
            try await store.migrate()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Applies the migrations not yet applied, in one transaction holding an advisory lock.
    private func migrate() async throws(TokenStoreError) {
        let client = self.client
        let logger = self.logger
        try await withDeadline(limits.operationTimeout * 4, "migrating \(displayLocation)", describe: Self.describe) {
            do {
                try await Self.migrate(client, logger: logger)
            } catch let error as PostgresTransactionError {
                // The closure's own verdict (a newer schema) stands as thrown.
                if let refusal = error.closureError as? TokenStoreError { throw refusal }
                throw error
            }
        }
    }

    /// The migration transaction.
    private static func migrate(_ client: PostgresClient, logger: Logger) async throws {
            try await client.withTransaction(logger: logger) { connection in
                // The lock's key is arbitrary but fixed: "receipt_state" as a number.
                try await connection.query("SELECT pg_advisory_xact_lock(7266343412)", logger: logger)
                try await connection.query(PostgresQuery(unsafeSQL: StoreSchema.migrationsTable), logger: logger)
                var applied = Set<Int>()
                for try await version in try await connection.query("SELECT version FROM receipt_state_migrations", logger: logger).decode(Int.self) {
                    applied.insert(version)
                }
                if let newest = applied.max(), newest > StoreSchema.latestVersion {
                    throw TokenStoreError(.incompatible, "the database's schema is version \(newest); this build knows up to \(StoreSchema.latestVersion)")
                }
                for migration in StoreSchema.migrations where !applied.contains(migration.version) {
                    for statement in migration.statements(.postgres) {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    var binds = PostgresBindings()
                    binds.append(migration.version)
                    binds.append(migration.description)
                    binds.append(Date().millisecondsSince1970)
                    try await connection.query(PostgresQuery(unsafeSQL: StoreSchema.recordMigration(dialect: .postgres), binds: binds), logger: logger)
                }
            }
    }

    /// Records `version` as applied (what a migration does last).
    func recordMigration(version: Int, description: String) async throws(TokenStoreError) {
        var binds = PostgresBindings()
        binds.append(version)
        binds.append(description)
        binds.append(Date().millisecondsSince1970)
        let query = PostgresQuery(unsafeSQL: StoreSchema.recordMigration(dialect: .postgres), binds: binds)
        let client = self.client
        _ = try await withDeadline(limits.operationTimeout, "recording migration \(version)", describe: Self.describe) {
            try await client.query(query)
        }
    }

    /// ``TokenStore/store(_:)``: one multi-row `INSERT … ON CONFLICT DO NOTHING RETURNING`.
    public func store(_ tokens: [StoredToken]) async throws(TokenStoreError) -> [StoreOutcome] {
        guard !tokens.isEmpty else { return [] }
        try limits.checkTokensPerCall(tokens.count)
        var binds = PostgresBindings(capacity: tokens.count * StoreSchema.insertColumns.count)
        for token in tokens {
            binds.append(token.kind.rawValue)
            binds.append(token.token)
            binds.append(token.digest)
            binds.append(token.signedDateMilliseconds)
            binds.append(token.originalTransactionID)
            binds.append(token.transactionID)
            binds.append(token.notificationUUID)
            binds.append(token.bundleID)
            binds.append(token.environment)
            binds.append(token.receivedAtMilliseconds)
        }
        let query = PostgresQuery(unsafeSQL: StoreSchema.insert(count: tokens.count, dialect: .postgres), binds: binds)
        let client = self.client
        let digests = try await withDeadline(limits.operationTimeout, "storing \(tokens.count) token(s)", describe: Self.describe) {
            var digests = Set<String>()
            for try await digest in try await client.query(query).decode(String.self) {
                digests.insert(digest)
            }
            return digests
        }
        return tokens.outcomes(returned: digests)
    }

    /// ``TokenStore/tokens(forOriginalTransactionIDs:)``: one `SELECT … IN (…)`, in row order.
    public func tokens(forOriginalTransactionIDs ids: [String]) async throws(TokenStoreError) -> [StoredToken] {
        guard !ids.isEmpty else { return [] }
        try limits.checkKeysPerRead(ids.count, "original transaction ids")
        var binds = PostgresBindings(capacity: ids.count)
        for id in ids { binds.append(id) }
        let query = PostgresQuery(unsafeSQL: StoreSchema.selectByOriginalTransactionIDs(count: ids.count, dialect: .postgres), binds: binds)
        return try await read(query, "reading tokens").map(\.token)
    }

    /// ``TokenStore/digests(forOriginalTransactionIDs:)``: one `SELECT` of digests and ids, in row order.
    public func digests(forOriginalTransactionIDs ids: [String]) async throws(TokenStoreError) -> [TokenDigestEntry] {
        guard !ids.isEmpty else { return [] }
        try limits.checkKeysPerRead(ids.count, "original transaction ids")
        var binds = PostgresBindings(capacity: ids.count)
        for id in ids { binds.append(id) }
        let query = PostgresQuery(unsafeSQL: StoreSchema.selectDigestsByOriginalTransactionIDs(count: ids.count, dialect: .postgres), binds: binds)
        let client = self.client
        return try await withDeadline(limits.operationTimeout, "reading token digests", describe: Self.describe) {
            var entries: [TokenDigestEntry] = []
            for try await (digest, id) in try await client.query(query).decode((String, String).self) {
                entries.append(TokenDigestEntry(digest: digest, originalTransactionID: id))
            }
            return entries
        }
    }

    /// ``TokenStore/tokens(withDigests:)``: one `SELECT … IN (…)`, in row order.
    public func tokens(withDigests digests: [String]) async throws(TokenStoreError) -> [StoredToken] {
        guard !digests.isEmpty else { return [] }
        try limits.checkKeysPerRead(digests.count, "digests")
        var binds = PostgresBindings(capacity: digests.count)
        for digest in digests { binds.append(digest) }
        let query = PostgresQuery(unsafeSQL: StoreSchema.selectByDigests(count: digests.count, dialect: .postgres), binds: binds)
        return try await read(query, "reading tokens").map(\.token)
    }

    /// ``TokenStore/tokens(after:limit:)``: one page, by row id.
    public func tokens(after rowID: Int64, limit: Int) async throws(TokenStoreError) -> [(rowID: Int64, token: StoredToken)] {
        try limits.checkPageSize(limit)
        var binds = PostgresBindings()
        binds.append(rowID)
        binds.append(Int64(limit))
        return try await read(PostgresQuery(unsafeSQL: StoreSchema.selectPage(dialect: .postgres), binds: binds), "reading a page of tokens")
    }

    /// The rows of a ``StoreSchema/selectColumns`` query.
    private func read(_ query: PostgresQuery, _ what: String) async throws(TokenStoreError) -> [(rowID: Int64, token: StoredToken)] {
        let client = self.client
        return try await withDeadline(limits.operationTimeout, what, describe: Self.describe) {
            var tokens: [(rowID: Int64, token: StoredToken)] = []
            let rows = try await client.query(query).decode((Int64, String, String, Int64, String?, String?, String?, String, String, Int64).self)
            for try await (id, kind, token, signed, original, transaction, uuid, bundleID, environment, received) in rows {
                guard let kind = TokenKind(rawValue: kind) else {
                    throw TokenStoreError(.incompatible, "a stored row \(id) has the unknown kind '\(kind)'")
                }
                tokens.append((id, StoredToken(
                    kind: kind, token: token, signedDateMilliseconds: signed, originalTransactionID: original, transactionID: transaction,
                    notificationUUID: uuid, bundleID: bundleID, environment: environment, receivedAtMilliseconds: received)))
            }
            return tokens
        }
    }

    /// ``TokenStore/count()``: one `GROUP BY kind`.
    public func count() async throws(TokenStoreError) -> [TokenKind: Int] {
        let client = self.client
        return try await withDeadline(limits.operationTimeout, "counting tokens", describe: Self.describe) {
            var counts: [TokenKind: Int] = [:]
            for try await (kind, count) in try await client.query(PostgresQuery(unsafeSQL: StoreSchema.countByKind)).decode((String, Int64).self) {
                guard let known = TokenKind(rawValue: kind) else {
                    throw TokenStoreError(.incompatible, "\(count) stored row(s) have the unknown kind '\(kind)'")
                }
                counts[known] = Int(count)
            }
            return counts
        }
    }

    /// ``TokenStore/ping()``: `SELECT 1`.
    public func ping() async throws(TokenStoreError) {
        let client = self.client
        try await withDeadline(limits.operationTimeout, "checking the database", describe: Self.describe) {
            for try await _ in try await client.query("SELECT 1").decode(Int32.self) {}
        }
    }

    /// Stops the pool: cancels the client's run task and waits for it to end, at most
    /// ``TokenStoreLimits/operationTimeout`` (at least a second): a driver that does not end on
    /// cancellation (its database gone mid-handshake) must not hold up shutdown. Past the bound
    /// the task is left to end on its own, and a warning says so.
    public func close() async {
        running.cancel()
        let running = self.running
        let bound = max(limits.operationTimeout, 1)
        switch await boundedWait(bound, { await running.value }) {
        case .finished:
            break
        case .timedOut:
            logger.warning("the PostgreSQL client did not stop within \(bound) s of its cancellation; closing without waiting for it",
                           metadata: ["database": "\(displayLocation)"])
        case .cancelled:
            logger.warning("closing the PostgreSQL client was cancelled before it stopped", metadata: ["database": "\(displayLocation)"])
        }
    }

    /// PostgreSQL's own words: the error code, and the server's message when it sent one.
    @Sendable private static func describe(_ error: any Error) -> String {
        if let error = error as? PostgresTransactionError {
            return describe(error.beginError ?? error.closureError ?? error.commitError ?? error.rollbackError ?? CancellationError())
        }
        guard let error = error as? PSQLError else { return "PostgreSQL: \(error)" }
        var text = "PostgreSQL: \(error.code)"
        if let message = error.serverInfo?[.message] { text += ": \(message)" }
        if let state = error.serverInfo?[.sqlState] { text += " (SQLSTATE \(state))" }
        if let underlying = error.underlying { text += ": \(underlying)" }
        return text
    }
}
