import ReceiptCore
import ReceiptEntitlements

extension AppleVerifyReceiptResponse {
    /// The response as Apple's JSON, written by ``JSONByteWriter``: members sorted by name (a
    /// stable output), `/` unescaped (`"Etc/GMT"`), compact unless `prettyPrinted`. The same bytes
    /// as the `Codable` conformance encodes with `JSONEncoder`'s `.sortedKeys` and
    /// `.withoutEscapingSlashes` (`AppleResponseJSONTests`, on every fixture).
    public func jsonBytes(prettyPrinted: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONByteWriter.append(to: &bytes, pretty: prettyPrinted, minimumRoom: 4 * 1024) { writer in
            writer.appleResponse(self)
        }
        return bytes
    }
}
