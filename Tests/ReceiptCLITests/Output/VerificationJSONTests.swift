import Foundation
@testable import ReceiptCore
import ReceiptKit
import ReceiptTestSupport
import Testing
@testable import receipt

/// The tool's JSON writer against the `Codable` model's `JSONEncoder` encoding: equal as parsed JSON
/// values on every fixture, on every optional field absent and present, and on strings that need
/// escaping (quotes, backslash, every control character, non-ASCII, the whole Unicode range).
@Suite("verify JSON writer = Codable encoding")
struct VerificationJSONTests {
    /// Every receipt file in Fixtures (real and generated), parsed without verification.
    static func fixtureReceipts() throws -> [(String, Receipt)] {
        let root = Fixtures.packageRoot.appendingPathComponent("Fixtures")
        var result: [(String, Receipt)] = []
        for folder in ["real/receipts", "generated/receipts"] {
            let directory = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where name.hasSuffix(".receipt") {
                let der = try ReceiptLoader.load(path: directory.appendingPathComponent(name).path)
                let container = try PKCS7Container(bytes: der)
                result.append((name, try ReceiptParser.parse(container.content)))
            }
        }
        return result
    }

    /// The outcome variants every receipt is written in: valid, invalid with the receipt, failed
    /// without one (library message present and absent), hash matching, not matching, unchecked.
    static func outcomes(label: String, receipt: Receipt?) -> [VerificationOutcome] {
        var outcomes: [VerificationOutcome] = []
        for hash in [nil, true, false] as [Bool?] {
            for error in [
                nil,
                ReceiptValidationError(.bundleIDMismatch, "expected \"x\"\\y"),
                ReceiptValidationError(.invalidSignature, "bad", libraryMessage: "lib: \u{1}\t\n"),
            ] as [ReceiptValidationError?] {
                var report = ReceiptValidationReport()
                report.receipt = receipt
                report.deviceHashMatches = hash
                report.error = error
                outcomes.append(VerificationOutcome(label: label, report: report))
            }
        }
        var bare = ReceiptValidationReport()
        bare.error = ReceiptValidationError(.receiptNotFound, "missing")
        outcomes.append(VerificationOutcome(label: label, report: bare))
        return outcomes
    }

    /// Writes `outcome` with the tool's writer, compact or pretty.
    static func written(_ outcome: VerificationOutcome, pretty: Bool, stageCapacity: Int = 8 * 1024) -> Data {
        var writer = JSONByteWriter(pretty: pretty, stageCapacity: stageCapacity)
        writer.verification(outcome)
        return Data(writer.takeBytes())
    }

