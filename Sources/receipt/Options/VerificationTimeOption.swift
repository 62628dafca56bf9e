import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// Parses `--at creation|now|RFC3339`.
enum VerificationTimeOption {
    /// The verification time named by `text`.
    /// - Throws: `ValidationError` (usage, exit 2) for anything else.
    static func parse(_ text: String) throws -> VerificationTime {
        switch text.lowercased() {
        case "creation": return .creationDate
        case "now": return .now
        default:
            guard let date = RFC3339Text.date(from: text) else {
                throw ValidationError(
                    "--at expects 'creation', 'now' or an RFC 3339 date such as 2025-01-31T12:00:00Z, not '\(text)'"
                )
            }
            return .fixed(date)
        }
    }
}

/// RFC 3339 text for the tool's output and `--at`.
enum RFC3339Text {
    /// `2025-01-31T12:00:00Z`.
    static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// Parses `2025-01-31T12:00:00Z`, `2025-01-31T13:00:00+01:00`, with or without fractional seconds.
    static func date(from text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }
}
