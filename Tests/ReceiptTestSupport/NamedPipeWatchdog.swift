import Foundation

/// Runs code that must not wait for a writer on a named pipe, so that a regression fails the test
/// instead of hanging it.
public enum NamedPipeWatchdog {
    /// Runs `body`. While it has not come back, every `seconds` the watchdog opens the pipe at
    /// `path` for reading and writing (which never waits), so that an `open(2)` waiting in `body`
    /// for a writer returns.
    /// - Returns: what `body` returned, and whether the watchdog had to open the pipe.
    public static func run<Result>(path: String, every seconds: Int, _ body: () throws -> Result) rethrows -> (result: Result, hadToOpen: Bool) {
        let finished = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        let record = Record()
        DispatchQueue.global().async {
            while finished.wait(timeout: .now() + .seconds(seconds)) == .timedOut {
                let descriptor = open(path, O_RDWR | O_NONBLOCK)
                if descriptor >= 0 { close(descriptor) }
                record.hadToOpen = true
            }
            stopped.signal()
        }
        let result: Result
        do {
            // The watchdog is stopped however `body` ends, before its record is read.
            defer {
                finished.signal()
                stopped.wait()
            }
            result = try body()
        }
        return (result, record.hadToOpen)
    }

    /// What the watchdog did: written before it signals `stopped`, read after the wait.
    private final class Record: @unchecked Sendable {
        var hadToOpen = false
    }
}
