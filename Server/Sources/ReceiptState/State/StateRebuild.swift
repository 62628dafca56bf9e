import Foundation

/// Derives every subscription's state again from every stored token, page by page — what
/// `receipt-server rebuild-state` runs. With a `verify` check, each token's signature is checked
/// again first (with today's anchors), and the tokens that no longer verify are counted and left
/// out of the states.
public struct StateRebuild: Sendable {
    /// What a rebuild found.
    public struct Summary: Hashable, Sendable {
        /// Tokens read.
        public var tokens = 0
        /// Tokens whose signature no longer verifies (only with a `verify` check).
        public var unverified = 0
        /// Tokens whose payload could not be read.
        public var unreadable = 0
        /// Subscriptions derived.
        public var subscriptions = 0
    }

    /// Where the tokens are.
    public let store: any TokenStore
    /// Tokens read per page: 1 through the store's ``TokenStoreLimits/maximumTokensPerPage``
    /// (another size makes ``run(at:verify:emit:)`` throw `tooLarge`).
    public var pageSize = TokenStoreLimits().maximumTokensPerPage

    /// A rebuild over `store`.
    public init(store: any TokenStore) {
        self.store = store
    }

    /// Reads every token, checks each with `verify` (nil: none), derives each original
    /// transaction id's state at `at` and hands it to `emit`, in original transaction id order.
    public func run(
        at: Date = Date(), verify: (@Sendable (StoredToken) -> String?)? = nil, emit: (SubscriptionState) throws -> Void
    ) async throws -> Summary {
        var summary = Summary()
        var byID: [String: [StoredToken]] = [:]
        var after: Int64 = 0
        while true {
            let page = try await store.tokens(after: after, limit: pageSize)
            guard let last = page.last else { break }
            after = last.rowID
            for (_, token) in page {
                summary.tokens += 1
                if let verify, verify(token) != nil {
                    summary.unverified += 1
                    continue
                }
                guard let id = token.originalTransactionID else { continue }
                byID[id, default: []].append(token)
            }
        }
        for id in byID.keys.sorted() {
            let derived = SubscriptionState.derive(originalTransactionId: id, from: byID[id] ?? [], at: at)
            summary.unreadable += derived.unreadable.count
            if let state = derived.state {
                summary.subscriptions += 1
                try emit(state)
            }
        }
        return summary
    }
}
