import ReceiptCore
import ReceiptEntitlements
/// Reads Apple's `verifyReceipt` request body byte by byte, strictly (RFC 8259): one JSON object,
/// UTF-8, nesting at most ``maximumDepth`` deep, nothing after it but white space.
///
/// The whole body is checked as JSON first: a body that is not JSON is `not_json_object` whatever
/// else is wrong with it. Of the refusals that a well-formed body can earn (a repeated member
/// name, a member of the wrong type, a `receipt-data` that is not UTF-8), the first one in the
/// body is reported.
struct AppleVerifyReceiptRequestReader {
    typealias Refusal = AppleVerifyReceiptRequest.Refusal

    /// The deepest nesting of arrays and objects read (the request object is depth 1).
    static let maximumDepth = 128

    private let bytes: UnsafeBufferPointer<UInt8>
    /// The validator's receipt size limit: a `receipt-data` text beyond its text limit is not
    /// decoded as it is read (``ReceiptLoader/decodeQuotedBase64(_:from:maximumSize:)``).
    private let maximumReceiptSize: Int
    private var index = 0
    /// The first refusal of a well-formed body, reported once the whole body has been read.
    private var refusal: Refusal?

    private init(_ bytes: UnsafeBufferPointer<UInt8>, maximumReceiptSize: Int) {
        self.bytes = bytes
        self.maximumReceiptSize = maximumReceiptSize
    }

