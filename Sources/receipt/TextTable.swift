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
    /// to their widest cell (in characters) plus two spaces, trailing spaces trimmed.
    func render(indent: String = "", into output: inout [UInt8]) {
        let all = [header] + rows
        let cellWidths = all.map { $0.map(Self.width) }
        var widths = Array(repeating: 0, count: all.map(\.count).max() ?? 0)
        for rowWidths in cellWidths {
            for (index, width) in rowWidths.enumerated() {
                widths[index] = max(widths[index], width)
            }
        }
        for (row, rowWidths) in zip(all, cellWidths) {
            let lineStart = output.count
            output.append(contentsOf: indent.utf8)
            for (index, cell) in row.enumerated() {
                output.append(contentsOf: cell.utf8)
                if index < row.count - 1 {
                    output.append(contentsOf: repeatElement(0x20, count: widths[index] - rowWidths[index] + 2))
                }
            }
            while output.count > lineStart, output.last == 0x20 { output.removeLast() }
            output.append(0x0A)
        }
    }

    /// A cell's width in characters: its UTF-8 length when it is ASCII (one byte a character),
    /// its `Character` count otherwise.
    private static func width(_ cell: String) -> Int {
        cell.utf8.allSatisfy { $0 < 0x80 } ? cell.utf8.count : cell.count
    }
}
