import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLiteNIO

/// The embedded store: one SQLite file (sqlite-nio, SQLite built in), in WAL mode with
/// `synchronous=FULL`, so that a call returns only once its commit is on disk.
///
/// One connection in SQLite's serialized mode; every write is a single statement, so calls may
/// overlap. Several processes may open the same file (`busy_timeout` makes a writer wait its turn).
/// The reads made on every request (``digests(forOriginalTransactionIDs:)``, ``ping()``) go
/// through a second, read-only connection with its statements kept (``SQLiteReadThread``).
public final class SQLiteTokenStore: TokenStore {
    private let connection: SQLiteConnection
    /// The request path's reads; nil where a second connection does not see the store (in memory).
    private let reads: SQLiteReadThread?
    private let limits: TokenStoreLimits
    private let logger: Logger
    /// The file, as opened.
    public let path: String

    private init(connection: SQLiteConnection, reads: SQLiteReadThread?, path: String, limits: TokenStoreLimits, logger: Logger) {
        self.connection = connection
        self.reads = reads
        self.path = path
        self.limits = limits
        self.logger = logger
    }

    /// Opens (creating when missing) the database file at `path` and brings its schema up to date.
    public static func open(path: String, limits: TokenStoreLimits = .init(), logger: Logger) async throws(TokenStoreError) -> SQLiteTokenStore {
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        } catch {
            throw TokenStoreError(.unavailable, "the SQLite database \(path) could not be opened: \(error)")
        }
        do {
            try await prepare(connection, path: path, limits: limits)
        } catch {
            try? await connection.close()
            throw error
        }
        let reads = await SQLiteReadThread.open(path: path, busyTimeoutMilliseconds: Int32(max(limits.operationTimeout, 1) * 1000))
        return SQLiteTokenStore(connection: connection, reads: reads, path: path, limits: limits, logger: logger)
    }

    /// Sets the connection's durability and waits, and applies the migrations not yet applied, in
    /// one immediate transaction (a second process opening the file at once waits for it).
    private static func prepare(_ connection: SQLiteConnection, path: String, limits: TokenStoreLimits) async throws(TokenStoreError) {
        let timeout = max(limits.operationTimeout, 1)
        try await withDeadline(timeout * 4, "preparing \(path)", describe: Self.describe) {
            _ = try await connection.query("PRAGMA busy_timeout = \(Int(timeout * 1000))")
            _ = try await connection.query("PRAGMA journal_mode = WAL")
            _ = try await connection.query("PRAGMA synchronous = FULL")
            _ = try await connection.query("BEGIN IMMEDIATE")
            do {
                _ = try await connection.query(StoreSchema.migrationsTable)
                var applied = Set<Int>()
                for row in try await connection.query("SELECT version FROM receipt_state_migrations") {
                    if let version = row.column("version")?.integer { applied.insert(Int(version)) }
                }
                if let newest = applied.max(), newest > StoreSchema.latestVersion {
                    throw TokenStoreError(.incompatible, "the database's schema is version \(newest); this build knows up to \(StoreSchema.latestVersion)")
                }
                for migration in StoreSchema.migrations where !applied.contains(migration.version) {
                    for statement in migration.statements(.sqlite) {
                        _ = try await connection.query(statement)
                    }
                    _ = try await connection.query(
                        StoreSchema.recordMigration(dialect: .sqlite),
                        [.integer(SQLiteInt64(migration.version)), .text(migration.description), .integer(SQLiteInt64(Date().millisecondsSince1970))])
                }
                _ = try await connection.query("COMMIT")
            } catch {
                _ = try? await connection.query("ROLLBACK")
                throw error
            }
        }
    }

    /// Records `version` as applied (what a migration does last).
    func recordMigration(version: Int, description: String) async throws(TokenStoreError) {
        let connection = self.connection
        _ = try await withDeadline(limits.operationTimeout, "recording migration \(version)", describe: Self.describe) {
            try await connection.query(
                StoreSchema.recordMigration(dialect: .sqlite),
                [.integer(SQLiteInt64(version)), .text(description), .integer(SQLiteInt64(Date().millisecondsSince1970))])
        }
    }

    /// ``TokenStore/store(_:)``: one multi-row `INSERT … ON CONFLICT DO NOTHING RETURNING`.
    public func store(_ tokens: [StoredToken]) async throws(TokenStoreError) -> [StoreOutcome] {
        guard !tokens.isEmpty else { return [] }
        try limits.checkTokensPerCall(tokens.count)
        let binds = tokens.flatMap { token -> [SQLiteData] in
            [
                .text(token.kind.rawValue), .text(token.token), .text(token.digest), .integer(SQLiteInt64(token.signedDateMilliseconds)),
                token.originalTransactionID.map(SQLiteData.text) ?? .null, token.transactionID.map(SQLiteData.text) ?? .null,
                token.notificationUUID.map(SQLiteData.text) ?? .null, .text(token.bundleID), .text(token.environment),
                .integer(SQLiteInt64(token.receivedAtMilliseconds)),
            ]
        }
        let sql = StoreSchema.insert(count: tokens.count, dialect: .sqlite)
        let connection = self.connection
        let rows = try await withDeadline(limits.operationTimeout, "storing \(tokens.count) token(s)", describe: Self.describe) {
            try await connection.query(sql, binds)
        }
        return tokens.outcomes(returned: Set(rows.compactMap { $0.column("token_sha256")?.string }))
    }

    /// ``TokenStore/tokens(forOriginalTransactionIDs:)``: one `SELECT … IN (…)`, in row order.
    public func tokens(forOriginalTransactionIDs ids: [String]) async throws(TokenStoreError) -> [StoredToken] {
        guard !ids.isEmpty else { return [] }
        try limits.checkKeysPerRead(ids.count, "original transaction ids")
        let sql = StoreSchema.selectByOriginalTransactionIDs(count: ids.count, dialect: .sqlite)
        let connection = self.connection
        let rows = try await withDeadline(limits.operationTimeout, "reading tokens", describe: Self.describe) {
            try await connection.query(sql, ids.map(SQLiteData.text))
        }
        return try rows.map { row throws(TokenStoreError) in try Self.decode(row).token }
    }

    /// ``TokenStore/digests(forOriginalTransactionIDs:)``: one `SELECT` of digests and ids, in row order.
    public func digests(forOriginalTransactionIDs ids: [String]) async throws(TokenStoreError) -> [TokenDigestEntry] {
        guard !ids.isEmpty else { return [] }
        try limits.checkKeysPerRead(ids.count, "original transaction ids")
        if let reads {
            return try await reads.run(limits.operationTimeout, "reading token digests") { connection throws(TokenStoreError) in
                try Self.digests(forOriginalTransactionIDs: ids, on: connection)
            }
        }
        let sql = StoreSchema.selectDigestsByOriginalTransactionIDs(count: ids.count, dialect: .sqlite)
        let connection = self.connection
        let rows = try await withDeadline(limits.operationTimeout, "reading token digests", describe: Self.describe) {
            try await connection.query(sql, ids.map(SQLiteData.text))
        }
        return rows.compactMap { row in
            guard let digest = row.column("token_sha256")?.string, let id = row.column("original_transaction_id")?.string else { return nil }
            return TokenDigestEntry(digest: digest, originalTransactionID: id)
        }
    }

    /// On the read connection, when no other thread uses it (``SQLiteReadThread/readHere(_:_:_:)``:
    /// a lock waited for at most the busy timeout, a statement interrupted at the time limit).
    public func digestsHere(forOriginalTransactionIDs ids: [String]) -> Result<[TokenDigestEntry], TokenStoreError>? {
        guard !ids.isEmpty else { return .success([]) }
        do { try limits.checkKeysPerRead(ids.count, "original transaction ids") } catch { return .failure(error) }
        return reads?.readHere(limits.operationTimeout, "reading token digests") { connection throws(TokenStoreError) in
            try Self.digests(forOriginalTransactionIDs: ids, on: connection)
        }
    }

    /// The digests read with the read connection's kept statement.
    private static func digests(forOriginalTransactionIDs ids: [String], on connection: SQLiteReadConnection) throws(TokenStoreError) -> [TokenDigestEntry] {
        var entries: [TokenDigestEntry] = []
        try connection.rows(.digests(count: ids.count), ids) { row in
            guard !row.isNull(0), !row.isNull(1) else { return }
            entries.append(TokenDigestEntry(digest: row.text(0), originalTransactionID: row.text(1)))
        }
        return entries
    }

    /// ``TokenStore/tokens(withDigests:)``: one `SELECT … IN (…)`, in row order.
    public func tokens(withDigests digests: [String]) async throws(TokenStoreError) -> [StoredToken] {
        guard !digests.isEmpty else { return [] }
        try limits.checkKeysPerRead(digests.count, "digests")
        let sql = StoreSchema.selectByDigests(count: digests.count, dialect: .sqlite)
        let connection = self.connection
        let rows = try await withDeadline(limits.operationTimeout, "reading tokens", describe: Self.describe) {
            try await connection.query(sql, digests.map(SQLiteData.text))
        }
        return try rows.map { row throws(TokenStoreError) in try Self.decode(row).token }
    }

    /// ``TokenStore/tokens(after:limit:)``: one page, by row id.
    public func tokens(after rowID: Int64, limit: Int) async throws(TokenStoreError) -> [(rowID: Int64, token: StoredToken)] {
        try limits.checkPageSize(limit)
        let connection = self.connection
        let rows = try await withDeadline(limits.operationTimeout, "reading a page of tokens", describe: Self.describe) {
            try await connection.query(StoreSchema.selectPage(dialect: .sqlite), [.integer(SQLiteInt64(rowID)), .integer(SQLiteInt64(limit))])
        }
        return try rows.map { row throws(TokenStoreError) in try Self.decode(row) }
    }

    /// ``TokenStore/count()``: one `GROUP BY kind`.
    public func count() async throws(TokenStoreError) -> [TokenKind: Int] {
        let connection = self.connection
        let rows = try await withDeadline(limits.operationTimeout, "counting tokens", describe: Self.describe) {
            try await connection.query(StoreSchema.countByKind)
        }
        var counts: [TokenKind: Int] = [:]
        for row in rows {
            guard let text = row.columns.first?.data.string, let count = row.columns.last?.data.integer else {
                throw TokenStoreError(.incompatible, "a stored kind or its count could not be read")
            }
            guard let kind = TokenKind(rawValue: text) else {
                throw TokenStoreError(.incompatible, "\(count) stored row(s) have the unknown kind '\(text)'")
            }
            counts[kind] = Int(count)
        }
        return counts
    }

    /// ``TokenStore/ping()``: `SELECT 1`.
    public func ping() async throws(TokenStoreError) {
        if let reads {
            return try await reads.run(limits.operationTimeout, "checking the database") { connection throws(TokenStoreError) in
                try connection.rows(.ping, []) { _ in }
            }
        }
        let connection = self.connection
        _ = try await withDeadline(limits.operationTimeout, "checking the database", describe: Self.describe) {
            try await connection.query("SELECT 1")
        }
    }

    /// Closes the connection, waiting at most ``TokenStoreLimits/operationTimeout`` (at least a
    /// second) for it: a close stuck behind a call that does not end must not hold up shutdown.
    /// Past the bound the close is left to finish on its own, and a warning says so.
    public func close() async {
        let connection = self.connection
        let reads = self.reads
        let bound = max(limits.operationTimeout, 1)
        switch await boundedWait(bound, {
            await reads?.close()
            try? await connection.close()
        }) {
        case .finished:
            break
        case .timedOut:
            logger.warning("the SQLite connection did not close within \(bound) s; going on without waiting for it", metadata: ["database": "\(path)"])
        case .cancelled:
            logger.warning("closing the SQLite connection was cancelled before it closed", metadata: ["database": "\(path)"])
        }
    }

    /// A row of ``StoreSchema/selectColumns``.
    private static func decode(_ row: SQLiteRow) throws(TokenStoreError) -> (rowID: Int64, token: StoredToken) {
        guard let id = row.column("id")?.integer,
            let kind = row.column("kind")?.string.flatMap(TokenKind.init(rawValue:)),
            let token = row.column("token")?.string,
            let signed = row.column("signed_date_ms")?.integer,
            let bundleID = row.column("bundle_id")?.string,
            let environment = row.column("environment")?.string,
            let received = row.column("received_at_ms")?.integer
        else {
            throw TokenStoreError(.incompatible, "a stored row could not be read: \(row)")
        }
        return (
            Int64(id),
            StoredToken(
                kind: kind, token: token, signedDateMilliseconds: Int64(signed),
                originalTransactionID: row.column("original_transaction_id")?.string,
                transactionID: row.column("transaction_id")?.string, notificationUUID: row.column("notification_uuid")?.string,
                bundleID: bundleID, environment: environment, receivedAtMilliseconds: Int64(received))
        )
    }

    /// SQLite's own message.
    @Sendable private static func describe(_ error: any Error) -> String {
        "SQLite: \(error)"
    }
}

extension Date {
    /// Milliseconds since 1970, as Apple's JSON and the store write dates.
    public var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded(.down))
    }
}
