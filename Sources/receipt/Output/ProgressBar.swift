#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress bar on stderr, redrawn in place with a carriage return. Create it only when
/// stderr is a terminal; used by one thread at a time.
final class ProgressBar {
    private let total: Int
    private var done = 0
    private var isVisible = false
    private let width = 30
    /// Whether stdout is the same kind of terminal, so results printed there would land on the bar's line.
    private let sharesTerminalWithOutput = isatty(1) == 1

    /// A bar for `total` items, or nil when there is nothing to show (stderr is not a terminal, or
    /// there are fewer than two items).
    static func forTerminal(total: Int) -> ProgressBar? {
        guard total > 1, StandardError.isTerminal else { return nil }
        return ProgressBar(total: total)
    }

    private init(total: Int) {
        self.total = total
    }

    /// Counts `count` more items done and redraws.
    func advance(by count: Int) {
        done += count
        draw()
    }

    /// Erases the bar so that results can be printed to the terminal on a clean line (nothing to do
    /// when stdout is redirected).
    func clearForOutput() {
        guard sharesTerminalWithOutput else { return }
        clear()
    }

    /// Draws the bar again after ``clearForOutput()``.
    func redrawAfterOutput() {
        guard sharesTerminalWithOutput, done > 0 else { return }
        draw()
    }

    /// Erases the bar.
    private func clear() {
        guard isVisible else { return }
        StandardError.write("\r\u{1B}[K")
        isVisible = false
    }

    /// Erases the bar for good.
    func finish() {
        clear()
    }

    private func draw() {
        let filled = total > 0 ? done * width / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        StandardError.write("\r[\(bar)] \(done)/\(total)")
        isVisible = true
    }
}
