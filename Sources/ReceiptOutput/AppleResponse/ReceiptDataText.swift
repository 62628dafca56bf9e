import ReceiptCore
/// A `receipt-data` text as the client sent it, kept as its UTF-8 bytes: the validator decodes
/// it from them and the answer echoes it from them (`latest_receipt`), with no `String` made of
/// it in between (a 7.5 KB receipt was copied three times and scanned twice more for that).
///
/// Equal and hashed as the `String` it stands for, so requests and responses compare as they
/// did when they held the `String`.
struct ReceiptDataText: Hashable, Sendable {
    /// The text's bytes: valid UTF-8.
    let utf8: [UInt8]
    /// Whether none of the bytes needs an escape in a JSON string (no control character, `"` or
    /// `\`): then the text is echoed between quotes as it is. Set only by the request reader,
    /// for a string read without escapes (a byte that would need one ends the reader's plain
    /// scan); false makes the writer escape the text as ``JSONByteWriter/string(_:)`` does.
    let isPlain: Bool
    /// The text decoded by the request reader as it read it (plain base64 only; see
    /// ``ReceiptLoader/decodeQuotedBase64(_:from:maximumSize:)``), validated instead of decoding `utf8`
    /// again; nil otherwise. Not part of equality: it is `utf8` decoded.
    let decodedBase64: ReceiptLoader.QuotedBase64?

    /// The text of a `String` (escaped when written, as the `String` would be).
    init(_ text: String) {
        self.utf8 = Array(text.utf8)
        self.isPlain = false
        self.decodedBase64 = nil
    }

    /// Text whose bytes are known to be valid UTF-8; `isPlain` and `decodedBase64` as the
    /// properties say.
    init(validUTF8 utf8: [UInt8], isPlain: Bool, decodedBase64: ReceiptLoader.QuotedBase64? = nil) {
        self.utf8 = utf8
        self.isPlain = isPlain
        self.decodedBase64 = decodedBase64
    }

    /// The text as a `String`.
    var string: String { String(decoding: utf8, as: UTF8.self) }

    static func == (left: Self, right: Self) -> Bool { left.string == right.string }

    func hash(into hasher: inout Hasher) { hasher.combine(string) }
}

extension JSONByteWriter {
    /// Writes a `receipt-data` text as a JSON string, as ``string(_:)`` writes its `String`.
    mutating func string(_ text: ReceiptDataText) {
        text.utf8.withUnsafeBufferPointer { string(utf8: $0, isPlain: text.isPlain) }
    }
}
