import Testing
@testable import ReceiptCore

/// The strict lane's memory of decoded strings (``RepeatedValueMemo/string(_:_:)``) gives exactly
/// the string of the bytes asked for, whatever it remembers and evicts, and keeps what every
/// renewal repeats (product id, original transaction id) while each purchase brings a new
/// transaction id.
@Suite struct RepeatedValueMemoTests {
    /// The address of a string's UTF-8 storage (`nil` for a small string kept inline).
    private static func storage(_ text: String) -> UnsafeRawPointer? {
        var copy = text
        return copy.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func everyAnswerIsTheStringOfItsBytes() {
        // Long and short ASCII strings, several copies of each at different places, and non-ASCII ones.
        let words = (0..<12).map { index in
            index % 3 == 0 ? "short\(index)" : "a-long-identifier-number-\(index)-\(String(repeating: "x", count: index))"
        }
        var buffer: [UInt8] = []
        var places: [(range: Range<Int>, expected: String?)] = []
        for round in 0..<3 {
            for word in words {
                let start = buffer.count
                buffer += Array(word.utf8)
                places.append((start..<buffer.count, word))
            }
            let start = buffer.count
            buffer += Array("non-ASCII identifier é \(round)".utf8)
            places.append((start..<buffer.count, nil))
        }
        var memo = RepeatedValueMemo()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        buffer.withUnsafeBufferPointer { pointer in
            for _ in 0..<5_000 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                // Mostly a few places, sometimes any: hits, misses and evictions of every kind.
                let pick = state >> 60 < 10 ? Int(state >> 33) % 4 : Int(state >> 33) % places.count
                let place = places[pick]
                let answer = memo.string(pointer, place.range)
                if answer != place.expected {
                    Issue.record("\(place.range): \(String(describing: answer)) instead of \(String(describing: place.expected))")
                }
            }
        }
    }

    @Test func renewalsKeepTheirRepeatedStrings() throws {
        // Purchases as a receipt holds them: product id, a new transaction id, the original id.
        let product = "com.example.app.subscription.monthly"
        let original = "1000000000000001"
        var buffer: [UInt8] = []
        var purchases: [(product: Range<Int>, transaction: Range<Int>, original: Range<Int>)] = []
        func add(_ text: String) -> Range<Int> {
            let start = buffer.count
            buffer += Array(text.utf8)
            return start..<buffer.count
        }
        for index in 0..<20 {
            purchases.append((add(product), add("20000000000\(10_000 + index)"), add(original)))
        }
        var memo = RepeatedValueMemo()
        var products: Set<UnsafeRawPointer?> = []
        var originals: Set<UnsafeRawPointer?> = []
        var kept: [String] = []  // alive, so that no later string takes a freed one's address
        buffer.withUnsafeBufferPointer { pointer in
            for purchase in purchases {
                guard let productText = memo.string(pointer, purchase.product),
                      let transaction = memo.string(pointer, purchase.transaction),
                      let originalText = memo.string(pointer, purchase.original)
                else {
                    Issue.record("a string was not decoded")
                    return
                }
                #expect(productText == product && originalText == original && transaction.count == 16)
                kept += [productText, transaction, originalText]
                products.insert(Self.storage(productText))
                originals.insert(Self.storage(originalText))
            }
        }
        // One string each, decoded once and shared by all twenty purchases.
        #expect(products.count == 1 && !products.contains(nil))
        #expect(originals.count == 1 && !originals.contains(nil))
    }
}
