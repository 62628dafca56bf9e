/// The two strict base64 forms a JWS uses: base64url without padding for its three segments
/// (RFC 7515 §2), and standard base64 with padding for the `x5c` certificates (RFC 7515 §4.1.6).
///
/// Strict: only the form's alphabet, no whitespace, canonical (the unused low bits of the last
/// symbol are zero), so each byte string has exactly one accepted text.
package enum StrictBase64 {
    /// Decodes base64url without padding, or `nil`.
    package static func decodeURL(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        return decode(text, url: true)
    }

    /// Decodes standard base64 with its `=` padding (length a multiple of 4), or `nil`.
    package static func decodeStandard(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var body = text
        var padding = 0
        while padding < 2, body.last == UInt8(ascii: "=") {
            body = body.dropLast()
            padding += 1
        }
        guard (body.count + padding) % 4 == 0, padding == 0 || body.count % 4 == 4 - padding else { return nil }
        return decode(body, url: false)
    }

    private static func value(_ character: UInt8, url: Bool) -> UInt32? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(character - UInt8(ascii: "a") + 26)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(character - UInt8(ascii: "0") + 52)
        case UInt8(ascii: "-") where url, UInt8(ascii: "+") where !url: 62
        case UInt8(ascii: "_") where url, UInt8(ascii: "/") where !url: 63
        default: nil
        }
    }

    /// Decodes unpadded symbols (`count % 4 != 1`), refusing non-zero unused bits.
    private static func decode(_ text: ArraySlice<UInt8>, url: Bool) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            guard let value = value(character, url: url) else { return nil }
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard accumulator == 0 else { return nil }  // non-canonical trailing bits
        return output
    }
}
