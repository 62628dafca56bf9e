import Foundation
import ReceiptKit

/// Everything `receipt-server` can be told, from flags or environment variables.
public struct ServerOptions: Sendable {
    /// The address to listen on. Default `127.0.0.1`.
    public var host = "127.0.0.1"
    /// The port to listen on (0: any free port). Default 8080.
    public var port = 8080
    /// The bundle ids accepted; empty accepts any.
    public var acceptedBundleIDs: Set<String> = []
    /// The environment answered for; nil answers for both.
    public var environment: AppleVerifyReceiptEnvironment?
    /// The shared secrets accepted as `password`; empty checks none.
    public var sharedSecrets: Set<String> = []
    /// Accept Xcode StoreKit-testing receipts.
    public var acceptsXcodeReceipts = false
    /// Trust anchor certificate files (DER or PEM); empty uses Apple's embedded roots.
    public var rootPaths: [String] = []
    /// The product catalog file (JSON: `{"groups": {"G": ["a", "b"]}}`), if any.
    public var catalogPath: String?
    /// The largest request body accepted, in bytes (larger: 413 with status 21000).
    public var maximumBodySize = 1 << 20
    /// The crypto backend's name (`openssl`, `gnutls`); nil is the build's default.
    public var backendName: String?
    /// The most connections open at once. A connection beyond it closes the one that has been
    /// idle longest (no request unanswered), or is closed itself when none is idle.
    public var maximumConnections = 1024
    /// The most validations running at once (each on its own thread of the blocking pool).
    public var maximumConcurrentValidations = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// The most requests waiting for a validation thread, asked for; nil asks for
    /// ``pendingValidationsPerThread`` per validation thread. ``validationQueueLimit`` is what applies.
    public var maximumPendingValidations: Int?
    /// Seconds a connection may stay idle (no byte read or written) before it is closed; a client
    /// that stops reading its answer gets as long again before the close cuts the answer short.
    public var idleTimeout = 30
    /// Seconds from a request's first byte to its last (head and body): a client that sends
    /// slower than that is disconnected, however steadily it trickles.
    public var requestTimeout = 15
    /// Where the state is kept (`--database`): a file path or `sqlite:PATH`, or `postgres://…`.
    public var database = "receipt-state.sqlite"

    /// The default queue per validation thread.
    public static let pendingValidationsPerThread = 64

    /// The most requests waiting for a validation thread; beyond that: 503 with status 21000 and
    /// `Retry-After`. At most half of ``maximumConnections``, so that the connections can hold
    /// more requests than the pool admits and the 503 is reachable.
    public var validationQueueLimit: Int {
        let asked = maximumPendingValidations ?? Self.pendingValidationsPerThread * max(1, maximumConcurrentValidations)
        return max(0, min(asked, maximumConnections / 2))
    }

    /// Options with every default.
    public init() {}
}

/// A problem with the options, reported before the server starts.
public struct ServerOptionsError: Error, CustomStringConvertible {
    /// What is wrong.
    public var description: String
}

extension ServerOptions {
    /// The endpoint these options describe: the backend, the trust anchors, the catalog.
    public func makeEndpoint() throws -> AppleVerifyReceiptEndpoint {
        let backend: any CryptoBackend
        if let backendName {
            guard let named = CryptoBackends.named(backendName) else {
                throw ServerOptionsError(description: "unknown backend '\(backendName)'; this build offers: \(CryptoBackends.all.map(\.name).joined(separator: ", "))")
            }
            backend = named
        } else {
            guard let first = CryptoBackends.all.first else { throw ServerOptionsError(description: "this build has no crypto backend") }
            backend = first
        }
        var configuration = ReceiptValidator.Configuration()
        configuration.acceptsStoreKitTestReceipts = acceptsXcodeReceipts
        configuration.maximumReceiptSize = maximumBodySize
        if !rootPaths.isEmpty {
            configuration.trustAnchors = try rootPaths.map { path in
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ServerOptionsError(description: "the root certificate \(path) could not be read")
                }
                do {
                    return try backend.loadCertificate(Array(data))
                } catch {
                    throw ServerOptionsError(description: "the root certificate \(path) is not a DER or PEM certificate: \(error)")
                }
            }
        }
        // --root applies to JWS (notifications, transactions) as to receipts.
        if !rootPaths.isEmpty { configuration.jwsTrustAnchors = configuration.trustAnchors }
        var catalog = ProductCatalog.empty
        if let catalogPath {
            guard let data = FileManager.default.contents(atPath: catalogPath) else {
                throw ServerOptionsError(description: "the catalog \(catalogPath) could not be read")
            }
            do {
                catalog = try ProductCatalog(json: data)
            } catch {
                throw ServerOptionsError(description: "the catalog \(catalogPath) is not valid: \(error)")
            }
        }
        let validator: ReceiptValidator
        do {
            validator = try ReceiptValidator(backend: backend, configuration: configuration)
        } catch {
            throw ServerOptionsError(description: "the trust anchors were rejected: \(error)")
        }
        return AppleVerifyReceiptEndpoint(
            validator: validator,
            configuration: .init(
                environment: environment, acceptedBundleIDs: acceptedBundleIDs, sharedSecrets: sharedSecrets, catalog: catalog))
    }
}
