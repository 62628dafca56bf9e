import Foundation

/// Where the package's fixtures lie, found once from this file's path (no resource bundle), and
/// readers for them.
public enum Fixtures {
    /// The package root.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ReceiptTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root

    /// `<package>/Fixtures`.
    public static let directory: URL = packageRoot.appendingPathComponent("Fixtures", isDirectory: true)

    /// `<package>/Fixtures/real`: the real Apple receipts, their expected decodes and certificates.
    public static let realDirectory: URL = directory.appendingPathComponent("real", isDirectory: true)

    /// Names (without extension) of every real receipt, sorted.
    public static var receiptNames: [String] { RealReceipt.all.map(\.name) }

    /// The legacy iOS 6 transaction receipts (base64 text files).
    public static let legacyNames = ["ios6-transaction-receipt-1", "ios6-transaction-receipt-2"]

    /// `Fixtures/real/receipts/<name>.receipt`.
    public static func receiptURL(_ name: String) -> URL { realDirectory.appendingPathComponent("receipts/\(name).receipt") }
    /// `Fixtures/real/expected/<name>.json`.
    public static func expectedURL(_ name: String) -> URL { realDirectory.appendingPathComponent("expected/\(name).json") }
    /// `Fixtures/real/legacy/<name>.b64`.
    public static func legacyURL(_ name: String) -> URL { realDirectory.appendingPathComponent("legacy/\(name).b64") }
    /// `Fixtures/real/certs/<file>`.
    public static func certificateURL(_ file: String) -> URL { realDirectory.appendingPathComponent("certs/\(file)") }

    /// The bytes of the file at `url`.
    public static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }
    /// The bytes of `Fixtures/<relativePath>`.
    public static func bytes(atPath relativePath: String) throws -> [UInt8] {
        try bytes(directory.appendingPathComponent(relativePath))
    }
    /// The bytes of the real receipt `name`.
    public static func receipt(_ name: String) throws -> [UInt8] { try bytes(receiptURL(name)) }

    /// `expected/<name>.json` as a plain dictionary (for keys ``ExpectedDecode`` does not hold).
    public static func expectedJSON(_ name: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: expectedURL(name)))
        return object as? [String: Any] ?? [:]
    }
}
