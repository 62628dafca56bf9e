/// Tells a compact JWS from a receipt by content: a JWS (StoreKit 2 transaction, renewal info,
/// App Store Server Notification, app transaction) begins with `eyJ`, the base64url of `{"`, after
/// any leading whitespace. A receipt never does: DER begins with the byte 0x30 and its base64 text
/// with `MI`.
enum TokenDetection {
    /// Whether `bytes` hold a compact JWS rather than a receipt.
    static func isCompactJWS(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
        return bytes.count - index >= 3 && bytes[index] == UInt8(ascii: "e") && bytes[index + 1] == UInt8(ascii: "y")
            && bytes[index + 2] == UInt8(ascii: "J")
    }
}
