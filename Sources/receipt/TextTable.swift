/// Left-aligned text columns for terminal output.
struct TextTable {
    /// The header row.
    var header: [String]
    /// The data rows.
    var rows: [[String]] = []

    /// The table as lines, each prefixed by `indent`, columns separated by two spaces.
    func render(indent: String = "") -> String {
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: columns)
        for row in all {
            for (index, cell) in row.enumerated() {
                widths[index] = max(widths[index], cell.count)
            }
        }
        var text = ""
        for row in all {
            var line = indent
            for (index, cell) in row.enumerated() {
                let isLast = index == row.count - 1
                line += isLast ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }
            while line.hasSuffix(" ") { line.removeLast() }
            text += line + "\n"
        }
        return text
    }
}
