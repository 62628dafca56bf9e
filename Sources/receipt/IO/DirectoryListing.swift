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
        // The name's label and, when it is not plain, its bytes. Names, not paths, are collected
        // and sorted: one prefix, and a name of up to 15 bytes is stored inside its String.
        var names: [(label: String, bytes: [UInt8]?)] = []
        var skipped: [(label: String, why: String)] = []
        while let entry = readdir(stream) {
            let name = Self.name(of: entry)
            if name.elementsEqual(".".utf8) || name.elementsEqual("..".utf8) { continue }
            var entryName: (label: String, bytes: [UInt8]?)
            if InputPath.isPlain(name) {
                entryName = (String(decoding: name, as: UTF8.self), nil)
            } else {
                let label = InputPath.label(for: Array(name))
                entryName = (label, label.utf8.elementsEqual(name) ? nil : Array(name))
            }
            let type = entry.pointee.d_type
            var kind: FileKind
            switch type {
            case UInt8(DT_REG): kind = .regular
            case UInt8(DT_DIR): kind = .directory
            case UInt8(DT_FIFO): kind = .namedPipe
            case UInt8(DT_SOCK): kind = .socket
            case UInt8(DT_CHR): kind = .characterDevice
            case UInt8(DT_BLK): kind = .blockDevice
            default: kind = FileKind.of(Self.path(entryName, directory: directory, labelPrefix: labelPrefix, bytePrefix: bytePrefix))
            }
            guard kind != .regular else {
                names.append(entryName)
                continue
            }
            let isLink = type == UInt8(DT_LNK)
            let why = switch kind {
            case .missing: isLink ? "a link to nothing" : "gone while the directory was read"
            case .unexamined: kind.description
            default: (isLink ? "a link to " : "") + kind.description
            }
            skipped.append((entryName.label, why))
        }
        skipped.sort { $0.label < $1.label }
        expansion.skipped += skipped.map { "\(labelPrefix)\($0.label): \($0.why)" }
        guard !names.isEmpty else {
            expansion.emptyDirectories.append(directory.label)
            return
        }
        names.sort { $0.label < $1.label || ($0.label == $1.label && ($0.bytes ?? Array($0.label.utf8)).lexicographicallyPrecedes($1.bytes ?? Array($1.label.utf8))) }
        expansion.inputs.reserveCapacity(expansion.inputs.count + names.count)
        for name in names {
            let path = Self.path(name, directory: directory, labelPrefix: labelPrefix, bytePrefix: bytePrefix)
            expansion.inputs.append(ReceiptInput(label: path.label, source: .file(path)))
        }
    }

    /// The path of the entry `name` of `directory`.
    private static func path(
        _ name: (label: String, bytes: [UInt8]?), directory: InputPath, labelPrefix: String, bytePrefix: [UInt8]
    ) -> InputPath {
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
