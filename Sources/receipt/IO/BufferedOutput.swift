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
/// A write that fails (a full disk, a closed pipe) is remembered and everything after it dropped;
/// the command reports it at the end.
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

    /// A buffer for `descriptor` (stdout): chunks of `chunkSize` bytes, or one write per
    /// ``append(_:)`` on a terminal.
    init(chunkSize: Int = 256 * 1024, interactive: Bool = StandardOutput.isTerminal, descriptor: Int32 = 1) {
        self.chunkSize = interactive ? 0 : chunkSize
        self.descriptor = descriptor
        bytes.reserveCapacity(self.chunkSize + 64 * 1024)
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
            failure = bytes.withUnsafeBytes { buffered in
                text.withUnsafeBytes { FileDescriptorOutput.writeAll(buffered, $0, to: descriptor) }
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes everything buffered (unless a write failed before).
    mutating func flush() {
        if !failed, !bytes.isEmpty {
            failure = FileDescriptorOutput.writeAll(bytes, to: descriptor)
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
