extension ReceiptLoader {
    /// Base64 text decoded where it lies in a JSON body, up to its closing quote: see
    /// ``decodeQuotedBase64(_:from:maximumSize:)``.
    package struct QuotedBase64: Sendable {
        /// The decoded bytes, as ``ReceiptLoader/load(_:maximumSize:)-([UInt8],_)`` decodes the
        /// text (not yet checked for size: ``load(decodedBase64:maximumSize:)`` does that).
        package let decoded: [UInt8]
        /// The number of text bytes decoded (from the start up to the quote).
        package let textCount: Int
        /// The offset of the closing `"` in the body.
        package let end: Int
    }

    /// Decodes the text from `body[start]` up to the first `"` when it is plain base64 (alphabet
    /// symbols, then padding that completes the last group, then the `"`) that
    /// ``load(_:maximumSize:)-([UInt8],_)`` would decode rather than take as DER: what the
    /// `verifyReceipt` request reader reads in one pass instead of scanning for the quote and
    /// decoding after. Nil for any other text (empty, starting with `0`, holding whitespace, an
    /// escape or any other byte, refused padding, no `"`), which is then read and loaded as before.
    ///
    /// Nil too, before any decoding, for a text longer than the base64 text limit of
    /// `maximumSize` (the validator's ``ReceiptValidator/Configuration/maximumReceiptSize``):
    /// loaded as before, its size is checked first and it is refused as too large, unread.
    package static func decodeQuotedBase64(_ body: UnsafeBufferPointer<UInt8>, from start: Int, maximumSize: Int) -> QuotedBase64? {
        guard start >= 0, start < body.count, ASN1Tag(octet: body[start]) != .sequence else { return nil }
        // The text ends before the body does: when the rest of the body is longer than the limit,
        // its closing `"` must come within the limit (a text without one there is either too
        // long or not plain: nil either way, as its decoding would be declined then).
        let maximumText = maximumTextSize(for: maximumSize)
        if body.count &- start > maximumText {
            guard maximumText >= 0,
                  UnsafeBufferPointer(rebasing: body[start...(start + maximumText)]).contains(UInt8(ascii: "\""))
            else { return nil }
        }
        guard let (decoded, end) = Base64.decode(quoted: body, from: start) else { return nil }
        return QuotedBase64(decoded: decoded, textCount: end - start, end: end)
    }

    /// The receipt ``load(_:maximumSize:)-([UInt8],_)`` loads from the text `quoted` was decoded
    /// from, with the same checks in the same order and the same errors.
    package static func load(decodedBase64 quoted: QuotedBase64, maximumSize: Int = maximumReceiptSize) throws(ReceiptValidationError) -> [UInt8] {
        guard quoted.textCount <= maximumTextSize(for: maximumSize) else { throw tooLarge(quoted.textCount, maximumSize) }
        return try checked(decoded: quoted.decoded, maximumSize: maximumSize)
    }
}
