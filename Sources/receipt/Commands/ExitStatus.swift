import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The exit statuses of the `receipt` tool.
enum ExitStatus: Int32, Sendable {
    /// Every receipt is valid (or every conformance case passed).
    case success = 0
    /// At least one receipt is invalid (or a conformance case failed).
    case invalid = 1
    /// The command line is wrong: unknown flag, bad option value.
    case usage = 2
    /// A file could not be read (missing, unreadable), or the output could not be written.
    case unreadable = 3

    /// The status as an ArgumentParser exit code.
    var exitCode: ExitCode { ExitCode(rawValue) }
}

/// A command-line error that ends the tool with a message and an exit status (2 or 3) rather than
/// ArgumentParser's generic handling.
struct CommandFailure: Error, CustomStringConvertible {
    /// The status to exit with.
    var status: ExitStatus
    /// What went wrong, for stderr.
    var message: String

    var description: String { message }
}

extension CommandFailure {
    /// Standard output refused what the command wrote (`errno` `code` says why): exit status 3,
    /// since the output is incomplete whatever the verdicts were.
    static func outputNotWritten(errno code: Int32) -> CommandFailure {
        CommandFailure(
            status: .unreadable,
            message: "the output could not be written: \(String(cString: strerror(code))); what follows that point is missing")
    }
}
