import Foundation
import ReceiptKit
@testable import ReceiptState
import Testing

/// The state's dates keep their milliseconds: each text reads back (``RFC3339/parse(_:)``) as the
/// millisecond it was written from.
struct StateDateTests {
    @Test func knownMilliseconds() {
        #expect(StateDate.text(1_748_779_200_123) == "2025-06-01T12:00:00.123Z")
        #expect(StateDate.text(1_722_506_400_007) == "2024-08-01T10:00:00.007Z")
        #expect(StateDate.text(1_722_506_400_123) == "2024-08-01T10:00:00.123Z")
        #expect(StateDate.text(0) == "1970-01-01T00:00:00.000Z")
        #expect(StateDate.text(-1) == "1969-12-31T23:59:59.999Z")
        #expect(StateDate.text(-1000) == "1969-12-31T23:59:59.000Z")
        #expect(StateDate.text(253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
    }

    /// Every millisecond of a second, at dates from 1970 to 2100 (Foundation's formatter wrote
    /// about half of them one millisecond early).
    @Test func everyMillisecondReadsBack() {
        var wrong: [String] = []
        var checked = 0
        for base in stride(from: Int64(0), to: 4_102_444_800_000, by: 86_400_000 * 997) {
            for millisecond in Int64(0)..<1000 {
                let value = base + millisecond
                let text = StateDate.text(value)
                checked += 1
                guard let date = RFC3339.parse(text), Int64((date.timeIntervalSince1970 * 1000).rounded()) == value else {
                    wrong.append("\(value) written \(text)")
                    continue
                }
            }
        }
        #expect(checked > 40_000)
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(3))")
    }
}
