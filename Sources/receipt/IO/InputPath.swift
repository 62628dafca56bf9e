#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ReceiptCore

/// A path as the file system holds it, bytes (on Linux any bytes but NUL, not necessarily
/// UTF-8), and as the tool shows it, ``label``.
///
/// The label is the path itself when the path is UTF-8 without control characters or
/// backslashes (nearly every path); otherwise it is escaped: `\\` for a backslash, `\xHH`
/// (lowercase) for each byte of a control character (C0, DEL, C1) and for each byte that is not
/// part of valid UTF-8, every other character as it is. Two paths never share a label, and a
/// label never holds a byte that would reach the terminal as a control.
struct InputPath: Sendable, Hashable {
    /// How the tool shows the path.
    let label: String
    /// The path's bytes when they differ from the label's UTF-8 (nil in the usual case, where the
    /// label is the path).
    private let escapedBytes: [UInt8]?

    /// The path whose bytes are `bytes`.
    init(bytes: [UInt8]) {
        let label = Self.label(for: bytes)
        self.label = label
        escapedBytes = label.utf8.elementsEqual(bytes) ? nil : bytes
    }

    /// A path shown as it is: `label`'s UTF-8 is the path (the caller has checked that it needs
    /// no escape, see ``isPlain(_:)``).
    init(plain label: String) {
        self.label = label
        escapedBytes = nil
    }

    /// The path named by a command-line argument as ArgumentParser hands it back: its bytes as
    /// the kernel passed them (``CommandLineBytes``), which need not be UTF-8.
    init(argument: String) {
        if let bytes = CommandLineBytes.current.bytes(standingFor: argument) {
            self.init(bytes: bytes)
        } else {
            self.init(bytes: Array(argument.utf8))
        }
    }

    /// The path's bytes.
    var bytes: [UInt8] { escapedBytes ?? Array(label.utf8) }

    /// Whether the label is the path itself (no escape needed).
    var isShownAsItIs: Bool { escapedBytes == nil }

    /// Calls `body` with the path as a NUL-terminated C string.
    func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        guard let escapedBytes else { return try label.withCString(body) }
        return try (escapedBytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// Whether `bytes` are printable ASCII without a backslash: shown as they are, without
    /// looking further.
    static func isPlain(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }
    }

    /// The label of the path `bytes` (see ``InputPath``).
    static func label(for bytes: [UInt8]) -> String {
        if isPlain(bytes) { return String(decoding: bytes, as: UTF8.self) }
        var label = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = 0
        func escape(_ byte: UInt8) {
            label += "\\x" + Hex.encode(CollectionOfOne(byte))
        }
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    encoded.forEach(escape)
                } else if scalar == "\\" {
                    label += "\\\\"
                } else {
                    label.unicodeScalars.append(scalar)
                }
                position += encoded.count
            case .error(let length):
                bytes[position..<(position + length)].forEach(escape)
                position += length
            case .emptyInput:
                return label
            }
        }
    }
}

/// What a path names, as `stat(2)` (which follows links) sees it.
enum FileKind: Equatable {
    case regular, directory, namedPipe, socket, characterDevice, blockDevice, other
    /// Nothing: a missing path, or a link whose target is missing.
    case missing
    /// `stat` failed for another reason (`errno`): a loop of links, a directory it may not search.
    case unexamined(Int32)

    /// The kind of `path`, following links.
    static func of(_ path: InputPath) -> FileKind {
        var status = stat()
        guard path.withCString({ stat($0, &status) }) == 0 else { return errno == ENOENT ? .missing : .unexamined(errno) }
        return of(mode: status.st_mode)
    }

    /// The kind a `stat` mode names.
    static func of(mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        case S_IFIFO: .namedPipe
        case S_IFSOCK: .socket
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        default: .other
        }
    }

    /// What a directory entry of this kind is, for the line that says it was skipped.
    var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory (directories are not read recursively)"
        case .namedPipe: "a named pipe (FIFO), not a regular file"
        case .socket: "a socket, not a regular file"
        case .characterDevice: "a character device, not a regular file"
        case .blockDevice: "a block device, not a regular file"
        case .other: "not a regular file"
        case .missing: "missing"
        case .unexamined(let code): "could not be examined: \(String(cString: strerror(code)))"
        }
    }
}
