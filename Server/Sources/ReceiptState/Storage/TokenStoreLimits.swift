/// The bounds every store applies.
public struct TokenStoreLimits: Sendable, Hashable {
    /// The longest a store call may take, in seconds, before it throws `timeout`.
    public var operationTimeout: Double = 5
    /// The most tokens in one ``TokenStore/store(_:)`` call.
    public var maximumTokensPerCall = 200
    /// The most original transaction ids (or digests) in one read.
    public var maximumIDsPerRead = 500
    /// The most tokens in one page of ``TokenStore/tokens(after:limit:)``.
    public var maximumTokensPerPage = 500

    /// The default bounds.
    public init() {}
}

// The checks every store makes before it reaches the database, written once so that the two stores
// refuse the same counts with the same words.
extension TokenStoreLimits {
    /// Refuses (`tooLarge`) a ``TokenStore/store(_:)`` call of more than ``maximumTokensPerCall`` tokens.
    func checkTokensPerCall(_ count: Int) throws(TokenStoreError) {
        guard count <= maximumTokensPerCall else {
            throw TokenStoreError(.tooLarge, "\(count) tokens in one call; at most \(maximumTokensPerCall)")
        }
    }

    /// Refuses (`tooLarge`) a read of more than ``maximumIDsPerRead`` keys; `keys` names them in the
    /// message ("original transaction ids", "digests").
    func checkKeysPerRead(_ count: Int, _ keys: String) throws(TokenStoreError) {
        guard count <= maximumIDsPerRead else {
            throw TokenStoreError(.tooLarge, "\(count) \(keys) in one read; at most \(maximumIDsPerRead)")
        }
    }

    /// Refuses (`tooLarge`) a page size outside 1 through ``maximumTokensPerPage``.
    func checkPageSize(_ limit: Int) throws(TokenStoreError) {
        guard limit >= 1, limit <= maximumTokensPerPage else {
            throw TokenStoreError(.tooLarge, "a page of \(limit) tokens; from 1 to \(maximumTokensPerPage)")
        }
    }
}
