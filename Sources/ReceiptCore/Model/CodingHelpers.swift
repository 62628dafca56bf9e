#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension KeyedEncodingContainer {
    /// Encodes a date as an RFC 3339 `Z` string when present.
    mutating func encodeDate(_ date: Date?, forKey key: Key) throws {
        if let date { try encode(RFC3339.string(from: date), forKey: key) }
    }

    /// Encodes bytes as lowercase hex when present.
    mutating func encodeHex(_ bytes: [UInt8]?, forKey key: Key) throws {
        if let bytes { try encode(Hex.encode(bytes), forKey: key) }
    }
}

extension KeyedDecodingContainer {
    /// Decodes an RFC 3339 string (absent or empty = nil).
    func decodeDate(forKey key: Key) throws -> Date? {
        guard let text = try decodeIfPresent(String.self, forKey: key), !text.isEmpty else { return nil }
        guard let date = RFC3339.parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\"\(text)\" is not an RFC 3339 date")
        }
        return date
    }

    /// Decodes lowercase or uppercase hex.
    func decodeHex(forKey key: Key) throws -> [UInt8]? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        return try Hex.decode(text, codingPath: codingPath + [key])
    }
}
