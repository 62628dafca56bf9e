#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output gathered in a byte buffer and written with `write(2)` in large chunks.
///
/// A batch of thousands of receipts then costs a few hundred system calls instead of one (or
/// several, through `print`) per receipt. Interactive output (stdout a terminal) is written at
/// every ``append(_:)`` so that each verdict appears when it is known.
///
/// When the output is a regular file, each write but the last ends on a page boundary of the
/// file: the bytes past the last boundary (under a page) stay in the buffer for the next write.
/// The kernel then fills every page of the file in one copy instead of two: writing 27 MB to a
/// new file in 405 KB pieces that end anywhere took 6.0 ms (best of 15), in pieces that end on
/// a page boundary 5.0 ms. Where the writes are cut never changes what is written, nor its order.
/// The blocks of each large write to a regular file are allocated just before it
/// (``FilePreallocation``).
struct BufferedOutput {
    /// What is waiting to be written.
    var bytes: [UInt8] = []
    /// How many bytes to gather before writing.
    let chunkSize: Int
    /// The `errno` of the first write that failed (a full disk, a closed pipe); nil while every
    /// write succeeded. Everything after it is dropped, and the command reports it at the end.
    private(set) var failure: Int32?
    /// Whether a write failed.
    var failed: Bool { failure != nil }
    /// The descriptor written to.
    let descriptor: Int32
    /// Where the next write lands in the file, when the output is a regular file (nil for a pipe, a
    /// terminal or a device: nothing is held back or allocated then).
    private(set) var filePosition: Int64?
    /// Where the next write lands within its page of the file (nil unless a regular file).
    var pageOffset: Int? { filePosition.map { Int($0 % Int64(Self.pageSize)) } }
    /// The page size the writes are cut to.
    static let pageSize = 4096
    /// The blocks of each large write, allocated before it when the output is a regular file.
    private(set) var preallocation = FilePreallocation(enabled: false)

    /// A buffer for `descriptor` (stdout): chunks of `chunkSize` bytes, or one write per
    /// ``append(_:)`` on a terminal.
    init(chunkSize: Int = 256 * 1024, interactive: Bool = StandardOutput.isTerminal, descriptor: Int32 = 1) {
        self.chunkSize = interactive ? 0 : chunkSize
        self.descriptor = descriptor
        bytes.reserveCapacity(self.chunkSize + 64 * 1024)
        if !interactive, let file = Self.writePosition(of: descriptor) {
            filePosition = file.position
            preallocation = FilePreallocation(enabled: !file.appending)
        }
    }

    /// Whether output goes to a terminal (every ``append(_:)`` is written at once).
    var isInteractive: Bool { chunkSize == 0 }

    /// Whether ``append(_:)`` of `count` bytes writes to stdout (rather than only buffering).
    func writes(appending count: Int) -> Bool {
        bytes.count + count >= chunkSize
    }

    /// Appends `text`, writing once a chunk is full (up to the last page boundary of the file).
    /// A text of half a chunk or more is written as it is, in one `writev(2)` after what is
    /// buffered, instead of being copied into the buffer first.
    mutating func append(_ text: [UInt8]) {
        guard writes(appending: text.count) else {
            bytes.append(contentsOf: text)
            return
        }
        let total = bytes.count + text.count
        let sent = total - heldBack(writing: total)
        if text.count >= chunkSize / 2, sent >= bytes.count {
            let fromText = sent - bytes.count
            if !failed {
                let descriptor = descriptor
                allocateAhead(sent)
                let failure = bytes.withUnsafeBytes { buffered in
                    text.withUnsafeBytes { whole in
                        FileDescriptorOutput.writeAll(buffered, UnsafeRawBufferPointer(rebasing: whole[..<fromText]), to: descriptor)
                    }
                }
                record(failure, count: sent)
            }
            bytes.removeAll(keepingCapacity: true)
            bytes.append(contentsOf: text[fromText...])
        } else {
            bytes.append(contentsOf: text)
            write(first: sent)
            bytes.removeFirst(sent)
        }
    }

    /// Writes everything buffered.
    mutating func flush() {
        write(first: bytes.count)
        bytes.removeAll(keepingCapacity: true)
    }

    /// How many of the last bytes of a write of `total` to hold back so that it ends on a page
    /// boundary of the file (none when the output is not a regular file; at most `total`).
    private func heldBack(writing total: Int) -> Int {
        guard let pageOffset else { return 0 }
        return min(total, (pageOffset + total) % Self.pageSize)
    }

    /// Writes the first `count` buffered bytes (unless a write failed before); they stay buffered.
    private mutating func write(first count: Int) {
        guard !failed, count > 0 else { return }
        let descriptor = descriptor
        allocateAhead(count)
        let failure = bytes.withUnsafeBytes { buffered in
            FileDescriptorOutput.writeAll(UnsafeRawBufferPointer(rebasing: buffered[..<count]), to: descriptor)
        }
        record(failure, count: count)
    }

    /// Notes a write of `count` bytes, made just before: why it failed (the `errno` it returned),
    /// nil when it did not, and where the next one lands.
    private mutating func record(_ writeFailure: Int32?, count: Int) {
        if let writeFailure, failure == nil { failure = writeFailure }
        if let position = filePosition { filePosition = position + Int64(count) }
    }

    /// Allocates the file's blocks for a write of `count` bytes about to be made
    /// (``FilePreallocation``).
    private mutating func allocateAhead(_ count: Int) {
        if let position = filePosition { preallocation.allocate(count, at: position, descriptor: descriptor) }
    }

    /// Where a write to `descriptor` lands, when it is a regular file: the end of the file when it
    /// is open for appending, else its current position.
    private static func writePosition(of descriptor: Int32) -> (position: Int64, appending: Bool)? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let flags = fcntl(descriptor, F_GETFL)
        let appending = flags >= 0 && flags & O_APPEND != 0
        let position = appending ? Int64(status.st_size) : Int64(lseek(descriptor, 0, SEEK_CUR))
        guard position >= 0 else { return nil }
        return (position, appending)
    }
}
