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
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        if isPretty {
            bytes.append(contentsOf: [UInt8(ascii: "\""), 0x20, UInt8(ascii: ":"), 0x20])
        } else {
            bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
    }

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
        for _ in 0..<depth { bytes.append(contentsOf: [0x20, 0x20]) }
    }

    // MARK: Values

    /// Writes `null`.
    mutating func null() { bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    /// Writes `true` or `false`.
    mutating func bool(_ value: Bool) {
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        }
    }

    /// Writes an integer in decimal.
    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64.max's 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[24 - count] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
                magnitude /= 10
            } while magnitude != 0
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
    }

    /// Writes bytes as a lowercase hexadecimal string.
    mutating func hex(_ value: [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        bytes.reserveCapacity(bytes.count + value.count * 2 + 1)
        for byte in value {
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Writes a date as the model encodes it: an RFC 3339 `Z` string (``RFC3339/string(from:)``).
    mutating func date(_ value: Date) {
        string(RFC3339.string(from: value))
    }

    /// Writes a string, escaped.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { appendQuoted($0) }
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
            bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0x0F)]])
        }
    }
}
