import Foundation
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

@Suite struct RFC3339Tests {
    @Test(arguments: [
        ("2015-08-13T07:50:46Z", 1_439_452_246.0),
        ("2015-08-13T07:50:46z", 1_439_452_246.0),
        ("2015-08-13 07:50:46Z", 1_439_452_246.0),
        ("2020-07-22T18:33:15+0100", 1_595_439_195.0),
        ("2020-07-22T18:33:15+01:00", 1_595_439_195.0),
        ("2020-07-22T18:33:15+01", 1_595_439_195.0),
        ("2021-04-03T22:38:45+0300", 1_617_478_725.0),
        ("2020-07-22T12:03:15-0530", 1_595_439_195.0),
        ("2023-02-22T14:30:15.250Z", 1_677_076_215.25),
        ("2023-02-22T14:30:15.5Z", 1_677_076_215.5),
        ("1970-01-01T00:00:00Z", 0.0),
        ("1969-12-31T23:59:59Z", -1.0),
        ("2000-02-29T00:00:00Z", 951_782_400.0),
        ("2016-12-31T23:59:60Z", 1_483_228_800.0),
    ])
    func parses(_ text: String, _ seconds: Double) throws {
        let date = try #require(RFC3339.parse(text), "\(text)")
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001, "\(text)")
    }

    @Test(arguments: [
        "", "2015-08-13", "2015-08-13T07:50:46", "2015-08-13T07:50Z", "2015-13-01T00:00:00Z", "2015-02-29T00:00:00Z",
        "2015-04-31T00:00:00Z", "2015-08-13T24:00:00Z", "2015-08-13T07:60:00Z", "2015-08-13T07:50:61Z",
        "2015-08-13T07:50:46+2400", "2015-08-13T07:50:46+01:60", "2015-08-13T07:50:46.Z", "2015-08-13T07:50:46ZZ",
        "2015-08-13T07:50:46 Z", "15-08-13T07:50:46Z", "2015/08/13T07:50:46Z", "2015-08-13T07:50:46+1",
        "２０１５-08-13T07:50:46Z", "2013-08-01 07:00:00 Etc/GMT",
    ])
    func rejects(_ text: String) {
        #expect(RFC3339.parse(text) == nil, "\(text)")
    }

    @Test func formatsUTC() throws {
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 1_595_439_195)) == "2020-07-22T17:33:15Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 1_677_076_215.25)) == "2023-02-22T14:30:15.250Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        let text = "2035-02-09T21:40:36Z"
        #expect(RFC3339.string(from: try #require(RFC3339.parse(text))) == text)
    }

    /// The canonical `…Z` form has its own fixed-position reader; it must agree with the general
    /// reader, which the same timestamp with a lowercase `z` (and with `+00:00`) takes.
    @Test func canonicalFormAgreesWithTheGeneralReader() {
        var generator = SplitMix64(state: 0x3339)
        var accepted = 0
        for _ in 0..<20_000 {
            let year = Int.random(in: 0...9999, using: &generator)
            let fields = [
                Int.random(in: 0...13, using: &generator), Int.random(in: 0...32, using: &generator),
                Int.random(in: 0...24, using: &generator), Int.random(in: 0...60, using: &generator),
                Int.random(in: 0...61, using: &generator),
            ]
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let yearText = String(repeating: "0", count: 4 - String(year).count) + String(year)
            let body = "\(yearText)-\(two(fields[0]))-\(two(fields[1]))T\(two(fields[2])):\(two(fields[3])):\(two(fields[4]))"
            let canonical = RFC3339.parse(body + "Z")
            #expect(canonical == RFC3339.parse(body + "z"), "\(body)")
            #expect(canonical == RFC3339.parse(body + "+00:00"), "\(body)")
            if canonical != nil { accepted += 1 }
        }
        #expect(accepted > 5_000)
        // The ends of the range and the months around the shifted year's start.
        for body in ["0000-01-01T00:00:00", "0000-02-29T23:59:60", "0000-03-01T00:00:00", "0001-01-01T00:00:00",
                     "0004-02-29T12:00:00", "1969-12-31T23:59:59", "1970-01-01T00:00:00", "2000-02-29T00:00:00",
                     "2100-03-01T00:00:00", "9999-12-31T23:59:60"] {
            let canonical = RFC3339.parse(body + "Z")
            #expect(canonical != nil, "\(body)")
            #expect(canonical == RFC3339.parse(body + "+00:00"), "\(body)")
        }
        #expect(RFC3339.parse("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(RFC3339.parse("2000-03-01T00:00:00Z") == Date(timeIntervalSince1970: 951_868_800))
        // Non-digits where digits belong.
        for text in ["2015-08-1307:50:46ZZ", "2015-0a-13T07:50:46Z", "2015-08-13T07:5/:46Z", "201:-08-13T07:50:46Z"] {
            #expect(RFC3339.parse(text) == nil, "\(text)")
        }
    }

    @Test("string(from:) and append(_:to:) write the text composed field by field, for every kind of date")
    func appendEqualsString() {
        var intervals: [Double] = [
            0, -0.0005, 0.0004, 0.0005, 0.999, 1.5, -1, -1.5, 86_399.9996, 951_782_400, 1_439_452_246.123, 253_402_300_799.999,
            253_402_300_800, -62_135_596_800, -62_135_596_801, -253_402_300_799, -253_402_300_800, .nan, .infinity, -.infinity,
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            intervals.append(Double(Int64(bitPattern: state) % 300_000_000_000_000) / 1000)
        }
        for interval in intervals {
            let date = Date(timeIntervalSince1970: interval)
            var bytes: [UInt8] = [0x7B]
            RFC3339.append(date, to: &bytes)
            let composed = RFC3339.composedString(from: date)
            #expect(bytes == [0x7B] + Array(composed.utf8), "\(interval)")
            #expect(RFC3339.string(from: date) == composed, "\(interval)")
        }
    }

    /// Milliseconds since 1970 written with three fraction digits, exact: each text reads back as
    /// the millisecond it came from, over every millisecond of seconds from 1970 to 2100 and
    /// before 1970. (Through a `Date`, Foundation's formatter wrote about half of them one early.)
    @Test func millisecondsAreWrittenExactly() {
        #expect(RFC3339.string(fromMilliseconds: 1_748_779_200_123) == "2025-06-01T12:00:00.123Z")
        #expect(RFC3339.string(fromMilliseconds: 1_722_506_400_007) == "2024-08-01T10:00:00.007Z")
        #expect(RFC3339.string(fromMilliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339.string(fromMilliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(RFC3339.string(fromMilliseconds: 253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
        var wrong: [String] = []
        var checked = 0
        for base in stride(from: Int64(-86_400_000 * 400), to: 4_102_444_800_000, by: 86_400_000 * 997) {
            for millisecond in Int64(0)..<1000 {
                let value = base + millisecond
                let text = RFC3339.string(fromMilliseconds: value)
                checked += 1
                guard let date = RFC3339.parse(text), Int64((date.timeIntervalSince1970 * 1000).rounded()) == value,
                      text.utf8.count == 24
                else {
                    wrong.append("\(value) written \(text)")
                    continue
                }
            }
        }
        #expect(checked > 40_000)
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(3))")
    }
}
