/// A tolerant base64 decoder for receipts pasted or sent as text.
///
/// Accepts the standard and URL-safe alphabets, ignores ASCII whitespace (spaces, tabs, CR, LF)
/// anywhere, and accepts missing padding. Anything else is rejected.
enum Base64 {
    /// Decodes base64 text bytes, or returns nil when they are not base64.
    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3 + 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        var symbols = 0
        for character in text {
            let value: UInt32
            switch character {
            case 0x41...0x5A: value = UInt32(character - 0x41)
            case 0x61...0x7A: value = UInt32(character - 0x61 + 26)
            case 0x30...0x39: value = UInt32(character - 0x30 + 52)
            case 0x2B, 0x2D: value = 62  // + -
            case 0x2F, 0x5F: value = 63  // / _
            case 0x3D:  // =
                padding += 1
                guard padding <= 2 else { return nil }
                continue
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B:
                continue
            default:
                return nil
            }
            guard padding == 0 else { return nil }  // data after padding
            symbols += 1
            accumulator = (accumulator << 6) | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // A single leftover symbol (6 bits) can never encode a byte.
        guard symbols % 4 != 1 else { return nil }
        if padding > 0, (symbols + padding) % 4 != 0 { return nil }
        return output
    }
}
