import Foundation
@testable import ReceiptCore
import ReceiptTestSupport
import Testing

/// The `verifyReceipt` reader's one-pass decode of plain base64 up to its closing quote
/// (``ReceiptLoader/decodeQuotedBase64(_:from:maximumSize:)`` then ``ReceiptLoader/load(decodedBase64:maximumSize:)``)
/// against the two passes it replaces (find the quote, then ``ReceiptLoader/load(_:maximumSize:)-([UInt8],_)``
/// of the text before it): whenever it answers, the same bytes or the same error; and it answers
/// for every plain text the full path decodes.
@Suite("Quoted base64")
struct QuotedBase64Tests {
    /// Bytes that matter to either path: symbols of both alphabets, padding, the quote, an
    /// escape, whitespace, `0` (DER's first byte), bytes beyond ASCII, a control character.
    static let interesting: [UInt8] = Array("=\"\\ \n\t0Aa9+/-_".utf8) + [0xC3, 0xA9, 0x00, 0x01, 0x7F, 0xFF]

    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_".utf8)

    /// The old path's answer for `text`: the loaded DER or the error.
    static func full(_ text: [UInt8], maximumSize: Int) -> Result<[UInt8], ReceiptValidationError> {
        Result { () throws(ReceiptValidationError) in try ReceiptLoader.load(text, maximumSize: maximumSize) }
    }

    /// Checks the one-pass decode of the text at `body[start...]` with each of `maximumSizes`;
    /// whether it answered with the first.
    @discardableResult
    static func check(_ body: [UInt8], from start: Int, maximumSizes: [Int], _ note: @autoclosure () -> String) -> Bool {
        var answeredFirst = false
        for (index, maximumSize) in maximumSizes.enumerated() {
            let answered = check(body, from: start, maximumSize: maximumSize, "max \(maximumSize): \(note())")
            if index == 0 { answeredFirst = answered }
        }
        return answeredFirst
    }

    /// Checks the one-pass decode of the text at `body[start...]` with `maximumSize`; whether it
    /// answered.
    @discardableResult
    static func check(_ body: [UInt8], from start: Int, maximumSize: Int, _ note: @autoclosure () -> String) -> Bool {
        let quoted = body.withUnsafeBufferPointer { ReceiptLoader.decodeQuotedBase64($0, from: start, maximumSize: maximumSize) }
        let quote = body[start...].firstIndex(of: UInt8(ascii: "\""))
        guard let quoted else {
            // It may decline only what is not plain base64 before a quote, what the full path
            // does not decode as base64 (empty, DER, refused), or what it refuses as too large
            // before decoding.
            if let quote {
                let text = Array(body[start..<quote])
                let isPlain = text.allSatisfy { alphabet.contains($0) || $0 == UInt8(ascii: "=") }
                let isTooLarge = text.count > ReceiptLoader.maximumTextSize(for: maximumSize)
                if isPlain, !text.isEmpty, text[0] != UInt8(ascii: "0"), !isTooLarge, let decoded = Base64.decode(text) {
                    Issue.record("declined plain base64 the full path decodes to \(decoded.count) bytes: \(note())")
                }
                if isPlain, text.first != UInt8(ascii: "0"), isTooLarge {
                    guard case .failure(let error) = full(text, maximumSize: maximumSize) else {
                        Issue.record("the full path loaded a text over the limit: \(note())")
                        return false
                    }
                    #expect(error.code == .receiptTooLarge, "\(note())")
                }
            }
            return false
        }
        #expect(quoted.end == quote, "\(note())")
        guard let quote, quoted.end == quote else { return true }
        let text = Array(body[start..<quote])
        #expect(quoted.textCount == text.count, "\(note())")
        #expect(quoted.textCount <= ReceiptLoader.maximumTextSize(for: maximumSize), "\(note())")
        #expect(Base64.decode(text) == quoted.decoded, "\(note())")
        let fused = Result { () throws(ReceiptValidationError) in try ReceiptLoader.load(decodedBase64: quoted, maximumSize: maximumSize) }
        #expect(fused == full(text, maximumSize: maximumSize), "\(note())")
        return true
    }

