import ReceiptCore

/// Text from a receipt, a certificate or a token, made safe to print on a terminal or into a log
/// line: every control character (C0 with newline and tab, DEL, C1) and every bidirectional
/// override or isolate (U+202A–U+202E, U+2066–U+2069) is written `\xHH` for each of its UTF-8
/// bytes, as ``InputPath`` writes a path's. Everything else is kept as it is.
///
/// A certificate's name or a receipt's string is chosen by whoever made the file: printed raw, an
/// escape sequence could recolour, retitle or erase the terminal, and a newline could add a line
/// that looks like the tool's own verdict.
enum TerminalText {
    /// `text` with its controls escaped; `text` itself when it has none (nearly always).
    static func escaped(_ text: String) -> String {
        let plain = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isPlainByte) } ?? text.utf8.allSatisfy(isPlainByte)
        if plain { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) {
                for byte in String(scalar).utf8 { result += "\\x" + Hex.encode(CollectionOfOne(byte)) }
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Printable ASCII: needs no look at scalars.
    private static func isPlainByte(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F
    }

    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
