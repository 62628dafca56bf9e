import Testing
@testable import ReceiptCore

/// The Pacific offset's table of 2000–2099 against the rule it was made from: equal at every
/// transition (a day either side, hourly, and two seconds either side), at every New Year (where
/// the table's year estimate may be a day off), once a day at a time of day moving by a second
/// each day from 1998 to 2101, and outside the table (the rule itself).
/// `AppleDateTests` (ReceiptOutputTests) holds the offset equal to Foundation's time zone.
@Suite struct PacificTimeTests {
    @Test func tableAgreesWithTheRule() {
        var probes: [Int64] = []
        let nearby: [Int64] = Array(stride(from: -86_400, through: 86_400, by: 3600)) + [-2, -1, 1, 2]
        for year in 1998...2102 {
            let span = PacificTime.daylightSpan(year: year)
            let newYear = Int64(RFC3339.daysSinceEpoch(year: year, month: 1, day: 1)) * 86_400
            for edge in [span.starts, span.ends, newYear, newYear + 8 * 3600] {
                probes += nearby.map { edge + $0 }
            }
        }
        probes += Array(stride(from: PacificTime.firstTableSecond - 86_400 * 400, through: PacificTime.firstTableSecond + 101 * PacificTime.meanYear, by: 86_399))
        probes += [0, -1, Int64(Int32.max), PacificTime.firstTableSecond - 1, PacificTime.firstTableSecond, 4_102_444_800, 4_102_444_799]
        var differing = 0
        for seconds in probes where PacificTime.offset(atUnixSeconds: seconds) != PacificTime.ruleOffset(atUnixSeconds: seconds) {
            differing += 1
            if differing <= 5 { Issue.record("table and rule differ at \(seconds)") }
        }
        #expect(differing == 0)
        #expect(probes.count > 50_000)
        #expect(PacificTime.daylightSpans.count == 100)
    }

    @Test func weekdays() {
        #expect(PacificTime.weekday(0) == 4)  // 1970-01-01 was a Thursday
        #expect(PacificTime.weekday(-4) == 0)
        #expect(PacificTime.weekday(-5) == 6)
    }
}
