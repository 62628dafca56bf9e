import Foundation

/// How many rounds a test's long loop of generated inputs runs.
///
/// The full count everywhere, except where `RECEIPTKIT_TEST_ITERATION_DIVISOR` is set to a whole
/// number above 1: `Scripts/sanitizers.sh` sets it for the AddressSanitizer run, where every loop
/// costs several times its plain-build time. Each scaled loop then runs `full / divisor` rounds
/// (rounded up, and never fewer than 1), so every test still runs and checks every kind of input
/// it generates; the plain test runs of `Scripts/test.sh` keep every round.
/// Only loops over *generated* inputs take this count; sweeps over every fixture, length or
/// position do not, since a skipped length is a skipped case rather than fewer random samples.
public enum TestIterations {
    /// The divisor read from `RECEIPTKIT_TEST_ITERATION_DIVISOR`: 1 when it is unset, not a
    /// number, or below 1.
    public static let divisor: Int = {
        guard let text = ProcessInfo.processInfo.environment["RECEIPTKIT_TEST_ITERATION_DIVISOR"],
              let value = Int(text), value > 1
        else { return 1 }
        return value
    }()

    /// `full` rounds, or `full / divisor` rounded up (at least 1) under a divisor.
    public static func count(_ full: Int) -> Int {
        guard full > 0 else { return full }
        return max(1, (full + divisor - 1) / divisor)
    }

    /// A minimum that a loop of `full` rounds must reach (`atLeast` of them), scaled with the loop:
    /// `atLeast × count(full) / full`, rounded down.
    public static func scaled(_ atLeast: Int, of full: Int) -> Int {
        guard full > 0 else { return atLeast }
        return atLeast * count(full) / full
    }
}
