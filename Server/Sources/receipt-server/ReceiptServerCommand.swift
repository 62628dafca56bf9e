import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ReceiptKit
import ReceiptServer
import ReceiptState
import ServiceLifecycle

/// `receipt-server`: Apple's verifyReceipt, answered locally.
@main
struct ReceiptServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt-server",
        abstract: "Answer Apple's verifyReceipt requests locally: POST /verifyReceipt, GET /health, GET /metrics; keep App Store Server Notifications and StoreKit 2 transactions: POST /notifications, POST /transactions, GET /subscriptions/{id}.",
        discussion: """
            Every option can also be set with an environment variable (RECEIPT_SERVER_ plus the \
            option's name in capitals with underscores, e.g. RECEIPT_SERVER_PORT=8080, \
            RECEIPT_SERVER_BUNDLE_ID=com.a,com.b); a flag wins over the variable. A variable \
            that is set must hold a valid value, whether or not its flag wins (not empty, no \
            empty list entry, a whole number in range where one is expected, XCODE 1 or 0) and \
            an unknown RECEIPT_SERVER_ name is an error: the server does not start. SIGTERM \
            or SIGINT stop accepting connections and let requests in flight finish.

            Examples:
              receipt-server --port 8080 --bundle-id com.example.app --environment production
              RECEIPT_SERVER_SHARED_SECRET=0123abcd receipt-server --catalog products.json
            """,
        version: ReceiptKitVersion.current
    )

    @Option(name: .customLong("host"), help: Self.help("host"))
    var host: [String] = []

    @Option(name: .customLong("port"), help: Self.help("port"))
    var port: [Int] = []

    @Option(name: .customLong("bundle-id"), help: Self.help("bundle-id"))
    var bundleIDs: [String] = []

    @Option(name: .customLong("environment"), help: Self.help("environment"))
    var environment: [String] = []

    @Option(name: .customLong("shared-secret"), help: Self.help("shared-secret"))
    var sharedSecrets: [String] = []

    // Exclusive: `--xcode --no-xcode` is an error, where ArgumentParser would keep the last.
    @Flag(inversion: .prefixedNo, exclusivity: .exclusive, help: Self.help("xcode"))
    var xcode: Bool?

    @Option(name: .customLong("root"), help: Self.help("root"))
    var roots: [String] = []

    @Option(name: .customLong("catalog"), help: Self.help("catalog"))
    var catalog: [String] = []

    @Option(name: .customLong("max-body-size"), help: Self.help("max-body-size"))
    var maximumBodySize: [Int] = []

    @Option(name: .customLong("backend"), help: Self.help("backend"))
    var backend: [String] = []

    @Option(name: .customLong("max-connections"), help: Self.help("max-connections"))
    var maximumConnections: [Int] = []

    @Option(name: .customLong("idle-timeout"), help: Self.help("idle-timeout"))
    var idleTimeout: [Int] = []

    @Option(name: .customLong("request-timeout"), help: Self.help("request-timeout"))
    var requestTimeout: [Int] = []

    @Option(name: .customLong("database"), help: Self.help("database"))
    var database: [String] = []

    @Flag(name: .customLong("rebuild-state"), help: "Derive every subscription's state again from the stored tokens (each verified again with the anchors), print one JSON object per line, and exit.")
    var rebuildState = false

    @Option(name: .customLong("at"), help: "With --rebuild-state: the time the states are derived at, RFC 3339 (default now).")
    var rebuildAt: [String] = []

    @Option(name: .customLong("log-level"), help: Self.help("log-level"))
    var logLevel: [String] = []

    /// `--help`'s text for a setting, from ``ServerSetting/all``.
    static func help(_ name: String) -> ArgumentHelp {
        ArgumentHelp(ServerSetting.named(name)?.help ?? "")
    }

    /// The flags as given, for ``ServerSettings``. The options that take one value are parsed as
    /// lists, because ArgumentParser keeps the last value of a repeated option without a word;
    /// ``ServerSettings`` refuses a second one, naming the flag.
    var flags: ServerFlags {
        var flags = ServerFlags()
        flags.host = host
        flags.port = port
        flags.bundleIDs = bundleIDs
        flags.environment = environment
        flags.sharedSecrets = sharedSecrets
        flags.xcode = xcode
        flags.roots = roots
        flags.catalog = catalog
        flags.maximumBodySize = maximumBodySize
        flags.backend = backend
        flags.maximumConnections = maximumConnections
        flags.idleTimeout = idleTimeout
        flags.requestTimeout = requestTimeout
        flags.logLevel = logLevel
        flags.database = database
        return flags
    }

    /// The settings from the flags and the process's environment.
    func settings() throws -> ServerSettings {
        do {
            return try ServerSettings(flags: flags, environment: ServerEnvironment())
        } catch {
            throw ValidationError(error.description)
        }
    }

    func validate() throws {
        // `--at` is the one option outside ServerSetting.all (it belongs to --rebuild-state).
        guard rebuildAt.count <= 1 else { throw ValidationError("--at can be given once, not \(rebuildAt.count) times") }
        guard rebuildAt.isEmpty || rebuildState else {
            throw ValidationError("--at is read only with --rebuild-state; a serving process derives each state at the request's time")
        }
        _ = try settings()
    }

    func run() async throws {
        let settings = try settings()
        if rebuildState {
            try await RebuildState.run(settings: settings, at: rebuildAt.first)
            return
        }
        let options = settings.options
        var logger = Logger(label: "receipt-server")
        logger.logLevel = settings.logLevel
        var service: VerifyReceiptService
        do {
            service = try VerifyReceiptService(options: options)
        } catch {
            throw ValidationError("\(error)")
        }
        let store = try await StateStoreOpening.open(options.database, logger: logger)
        service.state = StateService(store: store, service: service)
        logger.info("starting", metadata: [
            "host": "\(options.host)", "port": "\(options.port)", "backend": "\(service.endpoint.validator.backend.name)",
            "environment": "\(settings.environmentName)", "bundle_ids": "\(options.acceptedBundleIDs.count)",
            "shared_secrets": "\(options.sharedSecrets.count)", "xcode": "\(options.acceptsXcodeReceipts)",
        ])
        let readiness = service.readiness.verdict
        if !readiness.isReady {
            // The service starts anyway: /health answers 503 until the library can verify.
            logger.error("the crypto library cannot verify a known-good receipt: /health fails and receipts get 21005", metadata: [
                "backend": "\(service.endpoint.validator.backend.name)", "problem": "\(readiness.problem ?? "")",
            ])
        }
        let application = service.makeApplication(logger: logger)
        // Shut down in reverse order: the application stops taking requests and finishes those in
        // flight, then the validation pool ends.
        let group = ServiceGroup(
            configuration: .init(services: [service.pool, application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        await store.close()
        logger.info("stopped")
    }
}
