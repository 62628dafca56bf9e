import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ReceiptKit

/// The `receipt` tool: verify, inspect and conformance-test App Store receipts locally.
@main
struct ReceiptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt",
        abstract: "Validate Apple App Store receipts locally, without Apple's verifyReceipt endpoint.",
        discussion: """
            Exit status: 0 every receipt is valid, 1 a receipt is invalid, 2 usage error,
            3 a file could not be read or the output could not be written.

            Examples:
              receipt verify app.receipt
              receipt verify --json --bundle-id com.example.app app.receipt
              receipt verify --ndjson receipts/ > results.ndjson
              base64 -w0 app.receipt | receipt verify -
              receipt dump app.receipt
              receipt entitlements --catalog products.json app.receipt
              receipt timeline --svg history.svg app.receipt
              receipt conformance --backend gnutls
            """,
        version: ReceiptKitVersion.current,
        subcommands: [VerifyCommand.self, DumpCommand.self, EntitlementsCommand.self, TimelineCommand.self, ConformanceCommand.self]
    )

    /// Parses and runs a command like `AsyncParsableCommand.main()`, but reports usage errors with
    /// exit status 2 (the convention of POSIX tools) instead of ArgumentParser's 64, and parses
    /// the arguments as ``CommandLineBytes`` hands them over (an argument that is not UTF-8 stands
    /// for its bytes); `verify` (the one asynchronous command) is run by ``runToExit(_:)``. The
    /// allocator is set up first (``MallocTuning``), and SIGPIPE ignored: a reader that closes the
    /// pipe makes a write fail with EPIPE, which the tool reports (exit status 3, a line on
    /// standard error) instead of being killed without a word (status 141 in a shell).
    static func main() async {
        MallocTuning.apply()
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot(CommandLineBytes.current.arguments)
            if let verify = command as? VerifyCommand {
                await runToExit(verify)
            }
            try command.run()
        } catch {
            exit(reporting: error)
        }
    }

    /// Runs `verify` and ends the process on the thread that ran it, exit status 0 when it
    /// returns. Returning to `main` instead would first hop back to the main actor, whose queue
    /// the runtime serves, once the process's first thread has gone to `dispatch_main`, on a
    /// thread it starts for that hop: about 0.2 ms at the end of every run (`perf`, kernel
    /// tracepoints: the `clone3` after the summary line, then `exit`).
    private nonisolated static func runToExit(_ verify: VerifyCommand) async -> Never {
        do {
            try await verify.run()
        } catch {
            exit(reporting: error)
        }
        exit(withError: nil)
    }

    /// Reports `error` on standard error and exits with its status: a ``CommandFailure``'s own,
    /// 2 for a usage error, ArgumentParser's for the rest (an `ExitCode` thrown by a command is
    /// its status, unprinted).
    private static func exit(reporting error: any Error) -> Never {
        if let failure = error as? CommandFailure {
            StandardError.write("receipt: \(failure.message)\n")
            exit(withError: failure.status.exitCode)
        }
        if exitCode(for: error) == .validationFailure {
            StandardError.write(fullMessage(for: error) + "\n")
            exit(withError: ExitStatus.usage.exitCode)
        }
        exit(withError: error)
    }
}
