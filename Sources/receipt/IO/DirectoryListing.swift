#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ReceiptKit

/// What a path names, as `stat(2)` (which follows links) sees it.
enum FileKind: Equatable {
    case regular, directory, other
    /// Nothing: a missing path, or a link whose target is missing.
    case missing

    /// The kind of `path`, following links.
    static func of(_ path: String) -> FileKind {
        var status = stat()
        guard stat(path, &status) == 0 else { return .missing }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        default: return .other
        }
    }
}

/// Lists the receipt files directly inside a directory with `readdir(3)`: an entry whose directory
/// record says it is a regular file is taken without a `stat`; only links (and entries of a file
/// system that does not record types) are looked up, to follow them.
enum DirectoryListing {
    /// Adds the regular files directly inside `path` (and links to regular files), sorted by name,
    /// to `expansion`; reports links that lead nowhere as skipped, an unreadable directory as an
    /// unreadable input and a directory without any receipt file as empty.
    static func add(_ path: String, to expansion: inout ReceiptInput.Expansion) {
        guard let directory = opendir(path) else {
            let reason = String(cString: strerror(errno))
            let failure = ReceiptValidationError(.receiptNotFound, "the directory \(path) could not be read: \(reason)")
            expansion.inputs.append(ReceiptInput(label: path, source: .unreadable(failure)))
            return
        }
        defer { closedir(directory) }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        // Names, not paths, are collected and sorted: the same order (one prefix), and a name of
        // up to 15 bytes is stored inside its String, so that comparing two reads no heap memory.
        var names: [String] = []
        while let entry = readdir(directory) {
            let type = entry.pointee.d_type
            guard type == UInt8(DT_REG) || type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) else { continue }
            guard let name = Self.name(of: entry) else {
                expansion.skipped.append("an entry of \(path) whose name is not UTF-8")
                continue
            }
            guard name != ".", name != ".." else { continue }
            if type != UInt8(DT_REG) {
                let label = prefix + name
                switch FileKind.of(label) {
                case .regular: break
                case .missing:
                    if type == UInt8(DT_LNK) { expansion.skipped.append("\(label): a link to nothing") }
                    continue
                case .directory, .other: continue
                }
            }
            names.append(name)
        }
        guard !names.isEmpty else {
            expansion.emptyDirectories.append(path)
            return
        }
        names.sort()
        expansion.inputs.reserveCapacity(expansion.inputs.count + names.count)
        for name in names {
            let label = prefix + name
            expansion.inputs.append(ReceiptInput(label: label, source: .file(label)))
        }
    }

    /// The entry's name, read in place; `nil` when it is not UTF-8.
    ///
    /// The record `readdir` returns is only `d_reclen` bytes long, which may be shorter than
    /// `struct dirent` (whose `d_name` is declared 256 bytes): the name is read up to its NUL within
    /// the record, never by copying the whole declared field.
    private static func name(of entry: UnsafeMutablePointer<dirent>) -> String? {
        guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return nil }
        let recordLength = Int(entry.pointee.d_reclen)
        let capacity = min(recordLength, MemoryLayout<dirent>.size) - offset
        guard capacity > 0 else { return nil }
        let start = UnsafeRawPointer(entry).advanced(by: offset)
        let length = strnlen(start.assumingMemoryBound(to: CChar.self), capacity)
        let bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: length)
        // ASCII (most names) is valid UTF-8 as it is; only other names go through validation.
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }
}
