import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ReceiptKit
import ReceiptServer
import ServiceLifecycle

/// `receipt-server`: Apple's verifyReceipt, answered locally.
@main
struct ReceiptServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt-server",
        abstract: "Answer Apple's verifyReceipt requests locally: POST /verifyReceipt, GET /health, GET /metrics.",
        discussion: """
            Every option can also be set with an environment variable (RECEIPT_SERVER_ plus the \
            option's name in capitals with underscores, e.g. RECEIPT_SERVER_PORT=8080, \
            RECEIPT_SERVER_BUNDLE_ID=com.a,com.b); a flag wins over the variable. SIGTERM or \
            SIGINT stop accepting connections and let requests in flight finish.

            Examples:
              receipt-server --port 8080 --bundle-id com.example.app --environment production
              RECEIPT_SERVER_SHARED_SECRET=0123abcd receipt-server --catalog products.json
            """
    )

    static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment["RECEIPT_SERVER_" + name]
    }

    static func list(_ name: String) -> [String] {
        environment(name).map { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } } ?? []
    }

    @Option(help: "The address to listen on (env RECEIPT_SERVER_HOST).")
    var host: String = environment("HOST") ?? "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one (env RECEIPT_SERVER_PORT).")
    var port: Int = environment("PORT").flatMap { Int($0) } ?? 8080

    @Option(name: .customLong("bundle-id"), help: "A bundle id to accept; repeat for several; none accepts any (env RECEIPT_SERVER_BUNDLE_ID, comma-separated).")
    var bundleIDs: [String] = list("BUNDLE_ID")

    @Option(help: "production, sandbox or any: which receipts get status 0 rather than 21007/21008 (env RECEIPT_SERVER_ENVIRONMENT).")
    var environment: String = environment("ENVIRONMENT") ?? "any"

    @Option(name: .customLong("shared-secret"), help: "An accepted password (shared secret); repeat for several; none checks none (env RECEIPT_SERVER_SHARED_SECRET, comma-separated).")
    var sharedSecrets: [String] = list("SHARED_SECRET")

    @Flag(inversion: .prefixedNo, help: "Accept Xcode StoreKit-testing receipts (env RECEIPT_SERVER_XCODE=1).")
    var xcode: Bool = environment("XCODE") == "1"

    @Option(name: .customLong("root"), help: "A trust anchor certificate file (DER or PEM); repeat for several; default Apple's roots (env RECEIPT_SERVER_ROOT, comma-separated).")
    var roots: [String] = list("ROOT")

    @Option(help: "A product catalog JSON file: {\"groups\": {\"GROUP\": [\"product\", …]}} (env RECEIPT_SERVER_CATALOG).")
    var catalog: String = environment("CATALOG") ?? ""

    @Option(name: .customLong("max-body-size"), help: "The largest request body in bytes; larger gets 413 (env RECEIPT_SERVER_MAX_BODY_SIZE).")
    var maximumBodySize: Int = environment("MAX_BODY_SIZE").flatMap { Int($0) } ?? (1 << 20)

    @Option(help: "The crypto backend: \(CryptoBackends.all.map(\.name).joined(separator: " or ")) (env RECEIPT_SERVER_BACKEND).")
    var backend: String = environment("BACKEND") ?? ""

    @Option(name: .customLong("max-connections"), help: "The most connections open at once (env RECEIPT_SERVER_MAX_CONNECTIONS).")
    var maximumConnections: Int = environment("MAX_CONNECTIONS").flatMap { Int($0) } ?? 1024

    @Option(name: .customLong("idle-timeout"), help: "Seconds before an idle or stalled connection is closed (env RECEIPT_SERVER_IDLE_TIMEOUT).")
    var idleTimeout: Int = environment("IDLE_TIMEOUT").flatMap { Int($0) } ?? 30

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (env RECEIPT_SERVER_LOG_LEVEL).")
    var logLevel: String = environment("LOG_LEVEL") ?? "info"

    func validate() throws {
        guard ["production", "sandbox", "any"].contains(environment) else {
            throw ValidationError("--environment takes production, sandbox or any, not '\(environment)'")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must lie in 0...65535") }
        guard maximumBodySize > 0, maximumConnections > 0, idleTimeout > 0 else {
            throw ValidationError("--max-body-size, --max-connections and --idle-timeout must be positive")
        }
    }

    func run() async throws {
        var options = ServerOptions()
        options.host = host
        options.port = port
        options.acceptedBundleIDs = Set(bundleIDs)
        options.environment = environment == "production" ? .production : environment == "sandbox" ? .sandbox : nil
        options.sharedSecrets = Set(sharedSecrets)
        options.acceptsXcodeReceipts = xcode
        options.rootPaths = roots
        options.catalogPath = catalog.isEmpty ? nil : catalog
        options.maximumBodySize = maximumBodySize
        options.backendName = backend.isEmpty ? nil : backend
        options.maximumConnections = maximumConnections
        options.idleTimeout = idleTimeout

        var logger = Logger(label: "receipt-server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let service: VerifyReceiptService
        do {
            service = try VerifyReceiptService(options: options)
        } catch {
            throw ValidationError("\(error)")
        }
        logger.info("starting", metadata: [
            "host": "\(host)", "port": "\(port)", "backend": "\(service.endpoint.validator.backend.name)",
            "environment": "\(environment)", "bundle_ids": "\(bundleIDs.count)", "shared_secrets": "\(sharedSecrets.count)",
            "xcode": "\(xcode)",
        ])
        let application = service.makeApplication(logger: logger)
        let group = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        await service.pool.shutdown()
        logger.info("stopped")
    }
}
