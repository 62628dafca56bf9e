import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// The receipt `entitlements` and `timeline` read, the checks it must pass first (as `verify`
/// runs them, with the chain checked at the receipt's creation date), and the app's catalogue.
struct ValidatedReceiptOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The receipt file (DER or base64) or a JWS file, or - for standard input.", valueName: "file"))
    var file: String

    @OptionGroup var validation: ValidationOptions

    @Option(
        name: .customLong("catalog"),
        help: ArgumentHelp(
            #"The app's products as JSON: {"groups": {"GROUP": ["product", …]}, "non_renewing": {"product": "P1M"}}."#,
            valueName: "file.json"
        )
    )
    var catalogPaths: [String] = []

    /// `--catalog` (given at most once: ``validate()``).
    var catalogPath: String? { catalogPaths.first }

    func validate() throws {
        _ = try SingleValuedOption.value(catalogPaths, "--catalog")
    }

    /// Validates the receipt (or JWS) exactly as `verify` does with these options.
    func verify() throws -> VerificationOutcome {
        try verify(file)
    }

    /// Validates `argument` (a file or `-`) exactly as `verify` does with these options.
    func verify(_ argument: String) throws -> VerificationOutcome {
        let validator = try validation.makeValidator(verificationTime: .creationDate)
        let runner = VerificationRunner(validator: validator, collectsEmbeddedCertificates: false)
        return runner.verify(ReceiptInput.single(argument))
    }

    /// The `--catalog` file, or the empty catalogue: unreadable → exit 3, not a catalogue → exit 2.
    func loadCatalog() throws -> ProductCatalog {
        guard let catalogPath else { return .empty }
        let path = InputPath(argument: catalogPath)
        let data: Data
        do {
            data = Data(try FileContents.read(path))
        } catch {
            throw CommandFailure(status: .unreadable, message: "the catalog \(path.label) could not be read: \(error)")
        }
        do {
            return try ProductCatalog(json: data)
        } catch {
            throw CommandFailure(status: .usage, message: "--catalog \(path.label): \(error)")
        }
    }

    /// The exit status for a receipt that did not validate, after its error was printed.
    static func failureStatus(_ outcome: VerificationOutcome) -> ExitStatus {
        outcome.status == .unreadable ? .unreadable : .invalid
    }

    /// `code — message [library message]` for a failed validation, controls escaped (a message
    /// can quote a certificate's name: ``TerminalText``).
    static func describe(_ error: ReceiptValidationError) -> String {
        var message = error.message
        if let library = error.libraryMessage, !library.isEmpty { message += " [\(library)]" }
        return TerminalText.escaped("\(error.code.rawValue) — \(message)")
    }
}
