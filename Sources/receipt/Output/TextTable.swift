/// Left-aligned text columns for terminal output.
struct TextTable {
    /// The header row.
    var header: [String]
    /// The data rows.
    var rows: [[String]] = []

    /// The table as lines, each prefixed by `indent`, columns separated by two spaces.
    func render(indent: String = "") -> String {
        var bytes: [UInt8] = []
        render(indent: indent, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the table's lines to `output` as UTF-8: each prefixed by `indent`, columns padded
    /// to their widest cell (in characters) plus two spaces, trailing spaces trimmed; a cell's
    /// control characters escaped (``TerminalText``).
    func render(indent: String = "", into output: inout [UInt8]) {
        // Each cell is measured once (its width kept in one flat array, row by row) and copied
        // from its string's own UTF-8 storage: a receipt with many purchases has a row each.
        var widths: [Int] = []
        var cellWidths: [Int] = []
        cellWidths.reserveCapacity((rows.count + 1) * header.count)
        func measure(_ row: [String]) {
            for index in row.indices {
                let width = Self.width(row[index])
                cellWidths.append(width)
                if index < widths.count {
                    widths[index] = max(widths[index], width)
                } else {
                    widths.append(width)
                }
            }
        }
        // Cells hold what a receipt or token says: controls escaped (TerminalText).
        let header = header.map(TerminalText.escaped)
        let rows = rows.map { $0.map(TerminalText.escaped) }
        measure(header)
        for row in rows { measure(row) }
        var measured = 0
        func write(_ row: [String]) {
            let lineStart = output.count
            Self.append(indent, to: &output)
            for index in row.indices {
                Self.append(row[index], to: &output)
                if index < row.count - 1 {
                    output.append(contentsOf: repeatElement(0x20, count: widths[index] - cellWidths[measured] + 2))
                }
                measured += 1
            }
            while output.count > lineStart, output.last == 0x20 { output.removeLast() }
            output.append(0x0A)
        }
        write(header)
        for row in rows { write(row) }
    }

    /// Appends the UTF-8 of `text`, from its own storage when it has contiguous storage.
    private static func append(_ text: String, to output: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ output.append(contentsOf: $0) }) == nil {
            output.append(contentsOf: text.utf8)
        }
    }

    /// A cell's width in characters: its UTF-8 length when it is ASCII (one byte a character),
    /// its `Character` count otherwise.
    private static func width(_ cell: String) -> Int {
        let ascii = cell.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? cell.utf8.allSatisfy { $0 < 0x80 }
        return ascii ? cell.utf8.count : cell.count
    }
}
