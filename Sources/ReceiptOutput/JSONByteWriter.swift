#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptCore
import ReceiptEntitlements

/// Writes JSON text straight into a byte buffer, value by value: the one JSON writer of ReceiptKit
/// (the receipt model, Apple's `verifyReceipt` response, entitlements, error objects), used by
/// the `receipt` tool and by `receipt-server`.
///
/// The caller gives the members of each object in sorted order (the order `JSONEncoder` prints
/// with `.sortedKeys`), so nothing is collected, boxed or sorted at run time. Strings are escaped
/// as `JSONEncoder` escapes them with `.withoutEscapingSlashes`: `"` and `\`, the control
/// characters (short forms for backspace, form feed, newline, return and tab, `\u00XX` for the
/// others), and every other character as its UTF-8 bytes. Pretty output has `JSONEncoder`'s
/// `.prettyPrinted` layout: two spaces a level and `"key" : value`.
///
/// Text is written with plain stores after one room check per piece, into a staging buffer:
/// appending to an array byte by byte costs a uniqueness and a capacity check for every byte,
/// which was a third of the writer's time on a 187-purchase receipt. Through
/// ``append(to:pretty:minimumRoom:_:)`` the stage is the output array's own free capacity, so
/// the text is written where it stays (moving it there afterwards was a tenth of the writer's
/// time on that receipt); what does not fit, and everything a writer made with
/// ``init(appendingTo:pretty:stageCapacity:)`` writes, goes through a small stage the writer
/// owns and is moved to `text` a stage at a time.
///
/// Needed by the `Scripts/bench.sh --cli-only` line "--ndjson, real 187iap sha1, one core ≤ 2×
/// the library's warm validation": `JSONEncoder` takes 39.6 million instructions to encode the
/// real 187-purchase receipt (`dump --json`), this writer 0.77 million (`verify --ndjson`,
/// callgrind, static release build), where the library's warm validation of it takes 124 µs.
public struct JSONByteWriter: ~Copyable {
    /// The text moved out of the own stage so far (see ``takeBytes()``); it follows the
    /// `windowCount` bytes in the window.
    private var text: [UInt8]
    /// The staging buffer, `capacity` bytes, of which the first `staged` hold text: the window
    /// while `isInWindow`, else `ownStage`.
    private var stage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var staged = 0
    /// The writer's own stage and its size.
    private let ownStage: UnsafeMutablePointer<UInt8>
    private let ownCapacity: Int
    /// The caller's free memory the text is written into first (``append(to:pretty:minimumRoom:_:)``),
    /// and how many bytes it holds once it is no longer the stage.
    private let window: UnsafeMutablePointer<UInt8>?
    private var windowCount = 0
    /// Whether the stage is still the window.
    private var isInWindow: Bool { stage == window }
    /// Whether to print one member or element a line, indented.
    public let isPretty: Bool
    private var depth = 0
    /// Whether the container being written has no member or element yet.
    private var isEmpty = true
    /// The raw attribute list written last and its text (see ``attributes(_:)``).
    var repeatedAttributes = RepeatedAttributeText()
    /// The text of the day of the date written last (``date(_:)``).
    private var dates = DateTextCache()

    /// The smallest stage: room for the longest fixed piece (an escape, an integer, a date with
    /// its quotes, a compact key, Apple's Pacific date text with its quotes: 41 bytes).
    public static let minimumStageCapacity = 48

    /// A writer appending to `bytes`, staging up to `stageCapacity` bytes (at least
    /// ``minimumStageCapacity``) before moving them there.
    public init(appendingTo bytes: consuming [UInt8] = [], pretty: Bool, stageCapacity: Int = 8 * 1024) {
        self.init(window: nil, pretty: pretty, stageCapacity: stageCapacity)
        self.text = bytes
    }

    /// A writer that writes into `window` (uninitialised memory the caller owns) until it is
    /// full, then into its own stage; see ``append(to:pretty:minimumRoom:_:)``.
    private init(window: UnsafeMutableBufferPointer<UInt8>?, pretty: Bool, stageCapacity: Int = 8 * 1024) {
        self.text = []
        self.isPretty = pretty
        self.ownCapacity = max(Self.minimumStageCapacity, stageCapacity)
        self.ownStage = .allocate(capacity: ownCapacity)
        if let window, let base = window.baseAddress, window.count > 0 {
            self.window = base
            self.stage = base
            self.capacity = window.count
        } else {
            self.window = nil
            self.stage = ownStage
            self.capacity = ownCapacity
        }
    }

