import Foundation

/// The state of subscriptions, read from a store and derived on every read (nothing derived is
/// kept, so nothing can go stale). A read asks the store for the digests of the tokens of the
/// asked original transaction ids, and fetches and decodes only the tokens it has not read
/// before (``TokenFactsCache``): tokens never change.
public struct StateReader: Sendable {
    /// Where the tokens are.
    public let store: any TokenStore
    /// The facts of the tokens read so far.
    public let cache: TokenFactsCache

    /// A reader over `store`.
    public init(store: any TokenStore, cache: TokenFactsCache = TokenFactsCache()) {
        self.store = store
        self.cache = cache
    }

    /// The state of `originalTransactionId` at `at`; nil when nothing is stored for it.
    public func state(of originalTransactionId: String, at: Date = Date()) async throws(TokenStoreError) -> SubscriptionState? {
        try await states(of: [originalTransactionId], at: at)[originalTransactionId]
    }

    /// The states of several original transaction ids at `at`; ids with nothing stored are absent.
    public func states(of originalTransactionIds: [String], at: Date = Date()) async throws(TokenStoreError) -> [String: SubscriptionState] {
        guard !originalTransactionIds.isEmpty else { return [:] }
        let entries = try await store.digests(forOriginalTransactionIDs: originalTransactionIds)
        guard !entries.isEmpty else { return [:] }
        let missing = entries.map(\.digest).filter { cache.facts(forDigest: $0) == nil }
        if !missing.isEmpty {
            for token in try await store.tokens(withDigests: missing) {
                if let facts = try? TokenFacts(verifiedToken: token.token, kind: token.kind) {
                    cache.insert(facts, forDigest: token.digest)
                }
            }
        }
        return derive(entries, at: at)
    }

    /// ``states(of:at:)`` read on the calling thread (``TokenStore/digestsHere(forOriginalTransactionIDs:)``),
    /// when it can be: nil when the store cannot read there now, or when a token is not in the
    /// cache (fetching it is asynchronous); the caller then uses ``states(of:at:)``.
    public func statesHere(of originalTransactionIds: [String], at: Date = Date()) -> Result<[String: SubscriptionState], TokenStoreError>? {
        guard !originalTransactionIds.isEmpty else { return .success([:]) }
        switch store.digestsHere(forOriginalTransactionIDs: originalTransactionIds) {
        case nil:
            return nil
        case .failure(let error)?:
            return .failure(error)
        case .success(let entries)?:
            guard !entries.contains(where: { cache.facts(forDigest: $0.digest) == nil }) else { return nil }
            return .success(derive(entries, at: at))
        }
    }

    /// The states of the tokens of `entries` that are in the cache, at `at`.
    private func derive(_ entries: [TokenDigestEntry], at: Date) -> [String: SubscriptionState] {
        guard !entries.isEmpty else { return [:] }
        var byID: [String: [(key: String, facts: TokenFacts)]] = [:]
        for entry in entries {
            guard let facts = cache.facts(forDigest: entry.digest) else { continue }
            byID[entry.originalTransactionID, default: []].append((entry.digest, facts))
        }
        var states: [String: SubscriptionState] = [:]
        for (id, facts) in byID {
            if let state = SubscriptionState.derive(originalTransactionId: id, from: facts, at: at) {
                states[id] = state
            }
        }
        return states
    }
}
