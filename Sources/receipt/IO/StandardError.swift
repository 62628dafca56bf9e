#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to the standard error stream, unbuffered.
enum StandardError {
    /// Writes `text` to stderr.
    static func write(_ text: String) {
        FileDescriptorOutput.writeAll(Array(text.utf8), to: 2)
    }

    /// Whether stderr is a terminal (the progress bar is drawn only then).
    static var isTerminal: Bool { isatty(2) == 1 }
}

/// Writes to the standard output stream, unbuffered (the batch output of `verify` goes through
/// ``BufferedOutput`` instead).
enum StandardOutput {
    /// Writes `text` to stdout as it is (no newline added).
    /// - Throws: ``CommandFailure`` (exit status 3) when standard output refuses it: a full disk, a
    ///   closed pipe. (`print` would leave it in the C library's buffer, which drops what it cannot
    ///   write and lets the command end with status 0.)
    static func write(_ text: String) throws(CommandFailure) {
        if let failure = FileDescriptorOutput.writeAll(Array(text.utf8), to: 1) {
            throw CommandFailure.outputNotWritten(errno: failure)
        }
    }

    /// Writes `text` and a line break to stdout; throws as ``write(_:)``.
    static func writeLine(_ text: String) throws(CommandFailure) {
        try write(text + "\n")
    }

    /// Whether stdout is a terminal.
    static var isTerminal: Bool { isatty(1) == 1 }
}

/// Raw `write(2)` and `writev(2)` to a file descriptor.
enum FileDescriptorOutput {
    /// Writes every byte of `parts`, in order, to `descriptor` with one `writev(2)` (more after a
    /// signal or a short write), so that the kernel copies them as one run.
    /// - Returns: nil when every byte was written, else the `errno` of the write that failed (a
    ///   closed pipe, a full disk), taken at once, before anything else can change it.
    @discardableResult
    static func writeAll(_ parts: UnsafeRawBufferPointer..., to descriptor: Int32) -> Int32? {
        var parts = parts.filter { !$0.isEmpty }
        while !parts.isEmpty {
            var vectors = parts.map { iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count) }
            let written = writev(descriptor, &vectors, Int32(vectors.count))
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                return code
            }
            // No byte taken of a non-empty write: a device that would loop for ever. Said as I/O.
            if written == 0 { return EIO }
            // Drop what was written: whole parts first, then the start of the next one.
            var rest = written
            while let part = parts.first, rest >= part.count {
                rest -= part.count
                parts.removeFirst()
            }
            if rest > 0, let part = parts.first {
                parts[0] = UnsafeRawBufferPointer(rebasing: part[rest...])
            }
        }
        return nil
    }

    /// Writes every byte of `bytes` to `descriptor`, retrying after a signal or a short write.
    /// - Returns: nil, or the `errno` of the write that failed, as the variadic `writeAll` does.
    @discardableResult
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }
}
