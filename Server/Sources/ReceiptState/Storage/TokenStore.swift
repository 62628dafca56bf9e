/// Where verified tokens are kept: SQLite (``SQLiteTokenStore``) or PostgreSQL
/// (``PostgresTokenStore``), behind one interface so that the same tests run on both.
///
/// Every call is bounded in time (``TokenStoreLimits/operationTimeout``): a database that stops
/// answering makes a call throw ``TokenStoreError`` with `timeout` or `unavailable`, never hang,
/// and the next call after it returns succeeds again.
public protocol TokenStore: Sendable {
    /// Stores tokens in one statement (all or none), each at most once: a token already stored, or
    /// a notification whose `notificationUUID` is stored, is left alone. Returns, for each token in
    /// order, whether it was stored now. Returns only after the database has committed.
    func store(_ tokens: [StoredToken]) async throws(TokenStoreError) -> [StoreOutcome]

    /// Every stored token concerning these original transaction ids, in the order stored.
    func tokens(forOriginalTransactionIDs ids: [String]) async throws(TokenStoreError) -> [StoredToken]

    /// The digest (``StoredToken`` text's SHA-256, hex) of every stored token concerning these
    /// original transaction ids, in the order stored: a read that fetches no token text.
    func digests(forOriginalTransactionIDs ids: [String]) async throws(TokenStoreError) -> [TokenDigestEntry]

    /// The stored tokens with these digests, in the order stored.
    func tokens(withDigests digests: [String]) async throws(TokenStoreError) -> [StoredToken]

    /// Up to `limit` stored tokens whose row id is greater than `rowID`, by row id, with their row
    /// ids: the whole store, page by page. A `limit` outside 1 through
    /// ``TokenStoreLimits/maximumTokensPerPage`` is refused (`tooLarge`), not read as another.
    func tokens(after rowID: Int64, limit: Int) async throws(TokenStoreError) -> [(rowID: Int64, token: StoredToken)]

    /// How many tokens are stored, of each kind; `incompatible` when a row has a kind this build
    /// does not know (as the reads that meet one throw), rather than a count that leaves it out.
    func count() async throws(TokenStoreError) -> [TokenKind: Int]

    /// ``digests(forOriginalTransactionIDs:)`` read on the calling thread, which it blocks (within
    /// the same time limit): nil when the store cannot read there now, and the caller reads through
    /// ``digests(forOriginalTransactionIDs:)``. A stateful `verifyReceipt` reads here on its
    /// validation thread. Only the embedded store can (on a read-only connection the calling thread
    /// has to itself); PostgreSQL's reads stay asynchronous.
    func digestsHere(forOriginalTransactionIDs ids: [String]) -> Result<[TokenDigestEntry], TokenStoreError>?

    /// Whether the database answers (a trivial query): `/health`.
    func ping() async throws(TokenStoreError)

    /// Closes the connections; no call may follow.
    func close() async
}

extension TokenStore {
    /// None: the reads are asynchronous.
    public func digestsHere(forOriginalTransactionIDs ids: [String]) -> Result<[TokenDigestEntry], TokenStoreError>? {
        nil
    }
}

/// A stored token's digest and the original transaction id it concerns.
public struct TokenDigestEntry: Hashable, Sendable {
    /// The SHA-256 of the token text, lowercase hex.
    public var digest: String
    /// The original transaction id.
    public var originalTransactionID: String

    /// An entry.
    public init(digest: String, originalTransactionID: String) {
        self.digest = digest
        self.originalTransactionID = originalTransactionID
    }
}
