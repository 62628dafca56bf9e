#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptCore
import ReceiptKit

/// The printed lines of the certificate chains already described, so that a batch of receipts
/// signed by the same chain decodes its certificates once, not once a receipt.
///
/// Chains are compared with `==`, which is one pointer comparison per certificate when the
/// validator hands back the chain its verified-chain cache holds (the same storage every time),
/// and a byte comparison otherwise. A handful of distinct chains is usual (one per signing
/// certificate generation); the cache keeps the most recently used ones.
///
/// Needed by the `Scripts/bench.sh --cli-only` line "text, iap1 sha256, one core ≥ 5× the C
/// loop" (12.3× with it): decoding each receipt's chain again made the bench's 20,000 copies in
/// text take 2.99 s instead of 0.67 s (medians of 10 alternating runs on one core), about 2.8×
/// the C loop.
struct CertificateSummaryCache {
    /// How many distinct chains are kept.
    static let capacity = 16

    private var entries: [(chain: [Certificate], lines: [String])] = []

    /// An empty cache.
    init() {}

    /// The lines describing `chain` (two a certificate: index and subject, then validity).
    mutating func lines(for chain: [Certificate]) -> [String] {
        if let index = entries.firstIndex(where: { $0.chain == chain }) {
            let entry = entries[index]
            if index != 0 {
                entries.remove(at: index)
                entries.insert(entry, at: 0)
            }
            return entry.lines
        }
        var lines: [String] = []
        for (index, certificate) in chain.enumerated() {
            let summary = CertificateSummary(certificate)
            lines.append("    \(index)  \(summary.subject)")
            lines.append("       valid \(summary.validity)")
        }
        entries.insert((chain, lines), at: 0)
        if entries.count > Self.capacity { entries.removeLast() }
        return lines
    }
}

/// A ``CertificateSummaryCache`` shared by the worker threads that format outcomes.
final class SharedCertificateSummaries: Sendable {
    private let cache = ShardLock(CertificateSummaryCache())

    /// An empty cache.
    init() {}

    /// The lines describing `chain` (see ``CertificateSummaryCache/lines(for:)``).
    func lines(for chain: [Certificate]) -> [String] {
        cache.withLock { $0.lines(for: chain) }
    }
}
