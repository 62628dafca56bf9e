import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// `receipt verify FILE…`: verify receipts and print a verdict for each.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify receipts: signature, Apple certificate chain, and the checks you ask for.",
        // Written out: ArgumentParser shows the single-valued options, parsed as lists
        // (SingleValuedOption), as repeatable. HelpTests holds it to the options the help lists.
        usage:
            "receipt verify <file> ... [--root <cert> ...] [--xcode] [--bundle-id <id>]"
            + " [--app-version <version>] [--device-id <uuid|mac|hex>] [--backend <name>]"
            + " [--at <creation|now|date>] [--json] [--ndjson] [--format <format>]",
        discussion: """
            Each FILE is a receipt (DER, or base64 text; detected automatically), `-` for standard \
            input (shown as `-` in every output format), or a directory: every regular file \
            directly inside it, or link to one, sorted by name. Directories are not read \
            recursively: any other entry (a subdirectory, a named pipe, a link to nothing) is \
            skipped with a line on stderr saying why, and counted as unreadable. Several receipts \
            are verified in parallel and printed in input order. A path is opened as the bytes it \
            was given as; one that is not UTF-8, or holds a control character or a backslash, is \
            shown escaped (\\xHH for such bytes, \\\\ for a backslash).

            A FILE (or standard input) holding a compact JWS — a StoreKit 2 transaction or \
            renewal info, an App Store Server Notification V2, an app transaction; detected by \
            content — is verified as Apple's JWS: ES256, its x5c chain to the anchors with Apple's \
            marker OIDs at the token's signedDate, a notification's nested tokens too; --root, \
            --at, --backend and --bundle-id apply. A directory may mix receipts and .jws files. \
            With --json / --ndjson a token's object is {"file", "valid", "kind", "signed_date", \
            "payload"} (the payload with Apple's own field names), or {"file", "valid", "code", \
            "message"} when invalid. Revocation is not checked (no network).

            The certificate chain is checked at the receipt's creation date by default: Apple's \
            signing certificates expire while the receipts they signed stay valid, so `--at now` \
            rejects most real receipts with certificate_expired.

            Exit status: 0 every receipt is valid, 1 a receipt is invalid, 2 usage error, 3 a file \
            (or a --root certificate) could not be read, a directory entry was skipped, a directory \
            holds no receipt file, or the output could not be written.

            Examples:
              receipt verify app.receipt
              receipt verify --bundle-id com.example.app --app-version 42 app.receipt
              receipt verify --device-id 956328D9-CC6A-47F4-BE40-6953FB0AB6C7 app.receipt
              receipt verify --json app.receipt
              receipt verify --ndjson receipts/ > results.ndjson
              receipt verify --format apple app.receipt
              base64 -w0 app.receipt | receipt verify -
              receipt verify --xcode StoreKitTestReceipt.receipt
              receipt verify --root MyRoot.pem --at 2025-01-31T12:00:00Z test.receipt
              receipt verify --json --bundle-id com.example.app transaction.jws
            """
    )

    @Argument(help: ArgumentHelp("Receipt or JWS files, directories, or - for standard input.", valueName: "file"))
    var files: [String]

    @OptionGroup var validation: ValidationOptions

    @Option(
        name: .customLong("at"),
        help: ArgumentHelp(
            "When the certificate chain must be valid: creation (the receipt's creation date, a JWS's signedDate), now, or an RFC 3339 date. (default: creation)",
            valueName: "creation|now|date"
        )
    )
    var verificationTimes: [VerificationTimeOption] = []

    @Flag(help: "Print JSON: one object per receipt (an array for several).")
    var json = false

    @Flag(help: "Print one compact JSON object per line, one line per receipt.")
    var ndjson = false

    @Option(name: .customLong("format"), help: ArgumentHelp("apple: print Apple's verifyReceipt response (with --ndjson, one line per receipt).", valueName: "format"))
    var formats: [ResponseFormat] = []

    /// `--at` (given at most once: ``validate()``), `creation` when not given.
    var verificationTime: VerificationTimeOption { verificationTimes.first ?? VerificationTimeOption(.creationDate) }
    /// `--format` (given at most once).
    var format: ResponseFormat? { formats.first }

    func validate() throws {
        _ = try SingleValuedOption.value(verificationTimes, "--at")
        _ = try SingleValuedOption.value(formats, "--format")
        if json && ndjson {
            throw ValidationError("--json and --ndjson cannot be combined")
        }
        if format != nil && json {
            throw ValidationError("--format apple prints JSON already; combine it with --ndjson, not --json")
        }
        if files.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("standard input (-) can be named only once")
        }
    }

    /// The output format chosen by the flags.
    var outputFormat: OutputFormat {
        if format != nil { return ndjson ? .appleNDJSON : .apple }
        if json { return .json }
        if ndjson { return .ndjson }
        return .human
    }

    func run() async throws {
        let backend = try BackendChoice.resolve(validation.backend)
        let time = verificationTime.time
        // The inputs are listed on another thread (a directory of 20,000 files: about 4 ms in the
        // kernel's `getdents64` and 20 M instructions; the paths are made later, by the workers) while
        // this one loads the trust anchors and builds the validator (OpenSSL's first certificate
        // decode sets the library up: about 1.5 ms), so that the two serial steps before the first
        // receipt overlap on two cores or more. A rejected --root is reported without waiting for
        // the listing (nor for standard input, which may wait for the user). The same task counts
        // the processors the batch may use (reading the cgroup's quota files: about 0.2 ms).
        let arguments = files
        let listing = Task {
            _ = VerificationRunner.processorCount
            return ReceiptInput.expand(arguments, maximumSize: ValidationOptions.maximumReceiptSize)
        }
        let configuration = try validation.makeConfiguration(backend: backend, verificationTime: time)
        let validator: ReceiptValidator
        do {
            validator = try ReceiptValidator(backend: backend, configuration: configuration)
        } catch {
            throw CommandFailure(status: .usage, message: "the trust anchors were rejected: \(error)")
        }
        let expansion = await listing.value
        for skipped in expansion.skipped {
            StandardError.write("receipt: skipped \(skipped)\n")
        }
        let inputs = expansion.inputs
        let format = outputFormat
        let formatter = format.formatter(backendName: backend.name)
        var output = BufferedOutput()
        let progress = ProgressBar.forTerminal(total: inputs.count)
        var runner = VerificationRunner(validator: validator, collectsEmbeddedCertificates: format == .human)
        runner.answersAsApple = format == .apple || format == .appleNDJSON
        // Every directory entry skipped is an input that could not be read.
        var tally = VerificationTally(unreadable: expansion.skipped.count)
        let count = inputs.count
        let chunkSize = VerificationRunner.chunkSize(
            inputCount: count, width: VerificationRunner.processorCount, interactive: output.isInteractive)
        await runner.run(inputs, chunkSize: chunkSize, progress: progress) { outcome, index, text in
            formatter.write(outcome, index: index, of: count, into: &text)
        } emit: { statuses, text in
            for status in statuses { tally.count(status) }
            if output.writes(appending: text.count) {
                progress?.clearForOutput()
                output.append(text)
                progress?.redrawAfterOutput()
            } else {
                output.append(text)
            }
        }
        formatter.finish(count: inputs.count, into: &output.bytes)
        output.flush()
        if tally.total > 1 && format != .json && format != .apple {
            StandardError.write(tally.summary + "\n")
        }
        for directory in expansion.emptyDirectories {
            StandardError.write("receipt: \(directory) holds no receipt file\n")
        }
        if inputs.isEmpty && expansion.emptyDirectories.isEmpty {
            StandardError.write("receipt: no receipt files found\n")
        }
        if let failure = output.failure {
            throw CommandFailure.outputNotWritten(errno: failure)
        }
        let status = expansion.emptyDirectories.isEmpty ? tally.exitStatus : .unreadable
        if status != .success {
            throw status.exitCode
        }
    }

    /// Loads a `--root` certificate: unreadable file → exit 3, not a certificate → exit 2.
    static func loadCertificate(_ argument: String, backend: any CryptoBackend) throws -> Certificate {
        let path = InputPath(argument: argument)
        let data: [UInt8]
        do {
            data = try FileContents.read(path)
        } catch {
            throw CommandFailure(status: .unreadable, message: "the root certificate \(path.label) could not be read: \(error)")
        }
        do {
            return try backend.loadCertificate(Array(data))
        } catch {
            throw CommandFailure(status: .usage, message: "--root \(path.label) is not a DER or PEM certificate: \(error)")
        }
    }
}
