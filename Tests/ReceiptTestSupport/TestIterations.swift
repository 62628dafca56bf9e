import Foundation

/// How many rounds a test's long loop of generated inputs runs, and which cases a costly sweep
/// checks.
///
/// The full count everywhere, except where `RECEIPTKIT_TEST_ITERATION_DIVISOR` is set to a whole
/// number above 1: `Scripts/sanitizers.sh` sets it for the AddressSanitizer run, where every loop
/// costs several times its plain-build time. Each scaled loop then runs `full / divisor` rounds
/// (rounded up, and never fewer than 1), so every test still runs and checks every kind of input
/// it generates; the plain test runs of `Scripts/test.sh` keep every round.
///
/// Loops over *generated* inputs take ``count(_:)``. A sweep over every fixture, position or
/// variant keeps every case in the plain runs; under a divisor, the few sweeps that cost most
/// under AddressSanitizer (30–108 s each, serial, in session 34's timing; most of them agreement
/// tests repeating the same validations) take ``sample(_:offset:divisor:)``: every `divisor`-th
/// case, each case at least once across the offsets the test gives. The plain runs check the
/// agreement on every case; the sanitizer run checks memory on every kind of case.
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

    /// `items` in the plain runs; under a divisor, every `divisor`-th of them from index
    /// `offset % divisor` (a test whose parameterised cases each sweep the same items gives each
    /// case its own offset, so that together they still reach every item).
    /// `divisor` is the environment's (``divisor``) unless a test of this function gives one.
    public static func sample<Element>(_ items: [Element], offset: Int = 0, divisor: Int = divisor) -> [Element] {
        guard divisor > 1 else { return items }
        let start = ((offset % divisor) + divisor) % divisor
        return stride(from: start, to: items.count, by: divisor).map { items[$0] }
    }

    /// A minimum that a sweep of every item must reach (`atLeast`), scaled as
    /// ``sample(_:offset:divisor:)`` scales the sweep: `atLeast / divisor`, rounded down.
    public static func sampled(_ atLeast: Int) -> Int {
        atLeast / divisor
    }

    /// A minimum that a loop of `full` rounds must reach (`atLeast` of them), scaled with the loop:
    /// `atLeast × count(full) / full`, rounded down.
    public static func scaled(_ atLeast: Int, of full: Int) -> Int {
        guard full > 0 else { return atLeast }
        return atLeast * count(full) / full
    }
}
