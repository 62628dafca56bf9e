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

/// Writes to the standard output stream.
enum StandardOutput {
    /// Writes `text` to stdout as it is (no newline added), through the C library's buffer.
    static func write(_ text: String) {
        print(text, terminator: "")
    }

    /// Flushes buffered output, so that stdout lines and stderr lines interleave in order.
    static func flush() {
        fflush(nil)
    }

    /// Whether stdout is a terminal.
    static var isTerminal: Bool { isatty(1) == 1 }
}

/// Raw `write(2)` to a file descriptor.
enum FileDescriptorOutput {
    /// Writes every byte of `bytes` to `descriptor`, retrying after a signal or a short write.
    /// Returns false when the descriptor refuses them (a closed pipe, a full disk).
    @discardableResult
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
