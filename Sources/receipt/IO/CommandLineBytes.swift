#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line as the kernel passed it: each argument's bytes, which on Linux need not be
/// UTF-8 (a file name made by another program, in another encoding).
///
/// ArgumentParser reads strings. An argument that is UTF-8 is handed to it as it is; any other
/// argument is handed over as its label (``InputPath``: the bytes escaped), made unique among the
/// arguments, and ``bytes(standingFor:)`` gives the bytes back for a string the parser returns,
/// so that a path named on the command line is opened as the bytes it was given as. (Swift's own
/// `CommandLine.arguments` replaces such bytes with U+FFFD: the file could not be opened.) The
/// value of a `--name=value` argument stands for its own bytes too.
struct CommandLineBytes: Sendable {
    /// The arguments after the tool's name, as ArgumentParser reads them.
    let arguments: [String]
    /// The bytes of each argument (or `--name=` value) that is not UTF-8, by the string standing
    /// for it in ``arguments``.
    private let stand: [String: [UInt8]]

    /// This process's command line.
    static let current = CommandLineBytes(
        (1..<Int(CommandLine.argc)).map { index in
            CommandLine.unsafeArgv[index].map { pointer in
                Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            } ?? []
        })

    /// A command line of `raw` arguments (after the tool's name).
    init(_ raw: [[UInt8]]) {
        // What every UTF-8 argument reads as, whole and after a `=` (the parser splits
        // `--name=value`): no string standing for bytes may read as one of them.
        var taken = Set<String>()
        for argument in raw {
            guard let text = String(validating: argument, as: UTF8.self) else { continue }
            taken.insert(text)
            if let equals = text.firstIndex(of: "=") { taken.insert(String(text[text.index(after: equals)...])) }
        }
        var stand: [String: [UInt8]] = [:]
        func standIn(for bytes: [UInt8]) -> String {
            var key = InputPath.label(for: bytes)
            while taken.contains(key) { key += "\u{FFFD}" }
            taken.insert(key)
            stand[key] = bytes
            return key
        }
        arguments = raw.map { argument in
            if let text = String(validating: argument, as: UTF8.self) { return text }
            // `--name=value`, the name UTF-8: the value stands for its own bytes.
            if argument.starts(with: "--".utf8), let equals = argument.firstIndex(of: UInt8(ascii: "=")),
               let name = String(validating: argument[..<equals], as: UTF8.self) {
                let value = standIn(for: Array(argument[(equals + 1)...]))
                let whole = name + "=" + value
                taken.insert(whole)
                stand[whole] = argument
                return whole
            }
            return standIn(for: argument)
        }
        self.stand = stand
    }

    /// The bytes `string` stands for, when it is (or is the `--name=` value of) an argument that
    /// is not UTF-8; nil for any other string.
    func bytes(standingFor string: String) -> [UInt8]? {
        stand[string]
    }
}