    /// Writes `outcome` after `prefix` with ``JSONByteWriter/append(to:pretty:minimumRoom:_:)``
    /// into an array with (about) no free capacity, so that `minimumRoom` bytes (at least one) are
    /// written in place; returns what follows the prefix (after checking the prefix is intact).
    static func writtenInPlace(_ outcome: VerificationOutcome, pretty: Bool, minimumRoom: Int, prefix: [UInt8] = []) -> [UInt8] {
        // An empty array has no storage of its own (`unsafeUninitializedCapacity: 0` would store
        // its count into the runtime's shared empty-array storage, a race ThreadSanitizer reports).
        var output: [UInt8] = prefix.isEmpty ? [] : [UInt8](unsafeUninitializedCapacity: prefix.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: prefix)
        }
        let room = max(minimumRoom, output.capacity - output.count)
        JSONByteWriter.append(to: &output, pretty: pretty, minimumRoom: minimumRoom) { $0.verification(outcome) }
        #expect(Array(output.prefix(prefix.count)) == prefix, "room \(room)")
        return Array(output.dropFirst(prefix.count))
    }

    /// Both texts parsed as JSON values; they must be equal, and the writer's must parse. With
    /// `byteForByte`, the texts must also be the same bytes; when they are, the parsed comparison
    /// is skipped, since equal bytes parse to equal values (and `JSONEncoder`'s text parses). It
    /// was 58 % of this suite's time (Foundation's `NSDictionary` equality), and several times
    /// that under AddressSanitizer. Texts that differ are still parsed and compared, so a failure
    /// says whether only the bytes differ or the values too.
    static func expectEqualJSON(_ outcome: VerificationOutcome, byteForByte: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for pretty in [false, true] {
            let ours = written(outcome, pretty: pretty)
            let reference = try VerificationJSONReference(outcome).encoded(pretty: pretty)
            if byteForByte {
                #expect(ours == reference, "pretty \(pretty)", sourceLocation: sourceLocation)
            }
            if !byteForByte || ours != reference {
                let oursValue = try JSONSerialization.jsonObject(with: ours) as? NSDictionary
                let referenceValue = try JSONSerialization.jsonObject(with: reference) as? NSDictionary
                #expect(oursValue?["file"] as? String == outcome.label, "the writer's text parses", sourceLocation: sourceLocation)
                #expect(oursValue == referenceValue, "\(String(decoding: ours.prefix(400), as: UTF8.self))", sourceLocation: sourceLocation)
            }
            // The smallest stage moves its text out at almost every piece: the same bytes.
            let smallStage = written(outcome, pretty: pretty, stageCapacity: JSONByteWriter.minimumStageCapacity)
            #expect(smallStage == ours, "pretty \(pretty), smallest stage", sourceLocation: sourceLocation)
            // Written in place into an array's free capacity, whatever part of the text fits there.
            for room in [0, 1, JSONByteWriter.minimumStageCapacity, ours.count / 2, ours.count - 1, ours.count, 64 * 1024] {
                let inPlace = writtenInPlace(outcome, pretty: pretty, minimumRoom: max(0, room))
                #expect(inPlace == Array(ours), "pretty \(pretty), room \(room)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("every fixture receipt, in every outcome variant: equal values, and the same bytes")
    func fixtures() throws {
        let receipts = try Self.fixtureReceipts()
        #expect(receipts.count >= 30)
        for (name, receipt) in receipts {
            for outcome in Self.outcomes(label: "dir/\(name)", receipt: receipt) {
                try Self.expectEqualJSON(outcome, byteForByte: true)
            }
        }
    }

    @Test("every optional field absent, and every one present (raw attributes whose numbers do not fit too)")
    func optionalFields() throws {
        let date = Date(timeIntervalSince1970: 1_500_000_000.123)
        let huge = ReceiptAttribute(typeBytes: [0x7F] + Array(repeating: 0xFF, count: 9), versionBytes: [0x80] + Array(repeating: 0, count: 9), value: [0x0C, 0x01, 0x41])
        let small = ReceiptAttribute(type: -3, version: 0, value: [])
        var purchase = InAppPurchase(
            quantity: Int64.max, productID: "p", transactionID: "t", purchaseDate: date, originalTransactionID: "o",
            originalPurchaseDate: Date(timeIntervalSince1970: -86_400.5), productType: .other(-7), expiresDate: date,
            webOrderLineItemID: Int64.min, cancellationDate: Date(timeIntervalSince1970: 0), isTrialPeriod: false,
            isInIntroOfferPeriod: true, promotionalOfferID: "promo", otherAttributes: [small, huge])
        let full = Receipt(
            environment: .other("Elsewhere"), appItemID: 0, bundleID: "b", bundleIDAttributeBytes: [0x0C, 0x01, 0x62],
            applicationVersion: "1", opaqueValue: [], sha1Hash: Array(0...19), requestDate: date, ageRating: "4+",
            creationDate: date, downloadID: -1, versionExternalIdentifier: 12, inAppPurchases: [purchase, InAppPurchase()],
            originalPurchaseDate: date, originalApplicationVersion: "0.9", expirationDate: date, otherAttributes: [huge, small])
        purchase = InAppPurchase()
        for receipt in [Receipt(), full, Receipt(inAppPurchases: [purchase])] {
            for outcome in Self.outcomes(label: "x", receipt: receipt) {
                try Self.expectEqualJSON(outcome, byteForByte: true)
            }
        }
    }

    @Test("strings that need escaping: quotes, backslash, every control character, DEL, non-ASCII")
    func escaping() throws {
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let samples = [
            "\"quoted\" and \\backslash\\ and /slash/", controls, "\u{7F}", "é ß ø — “quotes” €", "日本語 🍎 👨‍👩‍👧 \u{FEFF}\u{200B}",
            "\u{10FFFF}\u{E000}\u{FFFD}", "",
        ]
        for text in samples {
            let receipt = Receipt(
                environment: .other(text), bundleID: text, applicationVersion: text, ageRating: text,
                inAppPurchases: [InAppPurchase(productID: text, transactionID: text, originalTransactionID: text, promotionalOfferID: text)],
                originalApplicationVersion: text)
            var report = ReceiptValidationReport()
            report.receipt = receipt
            report.error = ReceiptValidationError(.bundleIDMismatch, text, libraryMessage: text)
            try Self.expectEqualJSON(VerificationOutcome(label: text, report: report), byteForByte: true)
        }
    }

    @Test("strings, bytes and attribute lists longer than the stage, dates outside years 0–9999")
    func longValues() throws {
        var long = ""
        for index in 0..<2_000 { long += "line \(index): \"quoted\"\t\\ é 🍎\n" }
        let value = (0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let attributes = (0..<500).map { ReceiptAttribute(type: $0, version: 1, value: [0x0C, 0x01, UInt8($0 & 0x7F)]) }
        let far = Date(timeIntervalSince1970: 400_000_000_000)
        // Renewals share their attribute lists: a long one (its text leaves the stage) and a short one.
        let short = Array(attributes.prefix(3))
        let purchases = (0..<6).map { index in
            InAppPurchase(
                productID: index < 3 ? long : "p\(index)", purchaseDate: far,
                cancellationDate: Date(timeIntervalSince1970: -70_000_000_000), otherAttributes: index < 3 ? attributes : short)
        }
        let receipt = Receipt(bundleID: long, opaqueValue: value, creationDate: far, inAppPurchases: purchases, otherAttributes: attributes)
        for outcome in Self.outcomes(label: long, receipt: receipt) {
            try Self.expectEqualJSON(outcome, byteForByte: true)
        }
        #expect(Self.written(Self.outcomes(label: long, receipt: receipt)[0], pretty: false).count > 3 * 8 * 1024)
    }

    @Test("written in place: every room size, the repeated attribute lists across its end, text before it kept")
    func inPlaceAtEveryRoomSize() throws {
        // Renewals sharing one attribute list: their repeated text is taken from before the end of
        // the room and copied after it, for some room size.
        let attributes = (0..<4).map { ReceiptAttribute(type: 1_700 + $0, version: 1, value: [0x0C, 0x02, 0x41, UInt8($0)]) }
        let purchases = (0..<3).map { InAppPurchase(productID: "p\($0)", transactionID: "\($0)", otherAttributes: attributes) }
        var report = ReceiptValidationReport()
        report.receipt = Receipt(bundleID: "b", inAppPurchases: purchases, otherAttributes: attributes)
        let outcome = VerificationOutcome(label: "x", report: report)
        for pretty in [false, true] {
            let expected = Array(Self.written(outcome, pretty: pretty))
            #expect(expected.count > 600)
            for room in 0...(expected.count + 1) {
                let prefix: [UInt8] = room % 3 == 0 ? [] : Array("before ".utf8)
                let inPlace = Self.writtenInPlace(outcome, pretty: pretty, minimumRoom: room, prefix: prefix)
                #expect(String(decoding: inPlace, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "pretty \(pretty), room \(room)")
            }
        }
        // More free capacity than asked for is used too, and what the array held stays in front.
        var output = Array("[".utf8)
        output.reserveCapacity(100_000)
        JSONByteWriter.append(to: &output, pretty: false, minimumRoom: 0) { $0.verification(outcome) }
        #expect(output == Array("[".utf8) + Array(Self.written(outcome, pretty: false)))
    }

    @Test("repeated attribute lists: a longer list after a shorter, equal lists at another depth, a list back again; purchases left as they were")
    func repeatedAttributeLists() throws {
        // The remembered text grows (a longer list after a shorter one), is not taken for an equal
        // list at another depth (the receipt's own list), nor for a list written before the last
        // one; and the purchases, lent `inout` to the writer, are read only.
        func list(_ count: Int, _ base: Int) -> [ReceiptAttribute] {
            (0..<count).map { ReceiptAttribute(type: base + $0, version: 1, value: [0x0C, 0x02, 0x41, UInt8($0 & 0x7F)]) }
        }
        let short = list(1, 1_800)
        let long = list(60, 1_900)
        let lists = [short, short, long, long, list(3, 2_000), short, long, []]
        // Built twice: the second, sharing no storage with the first, is what the first must still equal.
        func made() -> Receipt {
            let purchases = lists.enumerated().map { index, attributes in
                InAppPurchase(
                    productID: "product.\(index)", transactionID: "10000000000\(index)", originalTransactionID: "1000000000000000",
                    otherAttributes: attributes)
            }
            return Receipt(bundleID: "b", inAppPurchases: purchases, otherAttributes: long)
        }
        let receipt = made()
        var report = ReceiptValidationReport()
        report.receipt = receipt
        try Self.expectEqualJSON(VerificationOutcome(label: "x", report: report), byteForByte: true)
        var writer = JSONByteWriter(pretty: false)
        writer.receipt(receipt)
        for purchase in receipt.inAppPurchases { writer.inAppPurchase(purchase) }
        #expect(receipt == made())
        #expect(receipt.inAppPurchases.map(\.productID) == (0..<lists.count).map { "product.\($0)" })
        #expect(receipt.inAppPurchases.map(\.otherAttributes) == lists)
    }

    @Test("text given to the writer stays in front of what it writes")
    func appendsAfterGivenText() {
        for capacity in [JSONByteWriter.minimumStageCapacity, 8 * 1024] {
            var writer = JSONByteWriter(appendingTo: Array("prefix ".utf8), pretty: false, stageCapacity: capacity)
            writer.beginArray()
            writer.nextElement()
            writer.integer(Int64.min)
            writer.nextElement()
            writer.integer(0)
            writer.nextElement()
            writer.integer(Int64.max)
            writer.endArray()
            #expect(writer.count == 51)
            #expect(String(decoding: writer.takeBytes(), as: UTF8.self) == "prefix [-9223372036854775808,0,9223372036854775807]")
            #expect(writer.takeBytes().isEmpty)
        }
    }

    @Test("an escape at every place of the eight-byte words the writer scans, in strings of 0 to 40 bytes")
    func escapeAtEveryPlace() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        for special in ["\u{0}", "\u{1F}", "\"", "\\", "\n", "\u{7F}", " ", "é", "🍎", "!", "#", "[", "]"] {
            for length in 0...40 {
                for place in 0...length {
                    let text = String(repeating: "a", count: place) + (place < length ? special : "") + String(repeating: "b", count: max(0, length - place - 1))
                    var writer = JSONByteWriter(pretty: false)
                    writer.string(text)
                    let written = writer.takeBytes()
                    let expected = Array(try encoder.encode(text))
                    #expect(written == expected, "\(text.debugDescription)")
                }
            }
        }
    }

    @Test("integers at every change of digit count, both signs, and the extremes")
    func integers() {
        var values: [Int64] = [0, Int64.max, Int64.min, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0...18 {
            values += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
            if power <= Int64.max / 10 { power *= 10 }
        }
        // Every bit length (the writer estimates the digit count from it).
        for bit in 0..<63 {
            values += [Int64(1) << bit, (Int64(1) << bit) - 1, -(Int64(1) << bit)]
        }
        var random = SystemRandomNumberGenerator()
        values += (0..<2_000).map { _ in Int64(bitPattern: random.next()) >> Int64.random(in: 0...62) }
        for capacity in [JSONByteWriter.minimumStageCapacity, 8 * 1024] {
            var writer = JSONByteWriter(pretty: false, stageCapacity: capacity)
            writer.beginArray()
            for value in values {
                writer.nextElement()
                writer.integer(value)
            }
            writer.endArray()
            #expect(String(decoding: writer.takeBytes(), as: UTF8.self) == "[" + values.map(String.init).joined(separator: ",") + "]")
        }
    }

    @Test("dates in every order: same day, same date, another day, back again, before 1970, out of range")
    func dates() {
        // The writer keeps the text of recent dates and of the last day formatted; every date
        // must still read as RFC3339.string(from:) writes it alone.
        let day = 86_400.0
        var intervals: [Double] = [
            1_583_936_726, 1_583_936_726 + 300, 1_583_936_726 + 300.25, 1_583_936_726, // same day, repeats
            1_583_936_726 + day, 1_583_936_726 + 2 * day - 0.0004, 1_583_936_726 + 300, // next days, back
            floor(1_583_936_726 / day) * day, floor(1_583_936_726 / day) * day - 0.001, // midnight, just before
            -1, -0.5, -day, -day - 1, -62_135_596_800, // before 1970, year 1
            253_402_300_799.999, 253_402_300_800, -62_135_596_801, .nan, .infinity, // edges, outside
            0, 86_399, 86_400, 951_782_400, 253_402_300_799, 253_402_300_799, 1e-300, -0.0, // whole seconds, edges
            1_583_936_726.0000001, 4_102_444_800, 4_102_444_800 + day - 1, -.infinity, // near-whole, 2100
        ]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<3_000 {
            // Runs of dates a few minutes apart (one day), jumps of days, and exact repeats.
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let previous = intervals.last.map { $0.isFinite ? $0 : 0 } ?? 0
            switch state >> 62 {
            case 0: intervals.append(previous + Double((state >> 20) % 600))
            case 1: intervals.append(previous + Double(Int64((state >> 20) % 2_000) - 1_000) * day / 7)
            case 2: intervals.append(intervals[Int((state >> 8) % UInt64(intervals.count))])
            default: intervals.append(Double(Int64(bitPattern: state) % 4_000_000_000_000) / 1000)
            }
        }
        for capacity in [JSONByteWriter.minimumStageCapacity, 8 * 1024] {
            var writer = JSONByteWriter(pretty: false, stageCapacity: capacity)
            writer.beginArray()
            for interval in intervals {
                writer.nextElement()
                writer.date(Date(timeIntervalSince1970: interval))
            }
            writer.endArray()
            let expected = intervals.map { "\"" + RFC3339.string(from: Date(timeIntervalSince1970: $0)) + "\"" }
            let written = String(decoding: writer.takeBytes(), as: UTF8.self)
            #expect(written == "[" + expected.joined(separator: ",") + "]")
            if written != "[" + expected.joined(separator: ",") + "]" {
                let texts = written.dropFirst().dropLast().split(separator: ",")
                for (index, text) in texts.enumerated() where index < expected.count && String(text) != expected[index] {
                    Issue.record("date \(index) (\(intervals[index])): \(text), expected \(expected[index])")
                    break
                }
            }
        }
    }

    @Test("the whole Unicode range in one string")
    func wholeUnicodeRange() throws {
        var scalars = String.UnicodeScalarView()
        for value in UInt32(0)...0x10FFFF {
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        let text = String(scalars)
        var report = ReceiptValidationReport()
        report.receipt = Receipt(bundleID: text)
        let outcome = VerificationOutcome(label: text, report: report)
        try Self.expectEqualJSON(outcome, byteForByte: false)
        // The writer's text decodes back to the very same string.
        let decoded = try JSONSerialization.jsonObject(with: Self.written(outcome, pretty: false)) as? [String: Any]
        #expect(decoded?["file"] as? String == text)
    }

    @Test("formatters: NDJSON is one line a receipt, JSON one object or an array, in input order")
    func formatters() throws {
        let outcomes = (0..<3).map { VerificationOutcome(label: "r\($0)", report: ReceiptValidationReport()) }
        var ndjson: [UInt8] = []
        let lines = NDJSONFormatter()
        for (index, outcome) in outcomes.enumerated() { lines.write(outcome, index: index, of: 3, into: &ndjson) }
        lines.finish(count: 3, into: &ndjson)
        let text = String(decoding: ndjson, as: UTF8.self)
        #expect(text.split(separator: "\n").count == 3)
        #expect(text.hasSuffix("\n"))
        var json: [UInt8] = []
        let array = JSONFormatter()
        for (index, outcome) in outcomes.enumerated() { array.write(outcome, index: index, of: 3, into: &json) }
        array.finish(count: 3, into: &json)
        let parsed = try JSONSerialization.jsonObject(with: Data(json)) as? [[String: Any]]
        #expect(parsed?.compactMap { $0["file"] as? String } == ["r0", "r1", "r2"])
        var empty: [UInt8] = []
        array.finish(count: 0, into: &empty)
        #expect(String(decoding: empty, as: UTF8.self) == "[]\n")
    }
}
