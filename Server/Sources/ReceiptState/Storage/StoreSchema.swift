/// The store's schema, one home for both databases: versioned migrations applied in order, each
/// once, and the statements every store runs. Values are always bound parameters; the only text
/// put together is column lists and placeholders.
enum StoreSchema {
    /// The SQL spellings that differ between the two databases.
    enum Dialect: Sendable {
        case sqlite
        case postgres

        /// The placeholder for the parameter at `index` (from 1).
        func placeholder(_ index: Int) -> String {
            switch self {
            case .sqlite: "?\(index)"
            case .postgres: "$\(index)"
            }
        }

        /// The row id column's definition.
        var rowIDColumn: String {
            switch self {
            case .sqlite: "id INTEGER PRIMARY KEY"
            case .postgres: "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
            }
        }
    }

    /// One schema change.
    struct Migration: Sendable {
        /// Its number: migrations run in increasing order, each once.
        var version: Int
        /// What it does (kept in the migrations table).
        var description: String
        /// Its statements.
        var statements: @Sendable (Dialect) -> [String]
    }

    /// The table that records which migrations ran.
    static let migrationsTable = """
        CREATE TABLE IF NOT EXISTS receipt_state_migrations (
            version INTEGER PRIMARY KEY,
            description TEXT NOT NULL,
            applied_at_ms BIGINT NOT NULL
        )
        """

    /// Every migration, oldest first.
    static let migrations: [Migration] = [
        Migration(version: 1, description: "receipt_tokens: verified JWS as received") { dialect in
            [
                """
                CREATE TABLE receipt_tokens (
                    \(dialect.rowIDColumn),
                    kind TEXT NOT NULL,
                    token TEXT NOT NULL,
                    token_sha256 TEXT NOT NULL,
                    signed_date_ms BIGINT NOT NULL,
                    original_transaction_id TEXT,
                    transaction_id TEXT,
                    notification_uuid TEXT,
                    bundle_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    received_at_ms BIGINT NOT NULL,
                    CONSTRAINT receipt_tokens_token_unique UNIQUE (token_sha256),
                    CONSTRAINT receipt_tokens_notification_unique UNIQUE (notification_uuid)
                )
                """,
                "CREATE INDEX receipt_tokens_original_transaction ON receipt_tokens (original_transaction_id)",
            ]
        },
    ]

    /// The newest schema version this build knows.
    static var latestVersion: Int { migrations.map(\.version).max() ?? 0 }

    /// The columns written for a token, in the order ``insertValues(_:)`` gives them.
    static let insertColumns = [
        "kind", "token", "token_sha256", "signed_date_ms", "original_transaction_id", "transaction_id",
        "notification_uuid", "bundle_id", "environment", "received_at_ms",
    ]

    /// The columns read back, in the order ``StoredTokenRow`` takes them.
    static let selectColumns =
        "id, kind, token, signed_date_ms, original_transaction_id, transaction_id, notification_uuid, bundle_id, environment, received_at_ms"

    /// `INSERT … VALUES (…), (…) ON CONFLICT DO NOTHING RETURNING token_sha256` for `count`
    /// tokens: one statement, so all or none, and the database's unique constraints (token digest,
    /// notification UUID) decide what is new — two writers at once make one row.
    static func insert(count: Int, dialect: Dialect) -> String {
        let width = insertColumns.count
        let rows = (0..<count).map { row in
            "(" + (1...width).map { dialect.placeholder(row * width + $0) }.joined(separator: ", ") + ")"
        }
        return "INSERT INTO receipt_tokens (\(insertColumns.joined(separator: ", "))) VALUES "
            + rows.joined(separator: ", ") + " ON CONFLICT DO NOTHING RETURNING token_sha256"
    }

    /// The tokens concerning `count` original transaction ids, in row order.
    static func selectByOriginalTransactionIDs(count: Int, dialect: Dialect) -> String {
        let list = (1...max(count, 1)).map(dialect.placeholder).joined(separator: ", ")
        return "SELECT \(selectColumns) FROM receipt_tokens WHERE original_transaction_id IN (\(list)) ORDER BY id"
    }

    /// The digests of the tokens of `count` original transaction ids, in row order.
    static func selectDigestsByOriginalTransactionIDs(count: Int, dialect: Dialect) -> String {
        let list = (1...max(count, 1)).map(dialect.placeholder).joined(separator: ", ")
        return "SELECT token_sha256, original_transaction_id FROM receipt_tokens WHERE original_transaction_id IN (\(list)) ORDER BY id"
    }

    /// The tokens with `count` digests, in row order.
    static func selectByDigests(count: Int, dialect: Dialect) -> String {
        let list = (1...max(count, 1)).map(dialect.placeholder).joined(separator: ", ")
        return "SELECT \(selectColumns) FROM receipt_tokens WHERE token_sha256 IN (\(list)) ORDER BY id"
    }

    /// A page of the whole store.
    static func selectPage(dialect: Dialect) -> String {
        "SELECT \(selectColumns) FROM receipt_tokens WHERE id > \(dialect.placeholder(1)) ORDER BY id LIMIT \(dialect.placeholder(2))"
    }

    /// The count of each kind.
    static let countByKind = "SELECT kind, COUNT(*) FROM receipt_tokens GROUP BY kind"

    /// The migration record.
    static func recordMigration(dialect: Dialect) -> String {
        "INSERT INTO receipt_state_migrations (version, description, applied_at_ms) VALUES (\(dialect.placeholder(1)), \(dialect.placeholder(2)), \(dialect.placeholder(3)))"
    }
}
