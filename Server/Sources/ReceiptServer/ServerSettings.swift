import Configuration
import Logging
import ReceiptKit
import ReceiptState

/// What the command line gave `receipt-server`: nil, or an empty list, where it gave nothing, so
/// that the environment variable, and then the default, applies.
public struct ServerFlags: Sendable {
    // Every flag is kept as often as it was given: ``ServerSettings/init(flags:environment:)``
    // refuses a second value of a flag that takes one (ArgumentParser alone would keep the last
    // without a word: `--port 8080 --port 9090` listened on 9090).

    /// `--host`, each time given.
    public var host: [String] = []
    /// `--port`, each time given.
    public var port: [Int] = []
    /// `--bundle-id`, repeated.
    public var bundleIDs: [String] = []
    /// `--environment` (`production`, `sandbox` or `any`), each time given.
    public var environment: [String] = []
    /// `--shared-secret`, repeated.
    public var sharedSecrets: [String] = []
    /// `--xcode` (true) or `--no-xcode` (false).
    public var xcode: Bool?
    /// `--root`, repeated.
    public var roots: [String] = []
    /// `--catalog`, each time given.
    public var catalog: [String] = []
    /// `--max-body-size`, each time given.
    public var maximumBodySize: [Int] = []
    /// `--backend`, each time given.
    public var backend: [String] = []
    /// `--max-connections`, each time given.
    public var maximumConnections: [Int] = []
    /// `--idle-timeout`, each time given.
    public var idleTimeout: [Int] = []
    /// `--request-timeout`, each time given.
    public var requestTimeout: [Int] = []
    /// `--log-level`, each time given.
    public var logLevel: [String] = []
    /// `--database`, each time given.
    public var database: [String] = []

    /// No flag given.
    public init() {}

    /// The values given, by ``ServerSetting/name``, as text (several for a repeated flag).
    var given: [String: [String]] {
        var given: [String: [String]] = [:]
        func add(_ name: String, _ values: [some CustomStringConvertible]) {
            if !values.isEmpty { given[name] = values.map(\.description) }
        }
        add("host", host)
        add("port", port)
        add("bundle-id", bundleIDs)
        add("environment", environment)
        add("shared-secret", sharedSecrets)
        if let xcode { add("xcode", [xcode]) }
        add("root", roots)
        add("catalog", catalog)
        add("max-body-size", maximumBodySize)
        add("backend", backend)
        add("max-connections", maximumConnections)
        add("idle-timeout", idleTimeout)
        add("request-timeout", requestTimeout)
        add("log-level", logLevel)
        add("database", database)
        return given
    }
}

/// Everything `receipt-server` runs with: each setting of ``ServerSetting/all`` from its flag,
/// else its `RECEIPT_SERVER_*` variable, else its default, and checked before the server starts.
public struct ServerSettings: Sendable {
    /// The service's options.
    public var options: ServerOptions
    /// How much the server logs.
    public var logLevel: Logger.Level
    /// The `--environment` value the options came from (`production`, `sandbox` or `any`), for the log.
    public var environmentName: String

    /// Settles every setting, read once through a `ConfigReader` over the command line and then
    /// the environment, so a flag wins over its variable. Each provider's value is checked on its
    /// own first: a variable that is set must be valid even when its flag wins, so that a wrong
    /// deployment file is found the first time it is used.
    /// - Throws: ``ServerOptionsError`` naming the flag or variable whose value is wrong: an
    ///   unknown environment, log level or backend, a port outside 0...65535, a size, connection
    ///   count or timeout that is not positive, an empty `--bundle-id`, `--shared-secret`,
    ///   `--root` or `--catalog`, a flag that takes one value given more than once, and every
    ///   error of ``ServerEnvironment``.
    public init(flags: ServerFlags, environment: ServerEnvironment) throws(ServerOptionsError) {
        let given = flags.given
        var commandLineValues: [AbsoluteConfigKey: ConfigValue] = [:]
        for setting in ServerSetting.all {
            guard let values = given[setting.name] else { continue }
            let content: ConfigContent = setting.isList ? .stringArray(values) : .string(values.last ?? "")
            commandLineValues[AbsoluteConfigKey(setting.key)] = .init(content, isSecret: setting.name == "shared-secret")
        }
        let commandLine = InMemoryProvider(name: "command line", values: commandLineValues)
        let variables = ConfigReader(provider: environment.provider)
        let reader = ConfigReader(providers: [commandLine, environment.provider])

        var values: [String: ServerSettingValue] = [:]
        for setting in ServerSetting.all {
            let isSecret = setting.name == "shared-secret"
            // The variable is checked before the flag is looked at, whether or not the flag wins.
            if let text = variables.string(forKey: setting.key, isSecret: isSecret) {
                _ = try setting.value(variable: text)
            }
            if let values = given[setting.name] {
                _ = try setting.value(flag: values)
            }
            // The value: the flag's, else the variable's, both already checked.
            if setting.isList {
                if let list = reader.stringArray(forKey: setting.key, isSecret: isSecret) { values[setting.name] = .list(list) }
            } else if let text = reader.string(forKey: setting.key, isSecret: isSecret) {
                values[setting.name] = given[setting.name] != nil ? try setting.value(flag: [text]) : try setting.value(variable: text)
            }
        }

        var options = ServerOptions()
        if case .text(let host) = values["host"] { options.host = host }
        if case .number(let port) = values["port"] { options.port = port }
        if case .list(let bundleIDs) = values["bundle-id"] { options.acceptedBundleIDs = Set(bundleIDs) }
        if case .list(let secrets) = values["shared-secret"] { options.sharedSecrets = Set(secrets) }
        if case .yesNo(let xcode) = values["xcode"] { options.acceptsXcodeReceipts = xcode }
        if case .list(let roots) = values["root"] { options.rootPaths = roots }
        if case .text(let catalog) = values["catalog"] { options.catalogPath = catalog }
        if case .number(let size) = values["max-body-size"] { options.maximumBodySize = size }
        if case .text(let backend) = values["backend"] { options.backendName = backend }
        if case .number(let count) = values["max-connections"] { options.maximumConnections = count }
        if case .number(let seconds) = values["idle-timeout"] { options.idleTimeout = seconds }
        if case .number(let seconds) = values["request-timeout"] { options.requestTimeout = seconds }
        if case .text(let database) = values["database"] { options.database = database }
        var environmentName = "any"
        if case .text(let name) = values["environment"] { environmentName = name }
        switch environmentName {
        case "production": options.environment = .production
        case "sandbox": options.environment = .sandbox
        default: options.environment = nil
        }
        var logLevel = Logger.Level.info
        if case .text(let name) = values["log-level"], let level = Logger.Level(rawValue: name) { logLevel = level }
        self.options = options
        self.logLevel = logLevel
        self.environmentName = environmentName
    }
}
