import Foundation

/// The facts of tokens already read, by token digest (SHA-256 of the text): a stored token never
/// changes, so what its payload says never does, and a subscription's state can be derived again
/// on every read without fetching and decoding the same token each time. Bounded: when full, it
/// starts again empty.
public final class TokenFactsCache: @unchecked Sendable {
    private let lock = NSLock()
    private var facts: [String: TokenFacts] = [:]
    /// The most tokens kept.
    public let capacity: Int

    /// An empty cache of at most `capacity` tokens (at least one: a smaller capacity keeps one).
    public init(capacity: Int = 50_000) {
        self.capacity = max(1, capacity)
    }

    /// The facts of the token with this digest, when read before.
    public func facts(forDigest digest: String) -> TokenFacts? {
        lock.withLock { facts[digest] }
    }

    /// Keeps the facts of the token with this digest.
    public func insert(_ read: TokenFacts, forDigest digest: String) {
        lock.withLock {
            if facts.count >= capacity { facts.removeAll(keepingCapacity: true) }
            facts[digest] = read
        }
    }

    /// How many tokens it holds.
    public var count: Int { lock.withLock { facts.count } }
}
