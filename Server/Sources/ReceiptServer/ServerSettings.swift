import Logging
import ReceiptKit
import ReceiptState

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
    /// `--request-timeout`.
    public var requestTimeout: Int?
    /// `--log-level`.
    public var logLevel: String?
    /// `--database`.
    public var database: String?

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
    /// (``ServerEnvironment``, and the same checks as its flag) even when its flag wins, so that a
    /// wrong deployment file is found the first time it is used.
    /// - Throws: ``ServerOptionsError`` naming the flag or variable whose value is wrong: an
    ///   unknown environment, log level or backend, a port outside 0...65535, a size, connection
    ///   count or timeout that is not positive, an empty `--bundle-id`, `--shared-secret` or
    ///   `--root`, and every error of ``ServerEnvironment``.
    public init(flags: ServerFlags, environment: ServerEnvironment) throws(ServerOptionsError) {
        // Each variable is read and checked before its flag is looked at, so that a wrong one is
        // reported whether or not the flag wins.
        var options = ServerOptions()
        options.host = try Self.setting(flags.host, environment.text("HOST")) ?? options.host
        options.port = try Self.setting(flags.port, environment.integer("PORT"), "port", Self.isPort) ?? options.port
        options.acceptedBundleIDs = Set(try Self.list(flags.bundleIDs, "--bundle-id", environment.list("BUNDLE_ID")))
        let environmentName = try Self.setting(flags.environment, environment.text("ENVIRONMENT"), "environment", Self.isEnvironment) ?? "any"
        options.sharedSecrets = Set(try Self.list(flags.sharedSecrets, "--shared-secret", environment.list("SHARED_SECRET")))
        options.acceptsXcodeReceipts = try Self.setting(flags.xcode, environment.flag("XCODE")) ?? options.acceptsXcodeReceipts
        options.rootPaths = try Self.list(flags.roots, "--root", environment.list("ROOT"))
        options.catalogPath = try Self.setting(flags.catalog, environment.text("CATALOG"))
        options.maximumBodySize =
            try Self.setting(flags.maximumBodySize, environment.integer("MAX_BODY_SIZE"), "max-body-size", Self.isPositive)
            ?? options.maximumBodySize
        options.backendName = try Self.setting(flags.backend, environment.text("BACKEND"), "backend", Self.isBackend)
        options.maximumConnections =
            try Self.setting(flags.maximumConnections, environment.integer("MAX_CONNECTIONS"), "max-connections", Self.isPositive)
            ?? options.maximumConnections
        options.idleTimeout =
            try Self.setting(flags.idleTimeout, environment.integer("IDLE_TIMEOUT"), "idle-timeout", Self.isPositive) ?? options.idleTimeout
        options.requestTimeout =
            try Self.setting(flags.requestTimeout, environment.integer("REQUEST_TIMEOUT"), "request-timeout", Self.isPositive)
            ?? options.requestTimeout
        options.database = try Self.setting(flags.database, environment.text("DATABASE"), "database", Self.isDatabase) ?? options.database
        let levelName = try Self.setting(flags.logLevel, environment.text("LOG_LEVEL"), "log-level", Self.isLogLevel) ?? "info"

        switch environmentName {
        case "production": options.environment = .production
        case "sandbox": options.environment = .sandbox
        default: options.environment = nil
        }
        if let catalog = flags.catalog, catalog.isEmpty {
            throw ServerOptionsError(description: "--catalog names no file (an empty path)")
        }
        self.options = options
        self.logLevel = Logger.Level(rawValue: levelName) ?? .info
        self.environmentName = environmentName
    }

    /// The flag's value when given, else the variable's. Both are arguments, so the variable has
    /// been read (and checked) either way, unlike with `flag ?? variable`.
    private static func setting<Value>(_ flag: Value?, _ variable: Value?) -> Value? {
        flag ?? variable
    }

    /// The flag's value when given, else the variable's, after `check` has passed both: the flag
    /// as `--name`, the variable as `RECEIPT_SERVER_NAME`.
    private static func setting<Value>(
        _ flag: Value?, _ variable: Value?, _ name: String, _ check: (Value, String) throws(ServerOptionsError) -> Void
    ) throws(ServerOptionsError) -> Value? {
        if let variable {
            try check(variable, ServerEnvironment.prefix + String(name.uppercased().map { $0 == "-" ? "_" : $0 }))
        }
        if let flag {
            try check(flag, "--" + name)
        }
        return flag ?? variable
    }

    private static func isPort(_ port: Int, _ name: String) throws(ServerOptionsError) {
        guard (0...65535).contains(port) else { throw ServerOptionsError(description: "\(name) must lie in 0...65535, not \(port)") }
    }

    private static func isPositive(_ number: Int, _ name: String) throws(ServerOptionsError) {
        guard number > 0 else { throw ServerOptionsError(description: "\(name) must be positive, not \(number)") }
    }

    private static func isEnvironment(_ text: String, _ name: String) throws(ServerOptionsError) {
        guard ["production", "sandbox", "any"].contains(text) else {
            throw ServerOptionsError(description: "\(name) takes production, sandbox or any, not '\(text)'")
        }
    }

    private static func isLogLevel(_ text: String, _ name: String) throws(ServerOptionsError) {
        guard Logger.Level(rawValue: text) != nil else {
            throw ServerOptionsError(description: "\(name): unknown log level '\(text)' (trace, debug, info, notice, warning, error or critical)")
        }
    }

    private static func isDatabase(_ text: String, _ name: String) throws(ServerOptionsError) {
        do {
            _ = try StoreLocation(text)
        } catch {
            throw ServerOptionsError(description: "\(name): \(error.message)")
        }
    }

    private static func isBackend(_ text: String, _ name: String) throws(ServerOptionsError) {
        guard CryptoBackends.named(text) != nil else {
            let offered = CryptoBackends.all.map(\.name).joined(separator: " or ")
            throw ServerOptionsError(description: "\(name): unknown backend '\(text)'; this build offers \(offered)")
        }
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
