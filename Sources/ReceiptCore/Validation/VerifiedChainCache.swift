#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Counters of a validator's verified-chain cache.
public struct VerifiedChainCacheStatistics: Hashable, Sendable {
    /// Receipts whose envelope matched a cached chain (the fast path was tried).
    public var hits: Int
    /// Of those, receipts the fast path handed back to the full path (time outside the cached
    /// window, payload not parseable, signature or attributes not verifying, …).
    public var fallbacks: Int
    /// Chains added after a successful full verification.
    public var fills: Int
    /// Chains currently held.
    public var count: Int

    /// Receipts the fast path accepted.
    public var accepted: Int { hits - fallbacks }

    /// Creates counters (zero by default).
    public init(hits: Int = 0, fallbacks: Int = 0, fills: Int = 0, count: Int = 0) {
        self.hits = hits
        self.fallbacks = fallbacks
        self.fills = fills
        self.count = count
    }
}

/// The verified-chain cache of one ``ReceiptValidator``: certificate chains it already verified in
/// full, each with the intersection of its certificates' validity periods and the leaf's public key
/// imported once.
///
/// An entry is the "template" of a receipt the full path accepted: the exact bytes of the
/// SignedData version and digest algorithms, of every embedded certificate, of the SignerInfo's
/// version, sid and digest algorithm, of its signature algorithm, and the kinds of its signed
/// attributes; plus the trust store (the anchor set) it verified against. A later receipt takes the
/// fast path only when all of these are byte-identical, so it differs from an accepted receipt only
/// in its content, its signature and the values of its messageDigest / signingTime attributes.
///
/// Bounded (``capacity`` entries, least recently used evicted) and sharded: a lookup holds one of
/// eight small locks for a scan of at most a few entries; the byte comparisons, digests and RSA
/// verification run outside any lock.
final class VerifiedChainCache: Sendable {
    /// One verified chain.
    final class Entry: Sendable {
        let trustStore: any TrustStore
        let fingerprint: Int
        let head: [UInt8]
        let certificates: [UInt8]
        let signerHead: [UInt8]
        let signatureAlgorithm: [UInt8]
        /// `nil` when the signer had no signed attributes.
        let attributes: [SignedAttributeRule]?
        let digestAlgorithm: DigestAlgorithm
        /// The chain the full path verified and the policy accepted, leaf first.
        let chain: [Certificate]
        /// The intersection of the chain's validity periods: the verification time must lie in it.
        let window: ValidityPeriod
        let key: any SignatureVerificationKey

        init(
            trustStore: any TrustStore, fingerprint: Int, head: [UInt8], certificates: [UInt8], signerHead: [UInt8],
            signatureAlgorithm: [UInt8], attributes: [SignedAttributeRule]?, digestAlgorithm: DigestAlgorithm,
            chain: [Certificate], window: ValidityPeriod, key: any SignatureVerificationKey
        ) {
            self.trustStore = trustStore
            self.fingerprint = fingerprint
            self.head = head
            self.certificates = certificates
            self.signerHead = signerHead
            self.signatureAlgorithm = signatureAlgorithm
            self.attributes = attributes
            self.digestAlgorithm = digestAlgorithm
            self.chain = chain
            self.window = window
            self.key = key
        }

        /// Whether the verification time lies inside every chain certificate's validity period,
        /// by the rule the backends apply (``ValidityPeriod``).
        func covers(_ time: Date) -> Bool {
            guard let second = ValidityPeriod.second(of: time) else { return false }
            return window.contains(second: second)
        }
    }

