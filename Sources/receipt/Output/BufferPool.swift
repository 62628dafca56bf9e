import ReceiptCore

/// A byte buffer lent by a ``BufferPool``.
///
/// A reference, so that the array inside stays uniquely referenced while the buffer travels from
/// the worker that formats into it to the one that emits it and back: an array handed back by
/// value is still referenced by the caller's copy when it arrives, and emptying a shared array
/// (`removeAll(keepingCapacity: true)`) allocates new storage of the same capacity instead of
/// keeping the old one. That is what the pool did until 2026-11-29: every chunk's text went to
/// fresh storage, and a 2.2 MB chunk (16 copies of the real 187-purchase receipt) came from a
/// fresh `mmap` whose pages faulted in as the formatter wrote them, 21 page faults a receipt.
final class PooledBytes: @unchecked Sendable {
    // @unchecked: a buffer is used by one thread at a time; it passes from the worker that
    // formats into it to the one that emits it under ``ChunkSchedule``'s lock, and back to the
    // pool under the pool's.
    /// The bytes; read them in place (pass `bytes` to a call, never keep a copy past it), so that
    /// the array is uniquely referenced again when the buffer is given back.
    var bytes: [UInt8] = []
}

/// Byte buffers handed from the collecting task to the workers and back, so that formatting an
/// outcome reuses the capacity an earlier one grew instead of allocating (and, for the large
/// text of a receipt with many purchases, faulting in fresh pages) every time. At most as many
/// buffers exist as inputs are in flight.
///
/// Needed by the `Scripts/bench.sh --cli-only` lines on the real 187-purchase receipt: without
/// it the bench's 200 copies took 80.45 ms instead of 62.21 ms (medians of 30 alternating runs on
/// one core, static release build): 29 % more. Its buffers are references (``PooledBytes``) so
/// that a buffer given back keeps its storage: 2,000 copies of that receipt in `--ndjson` on one
/// core took 42,000–54,000 page faults when arrays were given back by value, 3,700–4,200 since,
/// and about 20 % less CPU (Benchmarks/RESULTS.md, session 32).
final class BufferPool: Sendable {
    private let free = ShardLock<[PooledBytes]>([])

    /// An empty pool.
    init() {}

    /// An empty buffer: one given back earlier, with the capacity it grew, when there is one.
    func take() -> PooledBytes {
        free.withLock { $0.popLast() } ?? PooledBytes()
    }

    /// Gives `buffer` back for reuse, emptied with its capacity kept. Its holder keeps no copy of
    /// its bytes (see ``PooledBytes/bytes``).
    func giveBack(_ buffer: PooledBytes) {
        buffer.bytes.removeAll(keepingCapacity: true)
        free.withLock { $0.append(buffer) }
    }
}
