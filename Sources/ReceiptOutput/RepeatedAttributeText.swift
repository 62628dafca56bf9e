import ReceiptCore

/// The raw attribute list ``JSONByteWriter`` wrote last and its text, so that an equal list
/// written next at the same depth gets a copy of that text (the renewals of a subscription carry
/// the same undocumented attributes, and the parser lets such purchases share one list).
///
/// The text is kept in memory this cache owns rather than in an array: repeating it is a copy from
/// a pointer, with no retain and release of an array (atomic operations) for each purchase. Held
/// in an optional tuple of arrays, reading it back cost a copy of the tuple (two retains, two
/// releases) for each of the 37,200 repeated lists of the 200 copies of the real 187-purchase
/// receipt in `Scripts/bench.sh --cli-only` (148,800 atomic operations, 3.5 million
/// instructions; callgrind, static release build).
struct RepeatedAttributeText: ~Copyable {
    /// The list written last (none while `depth` is -1) and the nesting depth it was written at.
    private var list: [ReceiptAttribute] = []
    private var depth = -1
    /// Its text: `count` bytes at `bytes`, which has room for `capacity`.
    private var bytes: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    private var count = 0

    /// A cache that remembers no list.
    init() {}

    deinit {
        bytes?.deallocate()
    }

    /// The text of `list` written at `depth`, when it is the list remembered (`==` is one
    /// pointer comparison for a shared list); nil for any other. The text stays valid until the
    /// next ``remember(_:at:text:)``.
    func text(of list: [ReceiptAttribute], at depth: Int) -> UnsafeBufferPointer<UInt8>? {
        guard depth == self.depth, list == self.list else { return nil }
        return UnsafeBufferPointer(start: bytes, count: count)
    }

    /// Remembers `text` as the text of `list` written at `depth`.
    mutating func remember(_ list: [ReceiptAttribute], at depth: Int, text: [UInt8]) {
        if text.count > capacity {
            bytes?.deallocate()
            capacity = max(text.count, 2 * capacity)
            bytes = .allocate(capacity: capacity)
        }
        if let bytes {
            text.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { bytes.update(from: base, count: source.count) }
            }
        }
        count = text.count
        self.list = list
        self.depth = depth
    }
}
