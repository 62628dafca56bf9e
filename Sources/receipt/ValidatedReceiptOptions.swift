import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// The checks `verify`, `entitlements` and `timeline` run on a receipt: trust anchors, Xcode
/// opt-in, bundle id, app version, device id, and the backend that verifies.
struct ValidationOptions: ParsableArguments {
    @Option(
        name: .customLong("root"),
        help: ArgumentHelp(
            "A trust anchor certificate (DER or PEM); repeat for several. Default: Apple's embedded root certificates.",
            valueName: "cert"
        )
    )
    var roots: [String] = []

    @Flag(help: "Also accept Xcode StoreKit-testing receipts (signed by the StoreKit test certificate).")
    var xcode = false

    @Option(name: .customLong("bundle-id"), help: ArgumentHelp("The bundle identifier the receipt must carry.", valueName: "id"))
    var bundleID: String?

    @Option(name: .customLong("app-version"), help: ArgumentHelp("The application version (CFBundleVersion) the receipt must carry.", valueName: "version"))
    var applicationVersion: String?

    @Option(
        name: .customLong("device-id"),
        help: ArgumentHelp(
            "Check the receipt's device hash: a UUID (iOS identifierForVendor), a MAC address (macOS) or hex bytes.",
            valueName: "uuid|mac|hex"
        )
    )
    var deviceID: String?

    @Option(help: BackendOption.help)
    var backend: String?

    func validate() throws {
        if let deviceID, (try? DeviceIdentifier(parsing: deviceID)) == nil {
            throw ValidationError("--device-id expects a UUID, a MAC address or hex bytes, not '\(deviceID)'")
        }
        _ = try BackendOption.resolve(backend)
    }

    /// The largest receipt the tool reads, in bytes: the validator's limit, and how much of
    /// standard input is read.
    static let maximumReceiptSize = ReceiptLoader.maximumReceiptSize

    /// The validator configuration these checks ask for, verifying the chain at `verificationTime`.
    func makeConfiguration(backend: any CryptoBackend, verificationTime: VerificationTime) throws -> ReceiptValidator.Configuration {
        var configuration = ReceiptValidator.Configuration()
        configuration.maximumReceiptSize = Self.maximumReceiptSize
        if !roots.isEmpty {
            configuration.trustAnchors = try roots.map { try VerifyCommand.loadCertificate($0, backend: backend) }
        }
        configuration.acceptsStoreKitTestReceipts = xcode
        configuration.expectedBundleID = bundleID
        configuration.expectedApplicationVersion = applicationVersion
        if let deviceID { configuration.deviceIdentifier = try DeviceIdentifier(parsing: deviceID) }
        configuration.verificationTime = verificationTime
        return configuration
    }

    /// A validator with these checks, verifying the chain at `verificationTime`.
    func makeValidator(verificationTime: VerificationTime) throws -> ReceiptValidator {
        let backend = try BackendOption.resolve(backend)
        let configuration = try makeConfiguration(backend: backend, verificationTime: verificationTime)
        do {
            return try ReceiptValidator(backend: backend, configuration: configuration)
        } catch {
            throw CommandFailure(status: .usage, message: "the trust anchors were rejected: \(error)")
        }
    }
}

/// The receipt `entitlements` and `timeline` read, the checks it must pass first (as `verify`
/// runs them, with the chain checked at the receipt's creation date), and the app's catalogue.
struct ValidatedReceiptOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The receipt file (DER or base64), or - for standard input.", valueName: "file"))
    var file: String

    @OptionGroup var validation: ValidationOptions

    @Option(
        name: .customLong("catalog"),
        help: ArgumentHelp(
            #"The app's products as JSON: {"groups": {"GROUP": ["product", …]}, "non_renewing": {"product": "P1M"}}."#,
            valueName: "file.json"
        )
    )
    var catalogPath: String?

    /// Validates the receipt exactly as `verify` does with these options.
    func verify() throws -> VerificationOutcome {
        let validator = try validation.makeValidator(verificationTime: .creationDate)
        let runner = VerificationRunner(validator: validator, collectsEmbeddedCertificates: false)
        return runner.verify(ReceiptInput(label: file, source: ReceiptInput.expandSingle(file)))
    }

    /// The `--catalog` file, or the empty catalogue: unreadable → exit 3, not a catalogue → exit 2.
    func loadCatalog() throws -> ProductCatalog {
        guard let catalogPath else { return .empty }
        let data: Data
        do {
            data = Data(try FileContents.read(catalogPath))
        } catch {
            throw CommandFailure(status: .unreadable, message: "the catalog \(catalogPath) could not be read: \(error)")
        }
        do {
            return try ProductCatalog(json: data)
        } catch {
            throw CommandFailure(status: .usage, message: "--catalog \(catalogPath): \(error)")
        }
    }

    /// The exit status for a receipt that did not validate, after its error was printed.
    static func failureStatus(_ outcome: VerificationOutcome) -> ExitStatus {
        outcome.status == .unreadable ? .unreadable : .invalid
    }

    /// `code — message [library message]` for a failed validation.
    static func describe(_ error: ReceiptValidationError) -> String {
        var message = error.message
        if let library = error.libraryMessage, !library.isEmpty { message += " [\(library)]" }
        return "\(error.code.rawValue) — \(message)"
    }
}
