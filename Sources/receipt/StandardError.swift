import Foundation

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
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Whether stderr is a terminal (the progress bar is drawn only then).
    static var isTerminal: Bool { isatty(2) == 1 }
}

/// Writes to the standard output stream.
enum StandardOutput {
    /// Writes `text` to stdout as it is (no newline added).
    static func write(_ text: String) {
        print(text, terminator: "")
    }

    /// Flushes buffered output, so that stdout lines and stderr lines interleave in order.
    static func flush() {
        fflush(nil)
    }
}
