/// Lowercase hexadecimal text of bytes: the package's one hex (the model's JSON form, the JSON
/// writer, the tool's listings, device identifiers, the conformance kit's messages).
package enum Hex {
    /// The lowercase hexadecimal digit of a nibble (0–15).
    @inlinable @inline(__always)
    package static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? nibble &+ 0x30 : nibble &+ 0x57
    }

    /// The value of one hexadecimal digit in either case (`0`–`9`, `a`–`f`, `A`–`F`), or nil.
    @inlinable @inline(__always)
    package static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case 0x30...0x39: character &- 0x30
        case 0x41...0x46: character &- 0x41 &+ 10
        case 0x61...0x66: character &- 0x61 &+ 10
        default: nil
        }
    }

    /// `[0xAB, 0x01]` → `"ab01"`.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        var characters: [UInt8] = []
        characters.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            characters.append(digit(byte >> 4))
            characters.append(digit(byte & 0x0F))
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// `"ab01"` (either case) → `[0xAB, 0x01]`, or nil for odd length or a non-hex character.
    package static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// Like ``decode(_:)`` but throws a `DecodingError` for use in `init(from:)`.
    static func decode(_ text: String, codingPath: [any CodingKey]) throws -> [UInt8] {
        guard let bytes = decode(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\"\(text)\" is not hexadecimal"))
        }
        return bytes
    }
}
