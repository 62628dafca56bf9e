#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// The human-readable block `verify` prints for a JWS input: verdict, kind and signedDate, the
/// payload's top-level fields by Apple's names, and the verified chain.
struct TokenReport {
    /// The input's name.
    let label: String
    /// What came of it.
    let token: TokenOutcome
    /// The backend that verified it.
    let backendName: String
    /// The error text as `verify` shows it (message, library text, hint).
    let message: (ReceiptValidationError) -> String

    /// Appends the block to `output` as UTF-8.
    func write(summaries: SharedCertificateSummaries, into output: inout [UInt8]) {
        var lines: [String] = []
        switch token.result {
        case .failure(let error):
            lines.append("\(label): INVALID: \(error.code.rawValue) — \(message(error))")
        case .success(let verified):
            lines.append("\(label): VALID")
            lines.append("  Kind:              \(verified.kind.rawValue) (JWS)")
            lines.append("  Signed:            \(TokenText.millisecondDate(verified.signedDate))")
            lines.append("  Verified:          chain at \(RFC3339.string(from: verified.verificationTime)) by \(backendName), ES256")
            if case .object(let members) = TokenText.payloadJSON(of: verified) {
                for (name, value) in members.sorted(by: { $0.key < $1.key }) {
                    lines.append("  \(name): \(Self.describe(value))")
                }
            }
            lines.append("  Certificate chain (verified, leaf first):")
            lines += summaries.lines(for: verified.chain)
        }
        for line in lines {
            output.append(contentsOf: TerminalText.escaped(line).utf8)
            output.append(0x0A)
        }
    }

    /// A member's value on one line: scalars as JSON text, a nested token or object shortened.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): String(flag)
        case .number(let text): text
        case .string(let text): text.count > 72 ? "\(text.prefix(40))… (\(text.utf8.count) bytes)" : text
        case .array(let elements): "[\(elements.count) elements]"
        case .object(let members): "{" + members.keys.sorted().joined(separator: ", ") + "}"
        }
    }
}