    deinit {
        ownStage.deallocate()
    }

    /// Appends to `output` what `body` writes, written in place in `output`'s free capacity (at
    /// least `minimumRoom` bytes of it and at least one, more when the array has more free) and,
    /// for the part that does not fit, appended after `body` returns. (Asking an empty array for
    /// no room at all would store into the runtime's shared empty-array storage.)
    public static func append(
        to output: inout [UInt8], pretty: Bool, minimumRoom: Int = 64 * 1024, _ body: (inout JSONByteWriter) -> Void
    ) {
        let room = max(1, minimumRoom, output.capacity - output.count)
        var rest: [UInt8] = []
        output.append(addingCapacity: room) { span in
            span.withUnsafeMutableBufferPointer { free, initialized in
                var writer = JSONByteWriter(window: UnsafeMutableBufferPointer(rebasing: free[initialized...]), pretty: pretty)
                body(&writer)
                // The window's bytes are initialised; the rest is handed out as an array.
                initialized += writer.isInWindow ? writer.staged : writer.windowCount
                if !writer.isInWindow { rest = writer.takeBytes() }
            }
        }
        output.append(contentsOf: rest)
    }

    /// Writes what `body` writes into `free` (uninitialised memory the caller owns, such as a
    /// `ByteBuffer`'s writable bytes), and what does not fit into `overflow`; returns how many
    /// bytes of `free` now hold text (the text continues in `overflow`, empty when all fitted).
    public static func write(
        into free: UnsafeMutableRawBufferPointer, overflow: inout [UInt8], pretty: Bool, _ body: (inout JSONByteWriter) -> Void
    ) -> Int {
        let window = free.bindMemory(to: UInt8.self)
        var writer = JSONByteWriter(window: window.isEmpty ? nil : window, pretty: pretty)
        body(&writer)
        guard writer.window != nil else {
            overflow = writer.takeBytes()
            return 0
        }
        let written = writer.isInWindow ? writer.staged : writer.windowCount
        if !writer.isInWindow { overflow = writer.takeBytes() }
        return written
    }

    /// Everything written, the text given to ``init(appendingTo:pretty:stageCapacity:)`` first;
    /// the writer is left empty. (Only for a writer without a window: what is in a window is the
    /// caller's, ``append(to:pretty:minimumRoom:_:)`` hands out the rest.)
    public mutating func takeBytes() -> [UInt8] {
        flush()
        var taken: [UInt8] = []
        swap(&taken, &text)
        return taken
    }

    /// How many bytes have been written (the initial text included).
    public var count: Int { windowCount + text.count + staged }

    // MARK: Staging

    /// Moves the staged text to `text`, or, when the stage is the window, leaves it there and
    /// makes the own stage the stage.
    private mutating func flush() {
        if isInWindow {
            windowCount = staged
            stage = ownStage
            capacity = ownCapacity
            staged = 0
            return
        }
        guard staged > 0 else { return }
        text.append(contentsOf: UnsafeBufferPointer(start: stage, count: staged))
        staged = 0
    }

    /// Where to store the next `size` bytes (`size` ≤ ``minimumStageCapacity``); the caller adds
    /// what it stored to `staged`.
    @inline(__always)
    private mutating func room(_ size: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity &- staged < size { flush() }
        return stage + staged
    }

    /// Appends one byte.
    @inline(__always)
    public mutating func byte(_ value: UInt8) {
        room(1).pointee = value
        staged &+= 1
    }

