/// Plain-text tables for the benchmark report.
enum Table {
    /// `header` and `rows` in columns separated by ` | `; the `numeric` columns are right-aligned.
    static func format(header: [String], rows: [[String]], numeric: ClosedRange<Int>) -> String {
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return numeric.contains(i) ? pad + cell : cell + pad
            }.joined(separator: " | ")
        }
        var out = render(header) + "\n" + widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-") + "\n"
        for row in rows { out += render(row) + "\n" }
        return out
    }
}
