/// The decoded content of one receipt attribute value: a single TLV inside the OCTET STRING.
enum ASN1Value: Hashable, Sendable {
    /// A UTF8String, IA5String, PrintableString or VisibleString.
    case string(String)
    /// An INTEGER that fits in `Int64`.
    case integer(Int64)
    /// An INTEGER too large for `Int64` (content octets).
    case largeInteger([UInt8])
    /// Any other single TLV (identifier octet).
    case other(UInt8)

    /// Why a value could not be decoded, with the offset relative to the value's start.
    struct Failure: Error {
        var relativeOffset: Int
        var reason: String
    }

    /// Decodes exactly one TLV spanning all of `bytes` (its header read by ``BERReader``: any
    /// definite length of up to four octets, minimal or not).
    static func decode(_ bytes: ArraySlice<UInt8>) throws(Failure) -> ASN1Value {
        let start = bytes.startIndex
        guard bytes.count >= 2 else {
            throw Failure(relativeOffset: 0, reason: "value too short for an ASN.1 element")
        }
        let header: BERReader.Header
        do {
            header = try BERReader.header(bytes, at: start, limit: bytes.endIndex)
        } catch {
            throw Failure(relativeOffset: error.offset - start, reason: "unsupported or truncated value header: \(error.reason)")
        }
        let contentStart = header.contentStart
        guard let length = header.length else {
            throw Failure(relativeOffset: header.lengthOffset - start, reason: "indefinite length in a value")
        }
        guard length == bytes.endIndex - contentStart else {
            throw Failure(
                relativeOffset: header.lengthOffset - start,
                reason: "value length \(length) does not match the \(bytes.endIndex - contentStart) byte(s) present"
            )
        }
        guard let tag = header.identifier else { return .other(bytes[start]) }
        let content = bytes[contentStart...]
        switch tag {
        case .utf8String:
            // ASCII is valid UTF-8 as it stands: skip the generic validating initializer.
            if content.allSatisfy({ $0 < 0x80 }) {
                return .string(String(decoding: content, as: UTF8.self))
            }
            guard let text = String(validating: content, as: UTF8.self) else {
                throw Failure(relativeOffset: contentStart - start, reason: "UTF8String is not valid UTF-8")
            }
            return .string(text)
        case .ia5String, .printableString, .visibleString:
            guard content.allSatisfy({ $0 < 0x80 }) else {
                throw Failure(relativeOffset: contentStart - start, reason: "ASCII string holds a non-ASCII byte")
            }
            return .string(String(decoding: content, as: UTF8.self))
        case .integer:
            guard !content.isEmpty else {
                throw Failure(relativeOffset: contentStart - start, reason: "INTEGER without content octets")
            }
            if let number = ASN1Integer.decode(content) { return .integer(number) }
            return .largeInteger(Array(content))
        default:
            return .other(tag.octet)
        }
    }
}
