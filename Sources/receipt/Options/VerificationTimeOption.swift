import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// A value of `--at`: `creation` (the receipt's creation date), `now` (either in any case), or an
/// RFC 3339 date such as `2025-01-31T12:00:00Z` or `2025-01-31T13:00:00+01:00`, with or without
/// fractional seconds, read by the package's one RFC 3339 reader (``RFC3339/parse(_:)``, which
/// reads the receipts' dates): a field out of its range (`2025-02-30`, hour 24) is refused, where
/// Foundation's ISO 8601 parser rolled it over into another date (`2025-03-02`), and years before
/// 1583 are proleptic Gregorian, as RFC 3339 says, not Julian.
struct VerificationTimeOption: ExpressibleByArgument, Sendable {
    /// The time named.
    var time: VerificationTime

    /// The option's value `time` (the default when `--at` is not given).
    init(_ time: VerificationTime) {
        self.time = time
    }

    init?(argument: String) {
        switch argument.lowercased() {
        case "creation": time = .creationDate
        case "now": time = .now
        default:
            guard let date = RFC3339.parse(argument) else { return nil }
            time = .fixed(date)
        }
    }
}

/// RFC 3339 text for the tool's output: formatted by the package's one RFC 3339
/// formatter (``RFC3339``, which the JSON writer uses too), to the whole second.
enum RFC3339Text {
    /// `2025-01-31T12:00:00Z` (the second `date` falls in; no fraction).
    static func string(from date: Date) -> String {
        RFC3339.string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }
}
