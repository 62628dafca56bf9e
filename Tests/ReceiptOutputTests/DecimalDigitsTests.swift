import Testing
@testable import ReceiptOutput

/// ``DecimalDigits``: the text of an integer, as `String(_:)` writes it, and what the JSON writer
/// writes, at every digit count and sign.
@Suite struct DecimalDigitsTests {
    /// 0, ±1, each power of ten and its neighbours, and the ends of `Int64`.
    private static let edges: [Int64] = {
        var values: [Int64] = [0, 1, -1, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
        }
        return values
    }()

    @Test func textIsWhatStringWrites() {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<2_000).map { _ in Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0...62) }
        for value in Self.edges + random {
            #expect(DecimalDigits.text(value) == String(value), "\(value)")
        }
    }

    @Test func writerIntegerIsWhatStringWrites() {
        var writer = JSONByteWriter(pretty: false)
        writer.beginArray()
        for value in Self.edges {
            writer.nextElement()
            writer.integer(value)
        }
        writer.endArray()
        let expected = "[" + Self.edges.map { String($0) }.joined(separator: ",") + "]"
        #expect(String(decoding: writer.takeBytes(), as: UTF8.self) == expected)
    }
}
