/// Standard output gathered in a byte buffer and written with `write(2)` in large chunks.
///
/// A batch of thousands of receipts then costs a few hundred system calls instead of one (or
/// several, through `print`) per receipt. Interactive output (stdout a terminal) is written at
/// every ``append(_:)`` so that each verdict appears when it is known.
struct BufferedOutput {
    /// What is waiting to be written.
    var bytes: [UInt8] = []
    /// How many bytes to gather before writing.
    let chunkSize: Int
    /// Whether a write failed (stdout closed): everything after it is dropped.
    private(set) var failed = false

    /// A buffer for stdout: chunks of `chunkSize` bytes, or one write per ``append(_:)`` on a terminal.
    init(chunkSize: Int = 256 * 1024, interactive: Bool = StandardOutput.isTerminal) {
        self.chunkSize = interactive ? 0 : chunkSize
        bytes.reserveCapacity(self.chunkSize + 64 * 1024)
    }

    /// Whether output goes to a terminal (every ``append(_:)`` is written at once).
    var isInteractive: Bool { chunkSize == 0 }

    /// Whether ``append(_:)`` of `count` bytes writes to stdout (rather than only buffering).
    func writes(appending count: Int) -> Bool {
        bytes.count + count >= chunkSize
    }

    /// Appends `text`, writing once a chunk is full. A text of half a chunk or more is written
    /// as it is, after what is buffered, instead of being copied into the buffer first.
    mutating func append(_ text: [UInt8]) {
        if !writes(appending: text.count) {
            bytes.append(contentsOf: text)
        } else if text.count >= chunkSize / 2 {
            flush()
            if !failed, !text.isEmpty, !FileDescriptorOutput.writeAll(text, to: 1) { failed = true }
        } else {
            bytes.append(contentsOf: text)
            flush()
        }
    }

    /// Writes everything buffered.
    mutating func flush() {
        guard !bytes.isEmpty else { return }
        if !failed, !FileDescriptorOutput.writeAll(bytes, to: 1) { failed = true }
        bytes.removeAll(keepingCapacity: true)
    }
}