    /// The request in `bytes`, or why it is refused; `maximumReceiptSize` is the validator's
    /// (``ReceiptValidator/Configuration/maximumReceiptSize``).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, maximumReceiptSize: Int) -> Result<AppleVerifyReceiptRequest, Refusal> {
        var reader = Self(bytes, maximumReceiptSize: maximumReceiptSize)
        do {
            let request = try reader.readRequest()
            if let refusal = reader.refusal { return .failure(refusal) }
            return .success(request)
        } catch {
            return .failure(error)
        }
    }

    // MARK: The request object

    private mutating func readRequest() throws(Refusal) -> AppleVerifyReceiptRequest {
        var request = AppleVerifyReceiptRequest(receiptData: nil)
        skipWhitespace()
        guard next == UInt8(ascii: "{") else { throw Self.notJSON("it does not start with {") }
        var names: Set<String> = []
        try readMembers(depth: 1) { reader, name throws(Refusal) in
            if !names.insert(name).inserted {
                reader.refuse(.badRequest, AppleVerifyReceiptEndpoint.FailureCode.duplicateMember, "the request has two \"\(name)\" members")
            }
            switch name {
            case "receipt-data": request.receiptDataText = try reader.readReceiptData()
            case "password": request.password = try reader.readStringMember(name).map { reader.string($0) }
            case "exclude-old-transactions": request.excludesOldTransactions = try reader.readBooleanMember(name) ?? false
            default: try reader.skipValue(depth: 1)
            }
        }
        skipWhitespace()
        guard index == bytes.count else { throw Self.notJSON("more follows the object at byte \(index)") }
        return request
    }

    /// `receipt-data`: a string, or null (absent). Plain base64 (symbols, padding, the closing
    /// quote: the common case) is decoded as it is read, in one pass, and the reader goes on past
    /// its quote, where ``readStringText()`` would have stopped with the same text in place;
    /// any other value (and a text too large for ``maximumReceiptSize``, which the validator
    /// then refuses undecoded) is read as ``readStringMember(_:)`` reads it.
    private mutating func readReceiptData() throws(Refusal) -> ReceiptDataText? {
        if next == UInt8(ascii: "\""),
           let quoted = ReceiptLoader.decodeQuotedBase64(bytes, from: index + 1, maximumSize: maximumReceiptSize),
           quoted.end < bytes.count, quoted.end > index {
            let range = (index + 1)..<quoted.end
            index = quoted.end + 1
            return ReceiptDataText(validUTF8: Array(bytes[range]), isPlain: true, decodedBase64: quoted)
        }
        return try readStringMember("receipt-data").map { receiptDataText($0) }
    }

    /// `receipt-data` or `password`: a string, or null (absent).
    private mutating func readStringMember(_ name: String) throws(Refusal) -> StringText? {
        let start = index
        if next == UInt8(ascii: "\"") {
            guard let text = try readStringText() else {
                if name == "receipt-data" {
                    refuse(
                        .malformedReceiptData, AppleVerifyReceiptEndpoint.FailureCode.receiptDataNotUTF8,
                        "receipt-data is not valid UTF-8 (base64 text is ASCII)")
                } else {
                    refuse(.badRequest, AppleVerifyReceiptEndpoint.FailureCode.notJSONObject, "\(name) is not valid UTF-8")
                }
                return nil
            }
            return text
        }
        try skipValue(depth: 1)
        if isNull(from: start) { return nil }
        refuseWrongType(name, expected: "a string", from: start)
        return nil
    }

    /// `exclude-old-transactions`: true, false, or null (absent).
    private mutating func readBooleanMember(_ name: String) throws(Refusal) -> Bool? {
        let start = index
        try skipValue(depth: 1)
        switch bytes[start] {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        case UInt8(ascii: "n"): return nil
        default:
            refuseWrongType(name, expected: "true or false", from: start)
            return nil
        }
    }

    private func isNull(from start: Int) -> Bool {
        bytes[start] == UInt8(ascii: "n")
    }

    private mutating func refuseWrongType(_ name: String, expected: String, from start: Int) {
        let found: String
        switch bytes[start] {
        case UInt8(ascii: "\""): found = "a string"
        case UInt8(ascii: "{"): found = "an object"
        case UInt8(ascii: "["): found = "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): found = "a boolean"
        case UInt8(ascii: "n"): found = "null"
        default: found = "a number"
        }
        refuse(.badRequest, AppleVerifyReceiptEndpoint.FailureCode.wrongMemberType, "\(name) must be \(expected), not \(found)")
    }

    /// Keeps the first refusal of a well-formed body.
    private mutating func refuse(_ status: AppleVerifyReceiptStatus, _ code: String, _ message: String) {
        if refusal == nil { refusal = Refusal(status: status, code: code, message: message) }
    }

    private static func notJSON(_ reason: String) -> Refusal {
        Refusal(
            status: .badRequest, code: AppleVerifyReceiptEndpoint.FailureCode.notJSONObject,
            message: "the request body is not a JSON object: \(reason)")
    }

    // MARK: JSON values

    /// The byte at `index`, or 0 at the end (0 is never valid JSON outside a string).
    private var next: UInt8 { index < bytes.count ? bytes[index] : 0 }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Refusal) {
        guard next == byte else { throw Self.notJSON("\(what) expected at byte \(index)") }
        index += 1
    }

    /// Reads an object's members (at its `{`), handing each name to `member`, which reads the value.
    private mutating func readMembers(
        depth: Int, _ member: (inout Self, String) throws(Refusal) -> Void
    ) throws(Refusal) {
        guard depth <= Self.maximumDepth else { throw Self.notJSON("it nests deeper than \(Self.maximumDepth) levels") }
        try expect(UInt8(ascii: "{"), "{")
        skipWhitespace()
        if next == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard next == UInt8(ascii: "\"") else { throw Self.notJSON("a member name expected at byte \(index)") }
            guard let name = try readString() else { throw Self.notJSON("a member name is not valid UTF-8") }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), ":")
            skipWhitespace()
            try member(&self, name)
            skipWhitespace()
            if next == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"), ", or }")
            return
        }
    }

    /// Checks the value at `index` and moves past it.
    private mutating func skipValue(depth: Int) throws(Refusal) {
        switch next {
        case UInt8(ascii: "{"):
            try readMembers(depth: depth + 1) { reader, _ throws(Refusal) in try reader.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            guard depth + 1 <= Self.maximumDepth else { throw Self.notJSON("it nests deeper than \(Self.maximumDepth) levels") }
            index += 1
            skipWhitespace()
            if next == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if next == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "]"), ", or ]")
                return
            }
        case UInt8(ascii: "\""):
            guard try readStringText() != nil else { throw Self.notJSON("a string is not valid UTF-8") }
        case UInt8(ascii: "t"): try skipLiteral("true")
        case UInt8(ascii: "f"): try skipLiteral("false")
        case UInt8(ascii: "n"): try skipLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
        default: throw Self.notJSON("a value expected at byte \(index)")
        }
    }

    private mutating func skipLiteral(_ literal: StaticString) throws(Refusal) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count,
              UnsafeBufferPointer(start: literal.utf8Start, count: count).elementsEqual(bytes[index..<index + count])
        else { throw Self.notJSON("a value expected at byte \(index)") }
        index += count
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func skipNumber() throws(Refusal) {
        let start = index
        if next == UInt8(ascii: "-") { index += 1 }
        if next == UInt8(ascii: "0") {
            index += 1
        } else {
            guard skipDigits() else { throw Self.notJSON("a number expected at byte \(start)") }
        }
        if next == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() else { throw Self.notJSON("a fraction expected at byte \(index)") }
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            index += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() else { throw Self.notJSON("an exponent expected at byte \(index)") }
        }
    }

    /// Moves past `[0-9]*`; whether there was at least one digit.
    private mutating func skipDigits() -> Bool {
        let start = index
        while (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) { index += 1 }
        return index > start
    }

    /// A string's text as read: where it lies in the body when it has no escapes (then none of
    /// its bytes is a control character, `"` or `\`), else its bytes unescaped; valid UTF-8.
    private enum StringText {
        case inPlace(Range<Int>)
        case unescaped([UInt8])
    }

    /// The text as a `String`.
    private func string(_ text: StringText) -> String {
        switch text {
        case .inPlace(let range): String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        case .unescaped(let unescaped): String(decoding: unescaped, as: UTF8.self)
        }
    }

    /// The text as `receipt-data`: its bytes copied once, plain when read in place.
    private func receiptDataText(_ text: StringText) -> ReceiptDataText {
        switch text {
        case .inPlace(let range): ReceiptDataText(validUTF8: Array(bytes[range]), isPlain: true)
        case .unescaped(let unescaped): ReceiptDataText(validUTF8: unescaped, isPlain: false)
        }
    }

    /// Reads a string (at its opening quote) as a `String`; nil as ``readStringText()``.
    private mutating func readString() throws(Refusal) -> String? {
        try readStringText().map { string($0) }
    }

    /// Reads a string (at its opening quote): its text, or nil when it is well-formed JSON but not
    /// valid Unicode (raw bytes that are not UTF-8, or an escaped lone surrogate).
    private mutating func readStringText() throws(Refusal) -> StringText? {
        let start = index + 1
        index = start
        var isASCII = true
        // The common case, a string without escapes, is read in place; eight bytes at a time while
        // none of them ends it, escapes or is a control character or beyond ASCII (all of the
        // base64 of a receipt: this loop was 4 % of receipt-server's CPU byte by byte).
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            index = JSONStringScan.plainWords(base, from: index, count: bytes.count, stopsBeyondASCII: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let range = start..<index
                index += 1
                guard isASCII || Self.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[range])) else { return nil }
                return .inPlace(range)
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw Self.notJSON("a control character in a string at byte \(index)") }
            isASCII = isASCII && byte < 0x80
            index += 1
        }
        guard index < bytes.count else { throw Self.notJSON("a string is not closed") }
        var unescaped = Array(bytes[start..<index])
        var isUnicode = true
        while true {
            guard index < bytes.count else { throw Self.notJSON("a string is not closed") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard isUnicode, Self.isValidUTF8(unescaped) else { return nil }
                return .unescaped(unescaped)
            case UInt8(ascii: "\\"):
                guard let scalar = try readEscape() else {
                    isUnicode = false
                    continue
                }
                UTF8.encode(scalar) { unescaped.append($0) }
            case 0..<0x20:
                throw Self.notJSON("a control character in a string at byte \(index - 1)")
            default:
                unescaped.append(byte)
            }
        }
    }

    /// Reads an escape (after its backslash): the scalar it stands for, nil for a lone surrogate.
    private mutating func readEscape() throws(Refusal) -> Unicode.Scalar? {
        let letter = next
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(letter)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try readHexUnit()
            if (0xD800..<0xDC00).contains(unit) {
                // A high surrogate stands for a scalar only with a low one after it.
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                index += 2
                let low = try readHexUnit()
                guard (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
            }
            return Unicode.Scalar(UInt32(unit))
        default:
            throw Self.notJSON("an unknown escape at byte \(index - 2)")
        }
    }

    /// Four hex digits.
    private mutating func readHexUnit() throws(Refusal) -> UInt16 {
        guard bytes.count - index >= 4 else { throw Self.notJSON("a \\u escape is cut short") }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = Hex.nibble(bytes[index]) else {
                throw Self.notJSON("a \\u escape has a byte that is not hex at byte \(index)")
            }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }

    private static func isValidUTF8(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
