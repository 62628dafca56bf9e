import Testing
@testable import receipt

/// The text tables of `verify`, `entitlements` and `dump`: columns padded to the widest cell in
/// characters (not bytes), two spaces between columns, no trailing spaces.
@Suite struct TextTableTests {
    @Test func columnsAlignByCharactersAndLinesHaveNoTrailingSpaces() {
        var table = TextTable(header: ["PRODUCT", "QTY", "NOTE"])
        table.rows = [
            ["com.example.café", "1", ""],
            ["com.example.👍🏽", "12", "-"],
            ["a", "", "last"],
        ]
        let text = table.render(indent: "  ")
        #expect(text == """
              PRODUCT           QTY  NOTE
              com.example.café  1
              com.example.👍🏽     12   -
              a                      last

            """)
        var bytes: [UInt8] = Array("x\n".utf8)
        table.render(indent: "  ", into: &bytes)
        #expect(bytes == Array(("x\n" + text).utf8))
    }

    @Test func anEmptyTableIsItsHeader() {
        #expect(TextTable(header: ["A", "B"]).render() == "A  B\n")
    }
}
