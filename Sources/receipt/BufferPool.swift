import Foundation

/// Byte buffers handed from the collecting task to the workers and back, so that formatting an
/// outcome reuses the capacity an earlier one grew instead of allocating (and, for the large
/// text of a receipt with many purchases, faulting in fresh pages) every time. At most as many
/// buffers exist as inputs are in flight.
final class BufferPool: @unchecked Sendable {
    // @unchecked: `free` is only touched under `lock`.
    private let lock = NSLock()
    private var free: [[UInt8]] = []

    /// An empty pool.
    init() {}

    /// An empty buffer, with the capacity of one given back earlier when there is one.
    func take() -> [UInt8] {
        lock.withLock { free.popLast() } ?? []
    }

    /// Gives `buffer` back for reuse (emptied, capacity kept).
    func giveBack(_ buffer: consuming [UInt8]) {
        var buffer = buffer
        buffer.removeAll(keepingCapacity: true)
        lock.withLock { free.append(buffer) }
    }
}
