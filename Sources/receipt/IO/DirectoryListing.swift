#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ReceiptKit

/// Lists the receipt files directly inside a directory with `readdir(3)`, names as bytes.
///
/// Only regular files (and links to them) are read; every other entry (a subdirectory, a named
/// pipe, a socket, a device, a link to nothing or to any of those) is skipped, with one line
/// saying why, and counted as unreadable. Directories are not read recursively. An entry the
/// directory record says is a regular file is taken without a `stat`; only links (and entries of
/// a file system that does not record types) are looked up, to follow them. Names are sorted as
/// their labels (``InputPath``) sort, equal labels by their bytes.
enum DirectoryListing {
    /// Adds the regular files directly inside `directory` (and links to regular files), sorted
    /// by name, to `expansion`; every other entry goes to its skipped entries, an unreadable
    /// directory becomes an unreadable input, a directory without any receipt file an empty one.
    static func add(_ directory: InputPath, to expansion: inout ReceiptInput.Expansion) {
        guard let stream = directory.withCString({ opendir($0) }) else {
            let reason = String(cString: strerror(errno))
            let failure = ReceiptValidationError(.receiptNotFound, "the directory \(directory.label) could not be read: \(reason)")
            expansion.inputs.append(ReceiptInput(label: directory.label, source: .unreadable(failure)))
            return
        }
        defer { closedir(stream) }
        // A trailing `/` is ASCII: it ends the label exactly when it ends the path.
        let separator = directory.label.hasSuffix("/") ? "" : "/"
        let labelPrefix = directory.label + separator
        let bytePrefix = directory.bytes + Array(separator.utf8)
        // Plain names (printable ASCII, no backslash: nearly every name), the label of each its
        // bytes, are gathered in one buffer and sorted as bytes; the others, each with its label,
        // apart (see ``sorted(_:others:)``).
        var plain = PlainNames()
        var others: [Name] = []
        var skipped: [(label: String, why: String)] = []
        while let entry = readdir(stream) {
            let name = Self.name(of: entry)
            // "." and "..": the directory itself and its parent.
            if name.first == UInt8(ascii: "."), name.count == 1 || (name.count == 2 && name[1] == UInt8(ascii: ".")) { continue }
            let isPlain = InputPath.isPlain(name)
            let type = entry.pointee.d_type
            var kind: FileKind
            switch type {
            case UInt8(DT_REG): kind = .regular
            case UInt8(DT_DIR): kind = .directory
            case UInt8(DT_FIFO): kind = .namedPipe
            case UInt8(DT_SOCK): kind = .socket
            case UInt8(DT_CHR): kind = .characterDevice
            case UInt8(DT_BLK): kind = .blockDevice
            default: kind = FileKind.of(Self.path(Name(name, isPlain: isPlain), directory: directory, labelPrefix: labelPrefix, bytePrefix: bytePrefix))
            }
            guard kind != .regular else {
                if isPlain { plain.append(name) } else { others.append(Name(name, isPlain: false)) }
                continue
            }
            let isLink = type == UInt8(DT_LNK)
            let why = switch kind {
            case .missing: isLink ? "a link to nothing" : "gone while the directory was read"
            case .unexamined: kind.description
            default: (isLink ? "a link to " : "") + kind.description
            }
            skipped.append((Name(name, isPlain: isPlain).label, why))
        }
        skipped.sort { $0.label < $1.label }
        expansion.skipped += skipped.map { "\(labelPrefix)\($0.label): \($0.why)" }
        guard plain.count + others.count > 0 else {
            expansion.emptyDirectories.append(directory.label)
            return
        }
        expansion.inputs.append(DirectoryFiles(
            directory: directory, labelPrefix: labelPrefix, bytePrefix: bytePrefix, plain: plain, others: others))
    }

    /// A directory entry's name: its label and, when the label is not the name itself, its bytes.
    struct Name: Sendable {
        /// How the name is shown (``InputPath/label(for:)``).
        var label: String
        /// The name's bytes when they differ from the label's UTF-8.
        var bytes: [UInt8]?

        /// The name whose label is `label` and, when they differ from the label's UTF-8, bytes `bytes`.
        init(label: String, bytes: [UInt8]?) {
            self.label = label
            self.bytes = bytes
        }

        /// The name `bytes`, `isPlain` when ``InputPath/isPlain(_:)`` holds for them.
        init(_ bytes: UnsafeBufferPointer<UInt8>, isPlain: Bool) {
            if isPlain {
                label = String(decoding: bytes, as: UTF8.self)
            } else {
                label = InputPath.label(for: Array(bytes))
                self.bytes = label.utf8.elementsEqual(bytes) ? nil : Array(bytes)
            }
        }

        /// Whether `self` is listed before `other`: by label, equal labels by their bytes.
        func precedes(_ other: Name) -> Bool {
            label < other.label || (label == other.label && (bytes ?? Array(label.utf8)).lexicographicallyPrecedes(other.bytes ?? Array(other.label.utf8)))
        }
    }

