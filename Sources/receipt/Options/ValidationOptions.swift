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
    var bundleIDs: [String] = []

    @Option(name: .customLong("app-version"), help: ArgumentHelp("The application version (CFBundleVersion) the receipt must carry.", valueName: "version"))
    var applicationVersions: [String] = []

    @Option(
        name: .customLong("device-id"),
        help: ArgumentHelp(
            "Check the receipt's device hash: a UUID (iOS identifierForVendor), a MAC address (macOS) or hex bytes.",
            valueName: "uuid|mac|hex"
        )
    )
    var deviceIDs: [String] = []

    @Option(name: .customLong("backend"), help: ArgumentHelp("The crypto backend (default: \(BackendChoice.defaultName)).", valueName: "name"))
    var backends: [BackendChoice] = []

    /// `--bundle-id` (each of these four is given at most once: ``validate()``).
    var bundleID: String? { bundleIDs.first }
    /// `--app-version`.
    var applicationVersion: String? { applicationVersions.first }
    /// `--device-id`.
    var deviceID: String? { deviceIDs.first }
    /// `--backend`.
    var backend: BackendChoice? { backends.first }

    func validate() throws {
        _ = try SingleValuedOption.value(bundleIDs, "--bundle-id")
        _ = try SingleValuedOption.value(applicationVersions, "--app-version")
        _ = try SingleValuedOption.value(deviceIDs, "--device-id")
        _ = try SingleValuedOption.value(backends, "--backend")
        if let deviceID, (try? DeviceIdentifier(parsing: deviceID)) == nil {
            throw ValidationError("--device-id expects a UUID, a MAC address or hex bytes, not '\(deviceID)'")
        }
        _ = try BackendChoice.resolve(backend)
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
            // --root replaces the anchors of JWS inputs too (default: Apple Root CA - G3).
            configuration.jwsTrustAnchors = configuration.trustAnchors
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
        let backend = try BackendChoice.resolve(backend)
        let configuration = try makeConfiguration(backend: backend, verificationTime: verificationTime)
        do {
            return try ReceiptValidator(backend: backend, configuration: configuration)
        } catch {
            throw CommandFailure(status: .usage, message: "the trust anchors were rejected: \(error)")
        }
    }
}
