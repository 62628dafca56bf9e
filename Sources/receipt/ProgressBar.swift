/// A one-line progress bar on stderr, redrawn in place with a carriage return. Create it only when
/// stderr is a terminal; used from one task only.
final class ProgressBar {
    private let total: Int
    private var done = 0
    private var isVisible = false
    private let width = 30

    /// A bar for `total` items, or nil when there is nothing to show (stderr is not a terminal, or
    /// there are fewer than two items).
    static func forTerminal(total: Int) -> ProgressBar? {
        guard total > 1, StandardError.isTerminal else { return nil }
        return ProgressBar(total: total)
    }

    private init(total: Int) {
        self.total = total
    }

    /// Counts one more item done and redraws.
    func advance() {
        done += 1
        draw()
    }

    /// Erases the bar so that other output can be written on a clean line.
    func clear() {
        guard isVisible else { return }
        StandardError.write("\r\u{1B}[K")
        isVisible = false
    }

    /// Draws the bar again after ``clear()``.
    func redraw() {
        if done > 0 { draw() }
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
