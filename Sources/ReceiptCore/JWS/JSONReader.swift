/// A strict, bounded JSON reader (RFC 8259) for the header and payload of a JWS.
///
/// Bounded work on any input: one pass over at most the token's bytes, nesting limited to
/// ``maximumDepth`` (checked before descending, so no recursion beyond it), no number conversion
/// (numbers are kept as text). Refused: invalid UTF-8, control characters in strings, lone
/// surrogates, duplicate member names, anything after the value but whitespace.
package struct JSONReader {
    /// The deepest nesting of arrays and objects accepted (Apple's payloads use 3).
    package static let maximumDepth = 16

    private let bytes: ArraySlice<UInt8>
    private var position: Int

    private init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    /// The JSON value that fills `bytes`, or a description of why it is not one.
    package static func read(_ bytes: ArraySlice<UInt8>) -> Result<JSONValue, JSONReadError> {
        var reader = JSONReader(bytes)
        do throws(JSONReadError) {
            reader.skipWhitespace()
            let value = try reader.value(depth: 0)
            reader.skipWhitespace()
            guard reader.position == bytes.endIndex else { throw reader.failure("trailing bytes after the JSON value") }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    private func failure(_ reason: String) -> JSONReadError {
        JSONReadError(reason: reason, offset: position - bytes.startIndex)
    }

    private mutating func skipWhitespace() {
        while position < bytes.endIndex {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONReadError) -> JSONValue {
        guard position < bytes.endIndex else { throw failure("unexpected end of JSON") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw failure("JSON nested deeper than \(Self.maximumDepth) levels") }
            return try object(depth: depth + 1)
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw failure("JSON nested deeper than \(Self.maximumDepth) levels") }
            return try array(depth: depth + 1)
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        default:
            throw failure("unexpected character in JSON")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONReadError) {
        let count = word.utf8CodeUnitCount
        guard bytes.endIndex - position >= count else { throw failure("unexpected end of JSON") }
        let matches = word.withUTF8Buffer { expected in
            bytes[position..<(position + count)].elementsEqual(expected)
        }
        guard matches else { throw failure("unexpected literal in JSON") }
        position += count
    }

    private mutating func object(depth: Int) throws(JSONReadError) -> JSONValue {
        position += 1  // {
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if position < bytes.endIndex, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.endIndex, bytes[position] == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let name = try string()
            skipWhitespace()
            guard position < bytes.endIndex, bytes[position] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            position += 1
            skipWhitespace()
            let member = try value(depth: depth)
            guard members.updateValue(member, forKey: name) == nil else {
                var error = failure("duplicate member \"\(name)\"")
                error.duplicateMemberName = name
                throw error
            }
            skipWhitespace()
            guard position < bytes.endIndex else { throw failure("unexpected end of JSON") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard bytes[position] == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
            position += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(JSONReadError) -> JSONValue {
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.endIndex, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            guard position < bytes.endIndex else { throw failure("unexpected end of JSON") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard bytes[position] == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
            position += 1
            return .array(elements)
        }
    }

    private mutating func number() throws(JSONReadError) -> String {
        let start = position
        func digits() -> Int {
            let first = position
            while position < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return position - first
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.endIndex else { throw failure("incomplete number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            guard digits() > 0 else { throw failure("incomplete number") }
        }
        if position < bytes.endIndex, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw failure("incomplete fraction") }
        }
        if position < bytes.endIndex, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.endIndex, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else { throw failure("incomplete exponent") }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func string() throws(JSONReadError) -> String {
        position += 1  // "
        var output: [UInt8] = []
        var runStart = position
        while true {
            guard position < bytes.endIndex else { throw failure("unterminated string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                output.append(contentsOf: bytes[runStart..<position])
                position += 1
                break
            }
            if byte < 0x20 { throw failure("control character in a string") }
            if byte == UInt8(ascii: "\\") {
                output.append(contentsOf: bytes[runStart..<position])
                position += 1
                try escape(into: &output)
                runStart = position
                continue
            }
            position += 1
        }
        // Decoding replaces an invalid sequence with U+FFFD, so valid UTF-8 is exactly what round-trips.
        let text = String(decoding: output, as: UTF8.self)
        guard text.utf8.elementsEqual(output) else { throw failure("a string is not valid UTF-8") }
        return text
    }

    private mutating func escape(into output: inout [UInt8]) throws(JSONReadError) {
        guard position < bytes.endIndex else { throw failure("unterminated escape") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard bytes.endIndex - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                else { throw failure("lone surrogate") }
                position += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("lone surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw failure("lone surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid \\u escape") }
            UTF8.encode(unicode) { output.append($0) }
        default:
            throw failure("invalid escape")
        }
    }

    private mutating func hex4() throws(JSONReadError) -> UInt32 {
        guard bytes.endIndex - position >= 4 else { throw failure("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Hex.nibble(bytes[position]) else { throw failure("invalid \\u escape") }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}

/// Why bytes are not JSON as ReceiptKit reads it (``JSONValue/init(reading:)``).
public struct JSONReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, e.g. `duplicate member "signedPayload"`.
    public var reason: String
    /// Where, in bytes from the start of the JSON text.
    public var offset: Int
    /// The member name, when the text names one member twice in an object (which of two values
    /// a reader keeps differs between readers, so neither is taken).
    public var duplicateMemberName: String?

    /// A read error.
    package init(reason: String, offset: Int, duplicateMemberName: String? = nil) {
        self.reason = reason
        self.offset = offset
        self.duplicateMemberName = duplicateMemberName
    }

    /// `reason at byte offset`.
    public var description: String { "\(reason) at byte \(offset)" }
}
