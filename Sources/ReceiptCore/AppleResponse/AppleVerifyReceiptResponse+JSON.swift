#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AppleVerifyReceiptResponse {
    /// The response as Apple's JSON: members sorted by name (a stable output), `/` unescaped
    /// (`"Etc/GMT"`), compact unless `prettyPrinted`.
    public func jsonBytes(prettyPrinted: Bool = false) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(self))
        } catch {
            // Nothing in the model can fail to encode (strings and integers only); a status alone
            // keeps the answer valid JSON all the same.
            return Array(#"{"status":\#(status.rawValue)}"#.utf8)
        }
    }
}
