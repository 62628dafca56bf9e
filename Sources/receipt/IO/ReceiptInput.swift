#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// One receipt to verify, as named on the command line (a file, a file found in a directory, or stdin).
struct ReceiptInput: Sendable {
    /// Where the receipt's bytes come from.
    enum Source: Sendable {
        /// A file, read by the loader (DER/BER or base64, detected by the loader).
        case file(InputPath)
        /// Bytes already read (standard input).
        case bytes([UInt8])
        /// The input could not be read at all; the error says why.
        case unreadable(ReceiptValidationError)
    }

    /// The name standard input has in every output format.
    static let standardInputLabel = "-"

    /// The name shown in the output: the path as given, `dir/name` for a directory entry (each
    /// escaped when it must be, see ``InputPath``), ``standardInputLabel`` for stdin.
    var label: String
    /// Where the bytes come from.
    var source: Source

    /// The inputs named by the command line, and what the expansion has to tell.
    struct Expansion: Sendable {
        /// Every input, in command-line order (a directory's files sorted by name).
        var inputs = ReceiptInputs()
        /// Directory entries left out, each `label: why` (printed on stderr, counted as
        /// unreadable): anything but a regular file or a link to one.
        var skipped: [String] = []
        /// Directories holding no receipt file at all (an error: exit status 3).
        var emptyDirectories: [String] = []
    }

    /// Expands command-line arguments into inputs: `-` is standard input (at most once), a directory
    /// is every regular file directly inside it (or link to one) sorted by name, anything else is a
    /// file. Each path is the bytes the argument was given as (``InputPath/init(argument:)``).
    /// - Parameter maximumSize: How many bytes of standard input to read at most (one more is read
    ///   so that the validator can report the input as too large).
    static func expand(_ arguments: [String], maximumSize: Int) -> Expansion {
        var expansion = Expansion()
        for argument in arguments {
            if argument == "-" {
                expansion.inputs.append(ReceiptInput(label: standardInputLabel, source: readStandardInput(maximumSize: maximumSize)))
            } else {
                let path = InputPath(argument: argument)
                if FileKind.of(path) == .directory {
                    DirectoryListing.add(path, to: &expansion)
                } else {
                    expansion.inputs.append(ReceiptInput(label: path.label, source: fileSource(path)))
                }
            }
        }
        return expansion
    }

    /// The input a single argument names (`dump`, `entitlements`, `timeline`): `-` is standard
    /// input, anything else a file.
    static func single(_ argument: String) -> ReceiptInput {
        guard argument != "-" else {
            return ReceiptInput(label: standardInputLabel, source: readStandardInput(maximumSize: ReceiptLoader.maximumReceiptSize))
        }
        let path = InputPath(argument: argument)
        return ReceiptInput(label: path.label, source: fileSource(path))
    }

    /// The source for a path that is not `-`: the file, or unreadable when the path is empty
    /// (which names no file).
    private static func fileSource(_ path: InputPath) -> Source {
        guard !path.label.isEmpty else {
            return .unreadable(ReceiptValidationError(.receiptNotFound, "An empty path names no receipt file."))
        }
        return .file(path)
    }

    /// Reads standard input to its end, or to one byte past `maximumSize`.
    private static func readStandardInput(maximumSize: Int) -> Source {
        do {
            // One byte past the limit, when there is one, so that the loader names the limit.
            return .bytes(try FileContents.read(descriptor: 0, upTo: maximumSize < Int.max ? maximumSize + 1 : maximumSize))
        } catch {
            return .unreadable(ReceiptValidationError(.receiptNotFound, "standard input could not be read: \(error)"))
        }
    }
}
