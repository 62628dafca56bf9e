#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// Writes JSON text straight into a byte buffer, value by value, for the tool's fixed schemas.
///
/// The caller gives the members of each object in sorted order (the order `JSONEncoder` prints
/// with `.sortedKeys`), so nothing is collected, boxed or sorted at run time. Strings are escaped
/// as `JSONEncoder` escapes them with `.withoutEscapingSlashes`: `"` and `\`, the control
/// characters (short forms for backspace, form feed, newline, return and tab, `\u00XX` for the
/// others), and every other character as its UTF-8 bytes. Pretty output has `JSONEncoder`'s
/// `.prettyPrinted` layout: two spaces a level and `"key" : value`.
struct JSONByteWriter {
    /// The JSON text written so far.
    var bytes: [UInt8]
    /// Whether to print one member or element a line, indented.
    let isPretty: Bool
    private var depth = 0
    /// Whether the container being written has no member or element yet.
    private var isEmpty = true
    /// The raw attribute list written last and its text (see ``attributes(_:)``).
    var lastAttributes: (list: [ReceiptAttribute], text: [UInt8], depth: Int)?

    /// A writer appending to `bytes`.
    init(appendingTo bytes: [UInt8] = [], pretty: Bool) {
        self.bytes = bytes
        self.isPretty = pretty
    }

    // MARK: Containers

    /// Opens an object (`{`); give its members with ``key(_:)`` followed by a value.
    mutating func beginObject() { open(UInt8(ascii: "{")) }

    /// Closes the innermost object.
    mutating func endObject() { close(UInt8(ascii: "}")) }

    /// Opens an array (`[`); start each element with ``nextElement()``.
    mutating func beginArray() { open(UInt8(ascii: "[")) }

    /// Closes the innermost array.
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts the next element of an array (writes the separator and, when pretty, the line break).
    mutating func nextElement() { separate() }

    /// Starts the member `name` of an object; a value must follow.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        if isPretty { bytes.append(0x20) }
        bytes.append(UInt8(ascii: ":"))
        if isPretty { bytes.append(0x20) }
    }

    /// How many containers are open.
    var nestingDepth: Int { depth }

    /// Records that a whole value was appended to ``bytes`` directly (as a closed container).
    mutating func noteValueWritten() { isEmpty = false }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        depth += 1
        isEmpty = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if isPretty {
            // JSONEncoder prints an empty container as its brackets around an empty line.
            if isEmpty { bytes.append(0x0A) }
            newline()
        }
        bytes.append(bracket)
        isEmpty = false
    }

    private mutating func separate() {
        if !isEmpty { bytes.append(UInt8(ascii: ",")) }
        isEmpty = false
        if isPretty { newline() }
    }

    private mutating func newline() {
        bytes.append(0x0A)
        for _ in 0..<depth { raw("  ") }
    }

    // MARK: Values

    /// Writes `null`.
    mutating func null() { raw("null") }

    /// Appends ASCII text as it is.
    private mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Writes `true` or `false`.
    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Writes an integer in decimal.
    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        if magnitude < 10 {
            bytes.append(UInt8(truncatingIfNeeded: magnitude) &+ 0x30)
            return
        }
        var count = 0
        var rest = magnitude
        while rest != 0 {
            count += 1
            rest /= 10
        }
        let end = bytes.count + count
        bytes.append(contentsOf: repeatElement(0x30, count: count))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var rest = magnitude
            var index = end
            while rest != 0 {
                index -= 1
                buffer[index] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            }
        }
    }

    /// Writes bytes as a lowercase hexadecimal string.
    mutating func hex(_ value: [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0x30, count: value.count * 2))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var index = start
            for byte in value {
                buffer[index] = Self.hexDigit(byte >> 4)
                buffer[index + 1] = Self.hexDigit(byte & 0x0F)
                index += 2
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The lowercase hexadecimal digit of a nibble.
    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? nibble &+ 0x30 : nibble &+ 0x57
    }

    /// Writes a date as the model encodes it: an RFC 3339 `Z` string (``RFC3339/string(from:)``).
    mutating func date(_ value: Date) {
        bytes.append(UInt8(ascii: "\""))
        RFC3339.append(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a string, escaped.
    mutating func string(_ value: String) {
        // Native strings lend their UTF-8 storage; only a bridged one is copied to native first.
        if value.utf8.withContiguousStorageIfAvailable({ appendQuoted($0) }) == nil {
            var value = value
            value.withUTF8 { appendQuoted($0) }
        }
    }

    private mutating func string(_ value: StaticString) {
        value.withUTF8Buffer { appendQuoted($0) }
    }

    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var start = 0
        for index in utf8.indices {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
            appendEscape(byte)
            start = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ byte: UInt8) {
        let short: UInt8? = switch byte {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case 0x08: UInt8(ascii: "b")
        case 0x0C: UInt8(ascii: "f")
        case 0x0A: UInt8(ascii: "n")
        case 0x0D: UInt8(ascii: "r")
        case 0x09: UInt8(ascii: "t")
        default: nil
        }
        bytes.append(UInt8(ascii: "\\"))
        if let short {
            bytes.append(short)
        } else {
            bytes.append(UInt8(ascii: "u"))
            bytes.append(0x30)
            bytes.append(0x30)
            bytes.append(Self.hexDigit(byte >> 4))
            bytes.append(Self.hexDigit(byte & 0x0F))
        }
    }
}
