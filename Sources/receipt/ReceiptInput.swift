import Foundation
import ReceiptKit

/// One receipt to verify, as named on the command line (a file, a file found in a directory, or stdin).
struct ReceiptInput: Sendable {
    /// Where the receipt's bytes come from.
    enum Source: Sendable {
        /// A file, read by the validator (DER/BER or base64, detected by the loader).
        case file(URL)
        /// Bytes already read (standard input).
        case bytes([UInt8])
        /// The input could not be read at all; the error says why.
        case unreadable(ReceiptValidationError)
    }

    /// The name shown in the output: the path as given, `dir/name` for a directory entry, `-` for stdin.
    var label: String
    /// Where the bytes come from.
    var source: Source

    /// Expands command-line arguments into inputs: `-` is standard input (at most once), a directory
    /// is every regular file directly inside it sorted by name, anything else is a file.
    /// - Parameter maximumSize: How many bytes of standard input to read at most (one more is read
    ///   so that the validator can report the input as too large).
    static func expand(_ arguments: [String], maximumSize: Int) -> [ReceiptInput] {
        var inputs: [ReceiptInput] = []
        for argument in arguments {
            if argument == "-" {
                inputs.append(ReceiptInput(label: "-", source: readStandardInput(maximumSize: maximumSize)))
                continue
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue {
                inputs += directoryEntries(argument)
            } else {
                inputs.append(ReceiptInput(label: argument, source: .file(URL(fileURLWithPath: argument))))
            }
        }
        return inputs
    }

    /// The source for a single argument (`dump`): `-` is standard input, anything else a file.
    static func expandSingle(_ argument: String) -> Source {
        argument == "-"
            ? readStandardInput(maximumSize: ReceiptLoader.maximumReceiptSize)
            : .file(URL(fileURLWithPath: argument))
    }

    /// Every regular file (or link to one) directly inside `path`, sorted by name.
    private static func directoryEntries(_ path: String) -> [ReceiptInput] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            let failure = ReceiptValidationError(
                .receiptNotFound,
                "the directory \(path) could not be read: \(error.localizedDescription)"
            )
            return [ReceiptInput(label: path, source: .unreadable(failure))]
        }
        let directory = URL(fileURLWithPath: path, isDirectory: true)
        return names.sorted().compactMap { name in
            let url = directory.appendingPathComponent(name)
            let resolved = url.resolvingSymlinksInPath()
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved.path),
                  attributes[.type] as? FileAttributeType == .typeRegular
            else { return nil }
            let label = path.hasSuffix("/") ? path + name : path + "/" + name
            return ReceiptInput(label: label, source: .file(url))
        }
    }

    /// Reads standard input to its end, or to one byte past `maximumSize`.
    private static func readStandardInput(maximumSize: Int) -> Source {
        var bytes: [UInt8] = []
        let handle = FileHandle.standardInput
        do {
            while bytes.count <= maximumSize {
                guard let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty else { break }
                bytes += chunk
            }
        } catch {
            return .unreadable(ReceiptValidationError(.receiptNotFound, "standard input could not be read: \(error.localizedDescription)"))
        }
        return .bytes(bytes)
    }
}