    @Test("the real receipts' base64, standard and URL-safe, padded or not, at any offset")
    func realReceipts() throws {
        #expect(!RealReceipt.all.isEmpty)
        var answered = 0
        for fixture in RealReceipt.all {
            let bytes = try fixture.bytes()
            let standard = Data(bytes).base64EncodedString()
            let urlSafe = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            for text in [standard, urlSafe, standard.replacingOccurrences(of: "=", with: "")] {
                for prefix in ["", #"{"receipt-data":""#, "x"] {
                    let body = Array((prefix + text + #""}"#).utf8)
                    let sizes = [ReceiptLoader.maximumReceiptSize, bytes.count, bytes.count - 1, text.count / 2]
                    if Self.check(body, from: prefix.utf8.count, maximumSizes: sizes, "\(fixture.name) \(prefix)") {
                        answered += 1
                    }
                }
            }
            #expect(try ReceiptLoader.load(Array(standard.utf8)) == bytes)
        }
        // Every one of them is plain base64: all take the one pass.
        #expect(answered == RealReceipt.all.count * 9)
    }

    @Test("random and mutated texts: the one pass answers as the two do, or declines")
    func randomTexts() {
        var random = SplitMix64(state: 0x2823_0000)
        let samples = TestIterations.count(60_000)
        var answered = 0
        for round in 0..<samples {
            let length = Int(random.next() % 40)
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var text = Array(Data(bytes).base64EncodedString().utf8)
            switch random.next() % 4 {
            case 0: text = text.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }
            case 1: text.removeAll { $0 == UInt8(ascii: "=") }
            default: break
            }
            // Zero to three mutations: insert, replace or delete a byte; sometimes only symbols.
            for _ in 0..<Int(random.next() % 4) {
                let pool = random.next() % 2 == 0 ? Self.alphabet : Self.interesting
                let byte = pool[Int(random.next() % UInt64(pool.count))]
                let position = Int(random.next() % UInt64(text.count + 1))
                switch random.next() % 3 {
                case 0: text.insert(byte, at: position)
                case 1 where position < text.count: text[position] = byte
                default: if position < text.count { text.remove(at: position) }
                }
            }
            let prefix = Array(#"{"receipt-data":""#.utf8).suffix(Int(random.next() % 18))
            var body = Array(prefix) + text
            switch random.next() % 5 {
            case 0: break  // no closing quote
            case 1: body += [UInt8(ascii: "\"")]
            default: body += Array(#""}"#.utf8) + (random.next() % 2 == 0 ? Array(#"="A"#.utf8) : [])
            }
            let maximumSize = random.next() % 3 == 0 ? Int(random.next() % 40) : ReceiptLoader.maximumReceiptSize
            if Self.check(body, from: prefix.count, maximumSizes: [maximumSize], "round \(round): \(body)") {
                answered += 1
            }
        }
        // Most texts stay plain base64: the comparison is not vacuous.
        #expect(answered > samples / 4)
    }

    @Test("a text over the size limit's text limit is declined before decoding; one at it or under is decoded")
    func sizeLimit() throws {
        let receipt = try #require(RealReceipt.all.first).bytes()
        let texts = ["QUJDRA==", "QUJDREVG", "QUJDREU", "QUJDRA", Data(receipt).base64EncodedString()]
        var declined = 0
        for text in texts {
            let count = text.utf8.count
            // The quote closing the body; more body after it than the limit; no quote at all.
            for suffix in ["\"", "\"}" + String(repeating: " ", count: count + 64), ""] {
                let body = Array((text + suffix).utf8)
                for maximumSize in (count / 2 - 2)...(count / 2 + 2) {
                    let quoted = body.withUnsafeBufferPointer { ReceiptLoader.decodeQuotedBase64($0, from: 0, maximumSize: maximumSize) }
                    let fits = count <= ReceiptLoader.maximumTextSize(for: maximumSize)
                    #expect((quoted != nil) == (fits && !suffix.isEmpty), "\(count) bytes, max \(maximumSize), \(suffix.count)")
                    if !fits, !suffix.isEmpty { declined += 1 }
                    Self.check(body, from: 0, maximumSize: maximumSize, "\(count) bytes, max \(maximumSize), \(suffix.count)")
                }
            }
        }
        #expect(declined >= texts.count * 2 * 2)
    }

    @Test("edges: padding, a lone symbol, DER's first byte, no quote, offsets at the end")
    func edges() {
        let cases: [(String, [UInt8]?)] = [
            ("QUJD\"", [0x41, 0x42, 0x43]), ("QQ==\"", [0x41]), ("QUI=\"", [0x41, 0x42]), ("QUI\"", [0x41, 0x42]),
            ("QQ\"", [0x41]), ("Q\"", nil), ("QQ=\"", nil), ("QQ===\"", nil), ("QUJD=\"", nil), ("==\"", nil),
            ("=\"", nil), ("\"", nil), ("QUJDQ\"", nil), ("0UJD\"", nil), ("QUJD", nil), ("QUJD \"", nil),
            ("QU JD\"", nil), ("QUJD\\\"", nil), ("QUJD=QUJD\"", nil), ("QUJDQUJD\"QUJD\"", [0x41, 0x42, 0x43, 0x41, 0x42, 0x43]),
        ]
        for (text, expected) in cases {
            let body = Array(text.utf8)
            let quoted = body.withUnsafeBufferPointer { ReceiptLoader.decodeQuotedBase64($0, from: 0, maximumSize: ReceiptLoader.maximumReceiptSize) }
            #expect(quoted?.decoded == expected, "\(text)")
            Self.check(body, from: 0, maximumSizes: [ReceiptLoader.maximumReceiptSize, 1], text)
        }
        let body = Array("QUJD\"".utf8)
        for start in [-1, body.count, body.count + 1] {
            #expect(body.withUnsafeBufferPointer { ReceiptLoader.decodeQuotedBase64($0, from: start, maximumSize: ReceiptLoader.maximumReceiptSize) } == nil)
        }
        #expect([UInt8]().withUnsafeBufferPointer { ReceiptLoader.decodeQuotedBase64($0, from: 0, maximumSize: ReceiptLoader.maximumReceiptSize) } == nil)
    }
}
