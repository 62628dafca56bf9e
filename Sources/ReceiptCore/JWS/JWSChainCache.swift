/// The verified-chain cache for JWS: `x5c` chains a validator verified in full (names,
/// signatures up to an anchor, Apple's markers), keyed by the exact bytes of the token's header
/// segment, which holds the `x5c`.
///
/// Every token of an app carries the same header, so a warm token costs its payload's decode,
/// one SHA-256 and one ECDSA P-256 verification. A token uses an entry only when its header
/// segment is byte-identical (so the header decodes, and the chain verifies, exactly as it did);
/// the time rule still runs on each token (inside the chain's validity window it passes; outside,
/// the reference path decides). The same bytes therefore get the same verdict whatever the cache
/// holds. Bounded (least recently used evicted); the comparisons run under one small lock.
final class JWSChainCache: Sendable {
    /// One verified chain and the header it came with.
    final class Entry: Sendable {
        let headerSegment: [UInt8]
        let header: JWSHeader
        let chain: JWSChain

        init(headerSegment: [UInt8], header: JWSHeader, chain: JWSChain) {
            self.headerSegment = headerSegment
            self.header = header
            self.chain = chain
        }
    }

    let capacity: Int
    private let entries = ShardLock<[Entry]>([])

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The entry for exactly these header-segment bytes, made most recent; `nil` when none.
    func entry(for headerSegment: ArraySlice<UInt8>) -> Entry? {
        entries.withLock { list in
            guard let index = list.firstIndex(where: { $0.headerSegment.elementsEqual(headerSegment) }) else { return nil }
            let entry = list[index]
            if index != 0 {
                list.remove(at: index)
                list.insert(entry, at: 0)
            }
            return entry
        }
    }

    /// Keeps `entry` (a chain that verified, with no marker error), evicting the least recently used.
    func insert(_ entry: Entry) {
        entries.withLock { list in
            list.removeAll { $0.headerSegment == entry.headerSegment }
            list.insert(entry, at: 0)
            if list.count > capacity { list.removeLast(list.count - capacity) }
        }
    }

    /// Drops every entry.
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// The number of chains held.
    var count: Int { entries.withLock { $0.count } }
}
