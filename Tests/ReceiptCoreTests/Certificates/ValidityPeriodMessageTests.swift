import Foundation
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// ``ValidityPeriod/check(_:at:)``'s messages write their dates as the package writes every date
/// (RFC 3339, UTC), at the ends of the range `--at` accepts too: Foundation's `Date.description`,
/// which they used, prints "<description unavailable>" for the years 0 and 9999.
@Suite struct ValidityPeriodMessageTests {
    @Test(arguments: [
        ("0000-01-01T00:00:00Z", ReceiptValidationError.Code.certificateNotYetValid, "is not valid before 2010-01-01T00:00:00Z"),
        ("2009-12-31T23:59:59Z", .certificateNotYetValid, "is not valid before 2010-01-01T00:00:00Z"),
        ("2045-01-01T00:00:01Z", .certificateExpired, "expired at 2045-01-01T00:00:00Z"),
        ("9999-12-31T23:59:59Z", .certificateExpired, "expired at 2045-01-01T00:00:00Z"),
    ])
    func datesAreWrittenAsRFC3339(_ at: String, _ code: ReceiptValidationError.Code, _ expected: String) throws {
        // The generated root: valid from 2010-01-01T00:00:00Z to 2045-01-01T00:00:00Z.
        let root = Certificate(derBytes: try Fixtures.bytes(atPath: "generated/pki/root.cer"))
        let time = try #require(RFC3339.parse(at))
        do {
            try ValidityPeriod.check([root], at: time)
            Issue.record("\(at): accepted")
        } catch {
            #expect(error.code == code)
            #expect(error.message == "The chain's certificate at depth 0 \(expected) (verification time \(at)).")
        }
    }

    @Test func aTimeWithoutACalendarDateIsWrittenAsSeconds() throws {
        let root = Certificate(derBytes: try Fixtures.bytes(atPath: "generated/pki/root.cer"))
        for (time, seconds) in [(Date(timeIntervalSince1970: .infinity), "inf"), (Date(timeIntervalSince1970: 1e13), "10000000000000.0")] {
            do {
                try ValidityPeriod.check([root], at: time)
                Issue.record("\(seconds): accepted")
            } catch {
                #expect(error.code == .backendFailure)
                #expect(error.message == "The verification time \(seconds) s since 1970 cannot be represented.")
            }
        }
    }
}
