import Logging
import ReceiptKit

/// What the command line gave `receipt-server`: nil, or an empty list, where it gave nothing, so
/// that the environment variable, and then the default, applies.
public struct ServerFlags: Sendable {
    /// `--host`.
    public var host: String?
    /// `--port`.
    public var port: Int?
    /// `--bundle-id`, repeated.
    public var bundleIDs: [String] = []
    /// `--environment`: `production`, `sandbox` or `any`.
    public var environment: String?
    /// `--shared-secret`, repeated.
    public var sharedSecrets: [String] = []
    /// `--xcode` (true) or `--no-xcode` (false).
    public var xcode: Bool?
    /// `--root`, repeated.
    public var roots: [String] = []
    /// `--catalog`.
    public var catalog: String?
    /// `--max-body-size`.
    public var maximumBodySize: Int?
    /// `--backend`.
    public var backend: String?
    /// `--max-connections`.
    public var maximumConnections: Int?
    /// `--idle-timeout`.
    public var idleTimeout: Int?
    /// `--log-level`.
    public var logLevel: String?

    /// No flag given.
    public init() {}
}

/// Everything `receipt-server` runs with: each setting from its flag, else its `RECEIPT_SERVER_*`
/// variable, else its default, and checked before the server starts.
public struct ServerSettings: Sendable {
    /// The service's options.
    public var options: ServerOptions
    /// How much the server logs.
    public var logLevel: Logger.Level
    /// The `--environment` value the options came from (`production`, `sandbox` or `any`), for the log.
    public var environmentName: String

    /// Settles every setting. A flag wins over its variable; a variable that is set must be valid
    /// (``ServerEnvironment``) even when its flag wins, so that a wrong deployment file is found
    /// the first time it is used.
    /// - Throws: ``ServerOptionsError`` naming the flag or variable whose value is wrong: an
    ///   unknown `--environment` or `--log-level`, a port outside 0...65535, a size, connection
    ///   count or timeout that is not positive, an empty `--bundle-id`, `--shared-secret` or
    ///   `--root`, and every error of ``ServerEnvironment``.
    public init(flags: ServerFlags, environment: ServerEnvironment) throws(ServerOptionsError) {
        // Every variable is read first, so that a wrong one is reported whether or not a flag wins.
        let host = try environment.text("HOST")
        let port = try environment.integer("PORT")
        let bundleIDs = try environment.list("BUNDLE_ID")
        let environmentVariable = try environment.text("ENVIRONMENT")
        let sharedSecrets = try environment.list("SHARED_SECRET")
        let xcode = try environment.flag("XCODE")
        let roots = try environment.list("ROOT")
        let catalog = try environment.text("CATALOG")
        let maximumBodySize = try environment.integer("MAX_BODY_SIZE")
        let backend = try environment.text("BACKEND")
        let maximumConnections = try environment.integer("MAX_CONNECTIONS")
        let idleTimeout = try environment.integer("IDLE_TIMEOUT")
        let logLevelVariable = try environment.text("LOG_LEVEL")

        var options = ServerOptions()
        options.host = flags.host ?? host ?? options.host
        options.port = flags.port ?? port ?? options.port
        options.acceptedBundleIDs = Set(try Self.list(flags.bundleIDs, "--bundle-id", bundleIDs))
        options.sharedSecrets = Set(try Self.list(flags.sharedSecrets, "--shared-secret", sharedSecrets))
        options.acceptsXcodeReceipts = flags.xcode ?? xcode ?? options.acceptsXcodeReceipts
        options.rootPaths = try Self.list(flags.roots, "--root", roots)
        options.catalogPath = flags.catalog ?? catalog
        options.maximumBodySize = flags.maximumBodySize ?? maximumBodySize ?? options.maximumBodySize
        options.backendName = flags.backend ?? backend
        options.maximumConnections = flags.maximumConnections ?? maximumConnections ?? options.maximumConnections
        options.idleTimeout = flags.idleTimeout ?? idleTimeout ?? options.idleTimeout

        let environmentName = flags.environment ?? environmentVariable ?? "any"
        switch environmentName {
        case "production": options.environment = .production
        case "sandbox": options.environment = .sandbox
        case "any": options.environment = nil
        default: throw ServerOptionsError(description: "--environment takes production, sandbox or any, not '\(environmentName)'")
        }
        let levelName = flags.logLevel ?? logLevelVariable ?? "info"
        guard let logLevel = Logger.Level(rawValue: levelName) else {
            throw ServerOptionsError(description: "unknown --log-level '\(levelName)' (trace, debug, info, notice, warning, error or critical)")
        }
        guard (0...65535).contains(options.port) else {
            throw ServerOptionsError(description: "--port must lie in 0...65535, not \(options.port)")
        }
        guard options.maximumBodySize > 0, options.maximumConnections > 0, options.idleTimeout > 0 else {
            throw ServerOptionsError(description: "--max-body-size, --max-connections and --idle-timeout must be positive")
        }
        if let catalog = flags.catalog, catalog.isEmpty {
            throw ServerOptionsError(description: "--catalog names no file (an empty path)")
        }
        self.options = options
        self.logLevel = logLevel
        self.environmentName = environmentName
    }

    /// A repeatable flag's values when given (none of them empty), else the variable's list, else none.
    private static func list(_ flag: [String], _ name: String, _ variable: [String]?) throws(ServerOptionsError) -> [String] {
        guard !flag.isEmpty else { return variable ?? [] }
        guard !flag.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw ServerOptionsError(description: "\(name) was given an empty value")
        }
        return flag
    }
}
