import Foundation

/// Paths to the real fixtures, found from this file's location (no resource bundle needed).
enum Fixtures {
    /// `<package>/Fixtures/real`.
    static let realDirectory: URL = URL(filePath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // ReceiptCoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appending(path: "Fixtures/real")

    /// Names (without extension) of every real receipt.
    static let receiptNames: [String] = {
        let directory = realDirectory.appending(path: "receipts")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))) ?? []
        return files.filter { $0.hasSuffix(".receipt") }.map { String($0.dropLast(".receipt".count)) }.sorted()
    }()

    /// The legacy iOS 6 transaction receipts (base64 text files).
    static let legacyNames = ["ios6-transaction-receipt-1", "ios6-transaction-receipt-2"]

    static func receiptURL(_ name: String) -> URL { realDirectory.appending(path: "receipts/\(name).receipt") }
    static func expectedURL(_ name: String) -> URL { realDirectory.appending(path: "expected/\(name).json") }
    static func legacyURL(_ name: String) -> URL { realDirectory.appending(path: "legacy/\(name).b64") }
    static func certificateURL(_ file: String) -> URL { realDirectory.appending(path: "certs/\(file)") }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }
    static func receipt(_ name: String) throws -> [UInt8] { try bytes(receiptURL(name)) }

    /// Parsed `expected/<name>.json` as a plain dictionary (for keys ExpectedReceipt does not expose).
    static func expectedJSON(_ name: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: expectedURL(name)))
        return object as? [String: Any] ?? [:]
    }
}

/// Lowercase hex.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// Parses lowercase/uppercase hex (test inputs only).
func bytes(hex text: String) -> [UInt8] {
    var result: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        result.append(UInt8(text[index..<next], radix: 16) ?? 0)
        index = next
    }
    return result
}

/// A deterministic pseudo-random generator (SplitMix64) so fuzz-style tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
