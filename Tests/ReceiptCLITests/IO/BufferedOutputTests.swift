import Foundation
import Testing
@testable import receipt

/// The tool's buffered standard output: every byte written once, in order, whatever the pieces;
/// a new file's large writes allocated ahead; the first failed write remembered and nothing
/// written after it.
@Suite("buffered output")
struct BufferedOutputTests {
    /// Pieces of every kind: empty, tiny, around the page size, around half a chunk (where a piece
    /// stops being copied into the buffer), larger than a chunk.
    static func pieces(seed: UInt64, chunkSize: Int) -> [[UInt8]] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let sizes = [0, 1, 4_095, 4_096, 4_097, chunkSize / 2 - 1, chunkSize / 2, chunkSize - 1, chunkSize, 3 * chunkSize + 17]
        // Each piece is cut from a different place of one pattern, so a piece lost, repeated or
        // moved changes the text.
        let pattern = (0..<(3 * chunkSize + 17 + 4_096)).map { UInt8(truncatingIfNeeded: $0 % 251) }
        var result: [[UInt8]] = []
        for index in 0..<120 {
            let size = index % 3 == 0 ? sizes[next(sizes.count)] : next(index % 2 == 0 ? 9_000 : 2 * chunkSize)
            let start = next(4_096)
            result.append(Array(pattern[start..<(start + size)]))
        }
        return result
    }

    /// Writes `pieces` through a buffer on `descriptor`, checking after each append that the
    /// buffer never holds a chunk or more, and at the end that the position it kept is where a
    /// regular file ends. Returns the buffer.
    @discardableResult
    static func write(_ pieces: [[UInt8]], to descriptor: Int32, chunkSize: Int) -> BufferedOutput {
        var output = BufferedOutput(chunkSize: chunkSize, interactive: false, descriptor: descriptor)
        for piece in pieces {
            output.append(piece)
            #expect(output.bytes.count < chunkSize)
        }
        output.flush()
        #expect(output.bytes.isEmpty)
        #expect(!output.failed)
        #expect(output.preallocation.allocatedBytes <= pieces.reduce(0) { $0 + $1.count })
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            #expect(output.filePosition == Int64(status.st_size))
        } else {
            #expect(output.filePosition == nil)
        }
        return output
    }

    @Test("a new file: the same bytes in the same order, through chunks of 256 KB, 16 KB and 5,000 bytes")
    func newFile() throws {
        for (seed, chunkSize) in [(1, 256 * 1024), (2, 16 * 1024), (3, 5_000)] as [(UInt64, Int)] {
            let pieces = Self.pieces(seed: seed, chunkSize: chunkSize)
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("buffered-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: url) }
            let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            try #require(descriptor >= 0)
            let output = Self.write(pieces, to: descriptor, chunkSize: chunkSize)
            close(descriptor)
            #expect(try Data(contentsOf: url) == Data(pieces.joined()), "chunk size \(chunkSize)")
            if chunkSize >= 2 * FilePreallocation.minimumLength {
                // Chunks of 256 KB are written whole: their blocks are allocated first, unless the
                // file system refused (which turns preallocation off).
                #expect(output.preallocation.allocatedBytes > 0 || !output.preallocation.isEnabled)
            }
        }
    }

    @Test("a file open for appending keeps what it held, then the same bytes in the same order")
    func appendedFile() throws {
        let prefix = Data(repeating: 0x2A, count: 1_234)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("buffered-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        try prefix.write(to: url)
        let descriptor = open(url.path, O_WRONLY | O_APPEND)
        try #require(descriptor >= 0)
        let pieces = Self.pieces(seed: 5, chunkSize: 16 * 1024)
        let output = Self.write(pieces, to: descriptor, chunkSize: 16 * 1024)
        close(descriptor)
        #expect(try Data(contentsOf: url) == prefix + Data(pieces.joined()))
        // A file open for appending is never allocated ahead: its end may move under others.
        #expect(!output.preallocation.isEnabled && output.preallocation.allocatedBytes == 0)
    }

    @Test("a refused write returns its own errno: ENOSPC from /dev/full, EBADF from a closed descriptor; nil when all is written")
    func refusedWriteReturnsItsErrno() throws {
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0)
        defer { close(full) }
        let text = [UInt8](repeating: 0x61, count: 70_000)
        #expect(FileDescriptorOutput.writeAll(text, to: full) == ENOSPC)
        let null = open("/dev/null", O_WRONLY)
        try #require(null >= 0)
        #expect(FileDescriptorOutput.writeAll(text, to: null) == nil)
        close(null)
        #expect(FileDescriptorOutput.writeAll(text, to: null) == EBADF)
        // The buffer keeps the first failure's errno, whatever follows.
        var output = BufferedOutput(descriptor: full)
        output.append(text)
        output.flush()
        #expect(output.failure == ENOSPC)
    }

    /// What the pipe's reader thread received, once it has seen the end of the pipe.
    final class PipeReader: @unchecked Sendable {
        private let condition = NSCondition()
        private var data: Data?

        /// Starts a thread that reads `handle` to its end.
        init(_ handle: FileHandle) {
            Thread(block: { [self] in
                let read = handle.readDataToEndOfFile()
                condition.withLock {
                    data = read
                    condition.broadcast()
                }
            }).start()
        }

        /// Everything read, after the writer has closed its end (nil if that takes over 60 s).
        func received() -> Data? {
            condition.withLock {
                let deadline = Date(timeIntervalSinceNow: 60)
                while data == nil, condition.wait(until: deadline) {}
                return data
            }
        }
    }

    // The reader is a thread, not a task: as a task it waited in the cooperative pool's queue
    // behind every other test while this test's writes blocked on the full pipe, holding one of
    // the pool's threads until the queue drained (on two cores, the whole test run on one thread:
    // the AddressSanitizer run used 1.03 cores).
    @Test("a pipe: the same bytes in the same order")
    func pipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(Glibc.pipe(&ends) == 0)
        let pieces = Self.pieces(seed: 6, chunkSize: 16 * 1024)
        let reader = PipeReader(FileHandle(fileDescriptor: ends[0], closeOnDealloc: true))
        let output = Self.write(pieces, to: ends[1], chunkSize: 16 * 1024)
        #expect(!output.preallocation.isEnabled)
        close(ends[1])
        #expect(reader.received() == Data(pieces.joined()))
    }

    @Test("a closed pipe: the write fails once, nothing more is written, nothing is kept")
    func closedPipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(Glibc.pipe(&ends) == 0)
        close(ends[0])
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        var output = BufferedOutput(chunkSize: 4_096, interactive: false, descriptor: ends[1])
        output.append([UInt8](repeating: 1, count: 10_000))
        #expect(output.failed)
        output.append([UInt8](repeating: 2, count: 100))
        output.append([UInt8](repeating: 3, count: 10_000))
        output.flush()
        #expect(output.bytes.isEmpty)
        close(ends[1])
    }

    @Test("allocating a write's blocks ahead changes neither the file's size nor what it reads")
    func preallocation() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("preallocated-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let text = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 % 253) }
        var preallocation = FilePreallocation(enabled: true)
        // Under the minimum nothing is asked of the file system.
        preallocation.allocate(FilePreallocation.minimumLength - 1, at: 0, descriptor: descriptor)
        #expect(preallocation.allocatedBytes == 0 && preallocation.isEnabled)
        preallocation.allocate(text.count, at: 0, descriptor: descriptor)
        var status = stat()
        try #require(fstat(descriptor, &status) == 0)
        #expect(status.st_size == 0, "the size stays until the write lands")
        if preallocation.isEnabled {
            #expect(preallocation.allocatedBytes == text.count)
            #expect(Int(status.st_blocks) * 512 >= text.count, "\(status.st_blocks) blocks of 512 bytes")
        }
        #expect(FileDescriptorOutput.writeAll(text, to: descriptor) == nil)
        try #require(fstat(descriptor, &status) == 0)
        #expect(status.st_size == off_t(text.count))
        #expect(try Data(contentsOf: url) == Data(text))
        // A descriptor the system refuses turns preallocation off for good.
        var refused = FilePreallocation(enabled: true)
        refused.allocate(text.count, at: 0, descriptor: -1)
        #expect(!refused.isEnabled && refused.allocatedBytes == 0)
        refused.allocate(text.count, at: Int64(text.count), descriptor: descriptor)
        #expect(refused.allocatedBytes == 0)
    }
}
