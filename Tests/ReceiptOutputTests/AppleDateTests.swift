import Foundation
import Testing
import ReceiptCore
import ReceiptEntitlements
@testable import ReceiptOutput

/// Apple's three date texts, and the hand-written Pacific time rule against Foundation's tz database.
@Suite struct AppleDateTests {
    @Test func summerInstantIsDaylightTime() throws {
        let date = try #require(RFC3339.parse("2020-07-14T19:33:26Z"))
        let apple = AppleDate(date)
        #expect(apple.gmt == "2020-07-14 19:33:26 Etc/GMT")
        #expect(apple.milliseconds == "1594755206000")
        #expect(apple.pacific == "2020-07-14 12:33:26 America/Los_Angeles")
    }

    @Test func winterInstantIsStandardTimeAndCrossesMidnight() throws {
        let date = try #require(RFC3339.parse("2015-11-24T06:34:41Z"))
        let apple = AppleDate(date)
        #expect(apple.gmt == "2015-11-24 06:34:41 Etc/GMT")
        #expect(apple.milliseconds == "1448346881000")
        #expect(apple.pacific == "2015-11-23 22:34:41 America/Los_Angeles")
    }

    @Test("an instant equals, and hashes as, the same three texts given; a text set is kept")
    func instantAndTextsAgree() throws {
        let date = try #require(RFC3339.parse("2020-07-14T19:33:26.250Z"))
        let instant = AppleDate(date)
        var texts = AppleDate(gmt: instant.gmt, milliseconds: instant.milliseconds, pacific: instant.pacific)
        #expect(instant == texts)
        #expect(instant.hashValue == texts.hashValue)
        #expect(instant != AppleDate(date.addingTimeInterval(0.001)))
        #expect(instant != AppleDate(gmt: instant.gmt, milliseconds: instant.milliseconds, pacific: "other"))
        texts.pacific = "changed"
        #expect(texts.pacific == "changed")
        #expect(texts.gmt == "2020-07-14 19:33:26 Etc/GMT")
        #expect(texts.milliseconds == "1594755206250")
        var changed = instant
        changed.gmt = "given"
        #expect(changed.gmt == "given")
        #expect(changed.milliseconds == "1594755206250")
        #expect(changed.pacific == "2020-07-14 12:33:26 America/Los_Angeles")
        #expect(changed != instant)
    }

    @Test func millisecondsAreKeptAndRoundedDown() {
        let apple = AppleDate(Date(timeIntervalSince1970: 1_644_081_228.6397))
        #expect(apple.milliseconds == "1644081228639")
        #expect(apple.gmt == "2022-02-05 17:13:48 Etc/GMT")
        #expect(apple.pacific == "2022-02-05 09:13:48 America/Los_Angeles")
    }

    /// Every transition of 1990–2040 and every six hours of 2005–2035 agree with Foundation's
    /// America/Los_Angeles (the rule is written out so that the output does not depend on the
    /// server's tz database).
    @Test func pacificOffsetAgreesWithFoundationsTimeZone() throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        var instant = try #require(RFC3339.parse("1990-01-01T00:00:00Z")).timeIntervalSince1970
        let end = try #require(RFC3339.parse("2040-12-31T00:00:00Z")).timeIntervalSince1970
        var transitions = 0
        var checked = 0
        while instant < end {
            let date = Date(timeIntervalSince1970: instant)
            let next = try #require(zone.nextDaylightSavingTimeTransition(after: date))
            for probe in [next.timeIntervalSince1970 - 1, next.timeIntervalSince1970, next.timeIntervalSince1970 + 1] {
                let seconds = Int64(probe)
                let expected = zone.secondsFromGMT(for: Date(timeIntervalSince1970: probe))
                #expect(PacificTime.offset(atUnixSeconds: seconds) == Int64(expected), "at \(seconds)")
                checked += 1
            }
            transitions += 1
            instant = next.timeIntervalSince1970 + 1
        }
        #expect(transitions > 100)
        var probe = try #require(RFC3339.parse("2005-01-01T00:00:00Z")).timeIntervalSince1970
        let stop = try #require(RFC3339.parse("2035-01-01T00:00:00Z")).timeIntervalSince1970
        while probe < stop {
            let expected = zone.secondsFromGMT(for: Date(timeIntervalSince1970: probe))
            #expect(PacificTime.offset(atUnixSeconds: Int64(probe)) == Int64(expected), "at \(probe)")
            probe += 6 * 3600
            checked += 1
        }
        #expect(checked > 40_000)
    }

    @Test func civilDatesRoundTrip() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let civil = CivilDate(daysSinceEpoch: days)
            #expect(CivilDate(year: civil.year, month: civil.month, day: civil.day).daysSinceEpoch == days)
        }
    }

    @Test("the one-string civil text equals the composed one over years 0-9999 and beyond")
    func civilTextInOneString() {
        // Every 7,919,000 seconds (about 92 days, never a whole number of days) from 0000-01-01 to
        // 9999-12-31: about 40,000 instants at all times of day and in every month; then the
        // edges, and years outside 0-9999 (which take the composed way).
        var seconds: [Int64] = Array(stride(from: Int64(-62_167_219_200), through: 253_402_300_799, by: 7_919 * 1_000))
        seconds += [0, -1, 86_399, 86_400, 951_782_400, -62_167_219_200, 253_402_300_799, 253_402_300_800, -62_167_219_201, -99_999_999_999]
        for value in seconds {
            for zone in ["Etc/GMT", "America/Los_Angeles"] {
                let composed = AppleDate.civilText(value) + " " + zone
                let single = zone == "Etc/GMT" ? AppleDate.civilText(value, zone: " Etc/GMT") : AppleDate.civilText(value, zone: " America/Los_Angeles")
                #expect(Array(single.utf8) == Array(composed.utf8), "\(value)")
            }
        }
        #expect(seconds.count > 30_000)
    }
}
