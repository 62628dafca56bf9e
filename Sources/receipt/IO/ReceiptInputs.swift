/// The inputs of a command line in order: inputs made as they were named (a file, standard input,
/// an unreadable directory) and directories' files (``DirectoryFiles``), which are made into
/// inputs only when read.
struct ReceiptInputs: RandomAccessCollection, Sendable {
    /// A run of consecutive inputs.
    private enum Part: Sendable {
        case inputs([ReceiptInput])
        case files(DirectoryFiles)

        var count: Int {
            switch self {
            case .inputs(let inputs): inputs.count
            case .files(let files): files.count
            }
        }
    }

    private var parts: [Part] = []
    /// Where each part ends: the count of every input up to and including it.
    private var ends: [Int] = []

    /// No inputs.
    init() {}

    /// The first input's position: 0.
    var startIndex: Int { 0 }
    /// The number of inputs.
    var endIndex: Int { ends.last ?? 0 }

    /// The input at `position`, in command-line order.
    subscript(position: Int) -> ReceiptInput {
        // The first part that ends after `position` (binary search: a command line may alternate
        // files and directories many times).
        var part = 0
        var upper = ends.count - 1
        while part < upper {
            let middle = (part + upper) / 2
            if ends[middle] <= position { part = middle + 1 } else { upper = middle }
        }
        let offset = position - (part == 0 ? 0 : ends[part - 1])
        switch parts[part] {
        case .inputs(let inputs): return inputs[offset]
        case .files(let files): return files[offset]
        }
    }

    /// Adds `input` after the others.
    mutating func append(_ input: ReceiptInput) {
        // Taken out of `parts` before the append, so that the array is not copied.
        if case .inputs = parts.last, case .inputs(var inputs)? = parts.popLast() {
            inputs.append(input)
            parts.append(.inputs(inputs))
            ends[ends.count - 1] += 1
        } else {
            parts.append(.inputs([input]))
            ends.append(endIndex + 1)
        }
    }

    /// Adds a directory's files after the others (none when it has none).
    mutating func append(_ files: DirectoryFiles) {
        guard files.count > 0 else { return }
        let end = endIndex + files.count
        parts.append(.files(files))
        ends.append(end)
    }
}