    /// What one signed attribute of the template may be.
    struct SignedAttributeRule: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            /// contentType: its value must be id-data.
            case contentType
            /// messageDigest: an OCTET STRING equal to the content's digest.
            case messageDigest
            /// signingTime: a UTCTime or GeneralizedTime of digits, `Z`, `.`, `+`, `-`.
            case signingTime
            /// Anything else: the value must be byte-identical to the accepted receipt's.
            case fixed([UInt8])
        }

        /// The attribute type's OID TLV.
        var type: [UInt8]
        var kind: Kind
    }

    private struct Shard {
        var entries: [Entry] = []
        var lastUse: [UInt64] = []
        var clock: UInt64 = 0
        var hits = 0
        var fallbacks = 0
        var fills = 0
    }

    private static let shardCount = 8
    private let shards: [ShardLock<Shard>]
    private let perShard: Int
    /// The entries held over all shards, changed with the shard's lock held (always taken after
    /// it, never before): ``isEmpty`` asks it alone, one lock for the question every validation
    /// asks, rather than each shard's in turn (seven locks a receipt when the one entry sat in
    /// the seventh shard, each on a cache line every validating thread writes).
    private let occupancy = ShardLock(0)

    /// The most entries held.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        self.perShard = max(1, (self.capacity + Self.shardCount - 1) / Self.shardCount)
        self.shards = (0..<Self.shardCount).map { _ in ShardLock(Shard()) }
    }

    /// The lookup fingerprint of a receipt: its SignerInfo head (version, sid, digest algorithm),
    /// the size of its certificates and the trust store. Entries are compared byte for byte after.
    static func fingerprint(_ der: UnsafeBufferPointer<UInt8>, _ envelope: SignedDataEnvelope, _ store: any TrustStore) -> Int {
        var hasher = Hasher()
        hasher.combine(ObjectIdentifier(store))
        hasher.combine(envelope.certificates.count)
        hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: der[envelope.signerHead])))
        return hasher.finalize()
    }

    private func shard(for fingerprint: Int) -> ShardLock<Shard> {
        shards[Int(UInt(bitPattern: fingerprint) % UInt(Self.shardCount))]
    }

    /// The entry for a fingerprint and trust store, if any (counted as a hit).
    func entry(fingerprint: Int, store: any TrustStore) -> Entry? {
        shard(for: fingerprint).withLock { shard in
            for index in shard.entries.indices {
                let entry = shard.entries[index]
                if entry.fingerprint == fingerprint, entry.trustStore === store {
                    shard.clock &+= 1
                    shard.lastUse[index] = shard.clock
                    shard.hits += 1
                    return entry
                }
            }
            return nil
        }
    }

    /// Records that the fast path handed a hit back to the full path.
    func noteFallback(fingerprint: Int) {
        shard(for: fingerprint).withLock { $0.fallbacks += 1 }
    }

    /// Adds (or replaces) the entry for its fingerprint and store, evicting the least recently used.
    func insert(_ entry: Entry) {
        shard(for: entry.fingerprint).withLock { shard in
            shard.clock &+= 1
            shard.fills += 1
            if let index = shard.entries.firstIndex(where: { $0.fingerprint == entry.fingerprint && $0.trustStore === entry.trustStore }) {
                shard.entries[index] = entry
                shard.lastUse[index] = shard.clock
                return
            }
            if shard.entries.count >= perShard, let oldest = shard.lastUse.indices.min(by: { shard.lastUse[$0] < shard.lastUse[$1] }) {
                shard.entries.remove(at: oldest)
                shard.lastUse.remove(at: oldest)
            } else {
                occupancy.withLock { $0 += 1 }
            }
            shard.entries.append(entry)
            shard.lastUse.append(shard.clock)
        }
    }

    /// Whether no shard holds an entry: no lookup can hit, so the validator reads nothing for
    /// the fast path (an entry another thread adds meanwhile is as if it came after the lookup).
    var isEmpty: Bool {
        occupancy.withLock { $0 == 0 }
    }

    /// Forgets every entry (counters are kept).
    func removeAll() {
        for shard in shards {
            shard.withLock { state in
                let removed = state.entries.count
                occupancy.withLock { $0 -= removed }
                state.entries.removeAll()
                state.lastUse.removeAll()
            }
        }
    }

    /// The counters, summed over the shards.
    var statistics: VerifiedChainCacheStatistics {
        var total = VerifiedChainCacheStatistics(hits: 0, fallbacks: 0, fills: 0, count: 0)
        for shard in shards {
            shard.withLock { state in
                total.hits += state.hits
                total.fallbacks += state.fallbacks
                total.fills += state.fills
                total.count += state.entries.count
            }
        }
        return total
    }
}
