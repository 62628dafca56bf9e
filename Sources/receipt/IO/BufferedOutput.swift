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
/// every ``append(_:)`` so that each verdict appears when it is known. A text of half a chunk or
/// more (the formatted outcomes of a few 187-purchase receipts: 135 KB each) is written where it
/// lies, after what is buffered, in one `writev(2)`, instead of being copied into the buffer.
/// When the output is a regular file, the blocks of each large write are allocated just before
/// it (``FilePreallocation``). A write that fails (a full disk, a closed pipe) is remembered and
/// everything after it dropped; the command reports it at the end.
struct BufferedOutput {
    /// What is waiting to be written.
    var bytes: [UInt8] = []
    /// How many bytes to gather before writing.
    let chunkSize: Int
    /// The `errno` of the first write that failed; nil while every write succeeded.
    private(set) var failure: Int32?
    /// Whether a write failed.
    var failed: Bool { failure != nil }
    /// The descriptor written to.
    let descriptor: Int32
    /// Where the next write lands in the file, when the output is a regular file (nil for a pipe,
    /// a terminal or a device: nothing is allocated ahead then).
    private(set) var filePosition: Int64?
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

    /// Appends `text`, writing everything buffered once a chunk is full.
    mutating func append(_ text: [UInt8]) {
        guard writes(appending: text.count) else {
            bytes.append(contentsOf: text)
            return
        }
        guard text.count >= chunkSize / 2 else {
            bytes.append(contentsOf: text)
            flush()
            return
        }
        if !failed {
            let descriptor = descriptor
            allocateAhead(bytes.count + text.count)
            let failure = bytes.withUnsafeBytes { buffered in
                text.withUnsafeBytes { FileDescriptorOutput.writeAll(buffered, $0, to: descriptor) }
            }
            record(failure, count: bytes.count + text.count)
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes everything buffered (unless a write failed before).
    mutating func flush() {
        if !failed, !bytes.isEmpty {
            allocateAhead(bytes.count)
            record(FileDescriptorOutput.writeAll(bytes, to: descriptor), count: bytes.count)
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Notes a write of `count` bytes, made just before: why it failed (the `errno` it returned),
    /// nil when it did not, and where the next one lands.
    private mutating func record(_ writeFailure: Int32?, count: Int) {
        if let writeFailure, failure == nil { failure = writeFailure }
        if let position = filePosition { filePosition = position + Int64(count) }
    }

    /// Allocates the file's blocks for a write of `count` bytes about to be made.
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
