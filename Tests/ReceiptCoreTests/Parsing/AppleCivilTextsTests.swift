@testable import ReceiptCore
import ReceiptTestSupport
import Testing

/// ``AppleCivilTexts`` against the two ``RFC3339/writeCivilSeconds(_:to:)`` calls it replaces.
@Suite struct AppleCivilTextsTests {
    static func expected(_ seconds: Int64) -> (gmt: [UInt8], pacific: [UInt8])? {
        var gmt = [UInt8](repeating: 0, count: 19)
        var pacific = [UInt8](repeating: 0, count: 19)
        guard gmt.withUnsafeMutableBufferPointer({ RFC3339.writeCivilSeconds(seconds, to: $0.baseAddress!) }) == 19,
              pacific.withUnsafeMutableBufferPointer({
                  RFC3339.writeCivilSeconds(seconds + PacificTime.offset(atUnixSeconds: seconds), to: $0.baseAddress!)
              }) == 19
        else { return nil }
        return (gmt, pacific)
    }

    static func check(_ seconds: Int64) {
        var texts = [UInt8](repeating: 0, count: 38)
        let written = texts.withUnsafeMutableBufferPointer { AppleCivilTexts.write(seconds: seconds, gmt: $0.baseAddress!, pacific: $0.baseAddress! + 19) }
        let expected = expected(seconds)
        #expect(written == (expected != nil), "\(seconds)")
        if written, let expected {
            #expect(Array(texts[0..<19]) == expected.gmt, "\(seconds)")
            #expect(Array(texts[19...]) == expected.pacific, "\(seconds)")
        }
    }

    @Test func theTextsAreTheTwoCallsTexts() {
        // Every hour boundary ±1 s around the daylight switches and midnights of 2000–2040,
        // random instants over the years 0–9999, and the ends of the range.
        var random = SplitMix64(state: 0x2823_da7e)
        for _ in 0..<TestIterations.count(200_000) {
            Self.check(Int64(bitPattern: random.next() % 315_537_897_600) - 62_167_219_200)
        }
        // Every hour in the plain runs; every divisor-th one under the sanitizers (TestIterations).
        for hour in TestIterations.sample(Array(stride(from: Int64(946_684_800), to: 2_208_988_800, by: 3600))) {
            for delta: Int64 in [-1, 0, 1] { Self.check(hour + delta) }
        }
        for seconds: Int64 in [-62_167_219_201, -62_167_219_200, -62_167_190_400, 253_402_300_799, 253_402_300_800, 0, -1, 1 << 52, -(1 << 52)] {
            Self.check(seconds)
        }
    }
}