    /// Plain names (``InputPath/isPlain(_:)``) one after another in one buffer: no allocation of
    /// their own, and sorted by comparing bytes.
    struct PlainNames: Sendable {
        /// Where a name lies in ``bytes``, and its first 8 bytes as one big-endian number (zeros
        /// after a shorter name's end), which orders most pairs of names without reading them.
        struct Entry: Sendable {
            var prefix: UInt64
            var start: Int
            var count: Int
        }

        /// The names' bytes, one after another.
        private(set) var bytes: [UInt8] = []
        /// Where each name lies in ``bytes``, in the order they were added.
        private(set) var entries: [Entry] = []

        /// How many names there are.
        var count: Int { entries.count }

        /// Adds the name `name`.
        mutating func append(_ name: UnsafeBufferPointer<UInt8>) {
            var prefix: UInt64 = 0
            var offset = 0
            while offset < 8, offset < name.count {
                prefix |= UInt64(name[offset]) << (56 - 8 * offset)
                offset += 1
            }
            entries.append(Entry(prefix: prefix, start: bytes.count, count: name.count))
            bytes.append(contentsOf: name)
        }

        /// The ranges of the names, sorted by the names' bytes (a name before the longer names it
        /// begins). Two names' prefixes compare as their first 8 bytes do: a name holds no zero
        /// byte, so a shorter name's zeros sort before any byte of a longer one.
        func sortedRanges() -> [Range<Int>] {
            var sorted = entries
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                sorted.sort { first, second in
                    if first.prefix != second.prefix { return first.prefix < second.prefix }
                    // The first 8 bytes (or all of both names) are equal: the rest decides.
                    let common = min(first.count, second.count)
                    if common > 8 {
                        let order = memcmp(base + first.start + 8, base + second.start + 8, common - 8)
                        if order != 0 { return order < 0 }
                    }
                    return first.count < second.count
                }
            }
            return sorted.map { $0.start..<($0.start + $0.count) }
        }
    }

    /// A name of a listing, in the order it is listed.
    enum Listed: Sendable {
        /// A plain name: where its bytes, which are its label, lie in ``PlainNames/bytes``.
        case plain(Range<Int>)
        /// Any other name: its index among the names that are not plain.
        case other(Int)
    }

    /// The names `plain` and `others` in listing order, ``Name/precedes(_:)``.
    ///
    /// A plain name's label is its bytes, printable ASCII, on which `String`'s order is the order
    /// of the bytes: so the plain names are sorted as bytes, without a `String` each (the test
    /// `plainNamesSortAsLabels` checks the two orders agree). Names that are not plain (rare) are
    /// sorted by ``Name/precedes(_:)`` and merged in, each compared with the plain names' labels.
    static func sorted(_ plain: PlainNames, others: [Name]) -> [Listed] {
        let plainRanges = plain.sortedRanges()
        guard !others.isEmpty else { return plainRanges.map { .plain($0) } }
        let sortedOthers = others.indices.sorted { others[$0].precedes(others[$1]) }
        var merged: [Listed] = []
        merged.reserveCapacity(plainRanges.count + sortedOthers.count)
        var nextPlain = 0
        for other in sortedOthers {
            while nextPlain < plainRanges.count {
                let range = plainRanges[nextPlain]
                let name = Name(label: String(decoding: plain.bytes[range], as: UTF8.self), bytes: nil)
                guard name.precedes(others[other]) else { break }
                merged.append(.plain(range))
                nextPlain += 1
            }
            merged.append(.other(other))
        }
        merged += plainRanges[nextPlain...].map { .plain($0) }
        return merged
    }

    /// The path of the entry `name` of `directory`.
    static func path(_ name: Name, directory: InputPath, labelPrefix: String, bytePrefix: [UInt8]) -> InputPath {
        if directory.isShownAsItIs, name.bytes == nil { return InputPath(plain: labelPrefix + name.label) }
        return InputPath(bytes: bytePrefix + (name.bytes ?? Array(name.label.utf8)))
    }

    /// The entry's name, read in place (valid until the next `readdir`).
    ///
    /// The record `readdir` returns is only `d_reclen` bytes long, which may be shorter than
    /// `struct dirent` (whose `d_name` is declared 256 bytes): the name is read up to its NUL within
    /// the record, never by copying the whole declared field.
    private static func name(of entry: UnsafeMutablePointer<dirent>) -> UnsafeBufferPointer<UInt8> {
        guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return UnsafeBufferPointer(start: nil, count: 0) }
        let recordLength = Int(entry.pointee.d_reclen)
        let capacity = min(recordLength, MemoryLayout<dirent>.size) - offset
        guard capacity > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        let start = UnsafeRawPointer(entry).advanced(by: offset)
        let length = strnlen(start.assumingMemoryBound(to: CChar.self), capacity)
        return UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: length)
    }
}