    /// Appends `bytes` as they are, of any length.
    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let size = bytes.count
        if capacity &- staged < size {
            flush()
            guard size <= capacity else {
                text.append(contentsOf: bytes)
                return
            }
        }
        (stage + staged).update(from: base, count: size)
        staged &+= size
    }

    /// Appends ASCII text as it is.
    private mutating func raw(_ value: StaticString) {
        value.withUTF8Buffer { put($0) }
    }

    // MARK: Containers

    /// Opens an object (`{`); give its members with ``key(_:)`` followed by a value.
    public mutating func beginObject() { open(UInt8(ascii: "{")) }

    /// Closes the innermost object.
    public mutating func endObject() { close(UInt8(ascii: "}")) }

    /// Opens an array (`[`); start each element with ``nextElement()``.
    public mutating func beginArray() { open(UInt8(ascii: "[")) }

    /// Closes the innermost array.
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts the next element of an array (writes the separator and, when pretty, the line break).
    public mutating func nextElement() { separate() }

    /// Starts the member `name` of an object; a value must follow.
    @inline(__always)
    public mutating func key(_ name: StaticString) {
        // Compact: the separator, the quoted name and the colon with one room check.
        let size = name.utf8CodeUnitCount
        guard !isPretty, name.hasPointerRepresentation, size &+ 4 <= Self.minimumStageCapacity else {
            name.withUTF8Buffer { spacedKey($0) }
            return
        }
        let out = room(size &+ 4)
        let at = isEmpty ? 0 : 1
        out[0] = UInt8(ascii: ",")
        isEmpty = false
        out[at] = UInt8(ascii: "\"")
        (out + (at &+ 1)).update(from: name.utf8Start, count: size)
        out[at &+ 1 &+ size] = UInt8(ascii: "\"")
        out[at &+ 2 &+ size] = UInt8(ascii: ":")
        staged &+= at &+ size &+ 3
    }

    /// ``key(_:)`` when pretty (`"name" : ` on a new line) or for a name too long for one room check.
    private mutating func spacedKey(_ name: UnsafeBufferPointer<UInt8>) {
        separate()
        byte(UInt8(ascii: "\""))
        put(name)
        let end = room(4)
        end[0] = UInt8(ascii: "\"")
        if isPretty {
            end[1] = 0x20
            end[2] = UInt8(ascii: ":")
            end[3] = 0x20
            staged &+= 4
        } else {
            end[1] = UInt8(ascii: ":")
            staged &+= 2
        }
    }

    /// How many containers are open.
    public var nestingDepth: Int { depth }

    private mutating func open(_ bracket: UInt8) {
        byte(bracket)
        depth += 1
        isEmpty = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if isPretty {
            // JSONEncoder prints an empty container as its brackets around an empty line.
            if isEmpty { byte(0x0A) }
            newline()
        }
        byte(bracket)
        isEmpty = false
    }

    private mutating func separate() {
        if !isEmpty { byte(UInt8(ascii: ",")) }
        isEmpty = false
        if isPretty { newline() }
    }

    private mutating func newline() {
        byte(0x0A)
        for _ in 0..<depth {
            let indent = room(2)
            indent[0] = 0x20
            indent[1] = 0x20
            staged &+= 2
        }
    }

    // MARK: Values

    /// Writes `null`.
    public mutating func null() { raw("null") }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Writes an integer in decimal.
    public mutating func integer(_ value: Int64) {
        let out = room(DecimalDigits.maximumLength)
        staged &+= DecimalDigits.store(value, to: out)
    }

    /// Writes bytes as a lowercase hexadecimal string (the package's one hex digits).
    public mutating func hex(_ value: [UInt8]) {
        byte(UInt8(ascii: "\""))
        value.withUnsafeBufferPointer { input in
            var next = 0
            while next < input.count {
                var fits = (capacity &- staged) / 2
                if fits == 0 {
                    flush()
                    fits = capacity / 2
                }
                let end = min(input.count, next + fits)
                var out = stage + staged
                for index in next..<end {
                    let byte = input[index]
                    out[0] = Hex.digit(byte >> 4)
                    out[1] = Hex.digit(byte & 0x0F)
                    out += 2
                }
                staged &+= 2 * (end - next)
                next = end
            }
        }
        byte(UInt8(ascii: "\""))
    }


    /// Writes a date as the model encodes it: an RFC 3339 `Z` string (``RFC3339/string(from:)``),
    /// the day's text taken from the date before when both fall on one day (`DateTextCache`).
    public mutating func date(_ value: Date) {
        let out = room(RFC3339.maximumCompactLength + 2)
        guard let length = dates.write(value, to: out + 1) else {
            string(RFC3339.string(from: value))
            return
        }
        out[0] = UInt8(ascii: "\"")
        out[length + 1] = UInt8(ascii: "\"")
        staged &+= length + 2
    }

    /// Writes ``AppleDate``'s civil text of `seconds` with `zone` as a JSON string; false (nothing
    /// written) outside the years 0–9999, whose text `AppleDate` composes itself. The text is
    /// ASCII digits, separators and the zone's letters and `/`, none of which JSON escapes.
    mutating func appleCivilText(_ seconds: Int64, zone: StaticString) -> Bool {
        let size = 19 + zone.utf8CodeUnitCount
        guard size + 2 <= Self.minimumStageCapacity else { return false }
        let out = room(size + 2)
        guard let length = AppleDate.writeCivilText(seconds, zone: zone, to: out + 1) else { return false }
        out[0] = UInt8(ascii: "\"")
        out[length + 1] = UInt8(ascii: "\"")
        staged &+= length + 2
        return true
    }

    /// Writes a civil text of ``AppleCivilTexts`` (19 bytes at `text`) and `zone` as a JSON
    /// string: ASCII digits, separators and the zone's letters and `/`, none of which JSON escapes.
    mutating func appleCivilText(_ text: UnsafePointer<UInt8>, zone: StaticString) {
        let length = AppleCivilTexts.length
        zone.withUTF8Buffer { zone in
            // One room check when it fits the smallest stage (both zones do).
            guard let zoneBase = zone.baseAddress, length &+ zone.count &+ 2 <= Self.minimumStageCapacity else {
                byte(UInt8(ascii: "\""))
                put(UnsafeBufferPointer(start: text, count: length))
                put(zone)
                byte(UInt8(ascii: "\""))
                return
            }
            let out = room(length &+ zone.count &+ 2)
            out[0] = UInt8(ascii: "\"")
            (out + 1).update(from: text, count: length)
            (out + 1 + length).update(from: zoneBase, count: zone.count)
            out[length &+ zone.count &+ 1] = UInt8(ascii: "\"")
            staged &+= length &+ zone.count &+ 2
        }
    }

    /// Writes a string, escaped.
    public mutating func string(_ value: String) {
        // Native strings lend their UTF-8 storage; only a bridged one is copied to native first.
        if value.utf8.withContiguousStorageIfAvailable({ appendQuoted($0) }) == nil {
            var value = value
            value.withUTF8 { appendQuoted($0) }
        }
    }

    /// Writes UTF-8 text as a JSON string: between quotes as it is when `isPlain` (none of its
    /// bytes is a control character, `"` or `\`, so there is nothing to escape), else escaped as
    /// ``string(_:)`` escapes.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>, isPlain: Bool) {
        guard isPlain else { return appendQuoted(utf8) }
        byte(UInt8(ascii: "\""))
        put(utf8)
        byte(UInt8(ascii: "\""))
    }

    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        byte(UInt8(ascii: "\""))
        var start = 0
        var index = 0
        let count = utf8.count
        if let base = UnsafeRawPointer(utf8.baseAddress) {
            // Eight bytes at a time while none of them needs an escape (most strings: ids, product
            // names, the echoed receipt), then byte by byte from the word that has one.
            index = JSONStringScan.plainWords(base, from: 0, count: count, stopsBeyondASCII: false)
            // Fewer than eight bytes left, none of the words before needing an escape: the word
            // that ends the string (it overlaps bytes checked already) decides whether the last
            // bytes go byte by byte.
            if index < count, index &+ 8 > count, count >= 8,
               !Self.needsEscape(base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)) {
                index = count
            }
        }
        while index < count {
            let byte = utf8[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                put(UnsafeBufferPointer(rebasing: utf8[start..<index]))
                appendEscape(byte)
                start = index + 1
            }
            index += 1
        }
        put(UnsafeBufferPointer(rebasing: utf8[start...]))
        byte(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes of `word` is a control character, `"` or `\`
    /// (``JSONStringScan/specialBits(_:stopsBeyondASCII:)``; UTF-8 beyond ASCII never matches).
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        JSONStringScan.specialBits(word, stopsBeyondASCII: false) != 0
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
        let out = room(6)
        out[0] = UInt8(ascii: "\\")
        if let short {
            out[1] = short
            staged &+= 2
        } else {
            out[1] = UInt8(ascii: "u")
            out[2] = 0x30
            out[3] = 0x30
            out[4] = Hex.digit(byte >> 4)
            out[5] = Hex.digit(byte & 0x0F)
            staged &+= 6
        }
    }

    // MARK: Repeated text

    /// The text written since `position` (a ``count`` taken earlier).
    mutating func text(since position: Int) -> [UInt8] {
        let flushed = windowCount + text.count
        if position >= flushed {
            return Array(UnsafeBufferPointer(start: stage + (position - flushed), count: count - position))
        }
        flush()
        if position >= windowCount { return Array(text[(position - windowCount)...]) }
        // From the window on: the window's part, then all of `text`.
        guard let window else { return Array(text[position...]) }
        return Array(UnsafeBufferPointer(start: window + position, count: windowCount - position)) + text
    }

    /// Appends `bytes` (text this writer wrote before, see ``text(since:)``) as a complete value.
    mutating func repeatValue(_ bytes: UnsafeBufferPointer<UInt8>) {
        put(bytes)
        isEmpty = false
    }
}
