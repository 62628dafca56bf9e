#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The device identifier that enters a receipt's GUID hash:
/// `SHA1(identifier ‖ opaque value ‖ bundle-id attribute bytes) == sha1_hash`.
///
/// iOS uses `UIDevice.identifierForVendor` (16 bytes), macOS the primary network interface's MAC
/// address (6 bytes).
public struct DeviceIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The bytes that enter the hash.
    public let bytes: [UInt8]

    /// Uses these bytes as they are.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The 16 bytes of a UUID (iOS `identifierForVendor`).
    public init(uuid: UUID) {
        let u = uuid.uuid
        self.bytes = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
    }

    /// Parses `UUID` text (`956328D9-CC6A-47F4-BE40-6953FB0AB6C7`), a MAC address
    /// (`6c:40:08:b5:94:5e` or with `-`), or plain hex (an even number of hex digits, at least one
    /// byte). Surrounding whitespace is ignored.
    ///
    /// It throws rather than returning `nil`, so that a mistyped identifier can never turn the
    /// device-hash check off by leaving ``ReceiptValidator/Configuration/deviceIdentifier`` unset.
    /// - Throws: ``ReceiptValidationError/Code/invalidDeviceIdentifier`` for anything else.
    public init(parsing text: String) throws(ReceiptValidationError) {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        if trimmed.count == 36, let uuid = UUID(uuidString: trimmed) {
            self.init(uuid: uuid)
            return
        }
        let isMAC = trimmed.count == 17 && (trimmed.split(separator: ":").count == 6 || trimmed.split(separator: "-").count == 6)
        let hex = isMAC ? trimmed.filter { $0 != ":" && $0 != "-" } : trimmed
        guard let bytes = Self.decodeHex(hex), !bytes.isEmpty else {
            throw ReceiptValidationError(
                .invalidDeviceIdentifier,
                "The device identifier '\(text)' is not a UUID, a MAC address or hex bytes."
            )
        }
        self.init(bytes: bytes)
    }

    /// Lowercase hex of ``bytes``.
    public var description: String {
        Hex.encode(bytes)
    }

    private static func decodeHex(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count / 2)
        var index = 0
        while index + 1 < utf8.count {
            guard let high = Hex.nibble(utf8[index]), let low = Hex.nibble(utf8[index + 1]) else { return nil }
            result.append(high << 4 | low)
            index += 2
        }
        return result
    }
}
