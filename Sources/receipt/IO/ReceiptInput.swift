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
        /// A file path, read by the validator (DER/BER or base64, detected by the loader).
        case file(String)
        /// Bytes already read (standard input).
        case bytes([UInt8])
        /// The input could not be read at all; the error says why.
        case unreadable(ReceiptValidationError)
    }

    /// The name standard input has in every output format.
    static let standardInputLabel = "-"

    /// The name shown in the output: the path as given, `dir/name` for a directory entry,
    /// ``standardInputLabel`` for stdin.
    var label: String
    /// Where the bytes come from.
    var source: Source

    /// The inputs named by the command line, and what the expansion has to tell.
    struct Expansion: Sendable {
        /// Every input, in command-line order (a directory's files sorted by name).
        var inputs: [ReceiptInput] = []
        /// Entries left out, with the reason (printed on stderr), e.g. links that lead nowhere.
        var skipped: [String] = []
        /// Directories holding no receipt file at all (an error: exit status 3).
        var emptyDirectories: [String] = []
    }

    /// Expands command-line arguments into inputs: `-` is standard input (at most once), a directory
    /// is every regular file directly inside it (or link to one) sorted by name, anything else is a file.
    /// - Parameter maximumSize: How many bytes of standard input to read at most (one more is read
    ///   so that the validator can report the input as too large).
    static func expand(_ arguments: [String], maximumSize: Int) -> Expansion {
        var expansion = Expansion()
        for argument in arguments {
            if argument == "-" {
                expansion.inputs.append(ReceiptInput(label: standardInputLabel, source: readStandardInput(maximumSize: maximumSize)))
            } else if FileKind.of(argument) == .directory {
                DirectoryListing.add(argument, to: &expansion)
            } else {
                expansion.inputs.append(ReceiptInput(label: argument, source: fileSource(argument)))
            }
        }
        return expansion
    }

    /// The source for a single argument (`dump`): `-` is standard input, anything else a file.
    static func expandSingle(_ argument: String) -> Source {
        argument == "-"
            ? readStandardInput(maximumSize: ReceiptLoader.maximumReceiptSize)
            : fileSource(argument)
    }

    /// The source for a path that is not `-`: the file, or unreadable when the path is empty
    /// (which names no file; read as a URL it would name the working directory).
    private static func fileSource(_ path: String) -> Source {
        guard !path.isEmpty else {
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
