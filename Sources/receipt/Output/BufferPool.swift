#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptCore

/// Byte buffers handed from the collecting task to the workers and back, so that formatting an
/// outcome reuses the capacity an earlier one grew instead of allocating (and, for the large
/// text of a receipt with many purchases, faulting in fresh pages) every time. At most as many
/// buffers exist as inputs are in flight.
///
/// Needed by the `Scripts/bench.sh --cli-only` line "--ndjson, real 187iap sha1, one core ≤ 2×
/// the library's warm validation": without it the bench's 200 copies took 80.45 ms instead of
/// 62.21 ms (medians of 30 alternating runs on one core, static release build): 29 % more.
final class BufferPool: Sendable {
    private let free = ShardLock<[[UInt8]]>([])

    /// An empty pool.
    init() {}

    /// An empty buffer, with the capacity of one given back earlier when there is one.
    func take() -> [UInt8] {
        free.withLock { $0.popLast() } ?? []
    }

    /// Gives `buffer` back for reuse (emptied, capacity kept).
    func giveBack(_ buffer: consuming [UInt8]) {
        var buffer = buffer
        buffer.removeAll(keepingCapacity: true)
        free.withLock { $0.append(buffer) }
    }
}
