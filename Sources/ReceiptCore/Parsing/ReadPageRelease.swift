#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Gives the memory pages of a payload the strict lane has read past back to the system while it
/// parses, for an input the validator read itself (a file) and reads nothing more of once the
/// payload is parsed: the parsed receipt and the whole input are then never resident at once (a
/// 5000-purchase receipt: 1.26 MB of input, 0.67 MB of purchases built while it is read).
///
/// Every ``step`` bytes the whole pages lying inside the payload and before the attribute about to
/// be read are released (`MADV_DONTNEED`: Linux reads them again as zeros). The lane reads nothing
/// before that attribute afterwards: the SET's shape was checked whole before the walk, and the
/// memos that compare a value with earlier ranges are emptied at each release. Elsewhere than
/// Linux nothing is released.
struct ReadPageRelease {
    /// Bytes read between two releases.
    static let step = 32 * 1024

    /// The page size (4 KiB when the system does not tell).
    private static let pageSize: Int = {
        #if os(Linux)
        let size = Int(sysconf(Int32(_SC_PAGESIZE)))
        return size > 0 && size & (size - 1) == 0 ? size : 4096
        #else
        return 4096
        #endif
    }()

    /// The offset from which pages are not released yet.
    private var start: Int
    /// The offset at which the next release is due.
    private(set) var next: Int

    /// Starts before the payload at `payloadStart` (the page it starts in is never released).
    init(payloadStart: Int) {
        start = payloadStart
        next = payloadStart &+ Self.step
    }

    /// Releases the whole pages of `buffer` between the last release and `position` (both inside
    /// the payload); `true` when any were released, after which nothing of `buffer` before
    /// `position` may be read.
    mutating func release(before position: Int, of buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        next = position &+ Self.step
        #if os(Linux)
        guard let base = buffer.baseAddress, start >= 0, position > start, position <= buffer.count else { return false }
        let mask = UInt(Self.pageSize - 1)
        let low = (UInt(bitPattern: base + start) &+ mask) & ~mask
        let high = UInt(bitPattern: base + position) & ~mask
        guard high > low, let address = UnsafeMutableRawPointer(bitPattern: low) else { return false }
        guard madvise(address, Int(high &- low), MADV_DONTNEED) == 0 else { return false }
        start = Int(bitPattern: high &- UInt(bitPattern: base))
        return true
        #else
        return false
        #endif
    }
}
