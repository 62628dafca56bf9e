import Foundation

/// The state of subscriptions, read from a store: the tokens of the asked original transaction
/// ids, derived on every read (nothing derived is kept, so nothing can go stale).
public struct StateReader: Sendable {
    /// Where the tokens are.
    public let store: any TokenStore

    /// A reader over `store`.
    public init(store: any TokenStore) {
        self.store = store
    }

    /// The state of `originalTransactionId` at `at`; nil when nothing is stored for it.
    public func state(of originalTransactionId: String, at: Date = Date()) async throws(TokenStoreError) -> SubscriptionState? {
        try await states(of: [originalTransactionId], at: at)[originalTransactionId]
    }

    /// The states of several original transaction ids at `at`, in one read; ids with nothing
    /// stored are absent.
    public func states(of originalTransactionIds: [String], at: Date = Date()) async throws(TokenStoreError) -> [String: SubscriptionState] {
        guard !originalTransactionIds.isEmpty else { return [:] }
        let tokens = try await store.tokens(forOriginalTransactionIDs: originalTransactionIds)
        guard !tokens.isEmpty else { return [:] }
        var byID: [String: [StoredToken]] = [:]
        for token in tokens {
            guard let id = token.originalTransactionID else { continue }
            byID[id, default: []].append(token)
        }
        var states: [String: SubscriptionState] = [:]
        for (id, tokens) in byID {
            if let state = SubscriptionState.derive(originalTransactionId: id, from: tokens, at: at).state {
                states[id] = state
            }
        }
        return states
    }
}
