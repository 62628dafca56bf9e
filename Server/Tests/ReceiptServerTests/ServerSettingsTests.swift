import Foundation
import Logging
import ReceiptKit
import ReceiptServer
import Testing

/// How flags, `RECEIPT_SERVER_*` variables and defaults become the server's settings, and that a
/// wrong variable stops the server instead of falling back to a default.
@Suite struct ServerSettingsTests {
    private static func settings(_ variables: [String: String], _ flags: ServerFlags = ServerFlags()) throws -> ServerSettings {
        try ServerSettings(flags: flags, environment: ServerEnvironment(variables))
    }

    /// The error for `variables` (and `flags`), or nil when they are accepted.
    private static func failure(_ variables: [String: String], _ flags: ServerFlags = ServerFlags()) -> String? {
        do {
            _ = try settings(variables, flags)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func nothingSetGivesTheDefaults() throws {
        let settings = try Self.settings(["PATH": "/usr/bin", "RECEIPT_SERVER": "not one of ours: no underscore after the prefix"])
        let options = settings.options
        #expect(options.host == "127.0.0.1")
        #expect(options.port == 8080)
        #expect(options.acceptedBundleIDs.isEmpty)
        #expect(options.sharedSecrets.isEmpty)
        #expect(options.environment == nil)
        #expect(!options.acceptsXcodeReceipts)
        #expect(options.rootPaths.isEmpty)
        #expect(options.catalogPath == nil)
        #expect(options.maximumBodySize == 1 << 20)
        #expect(options.backendName == nil)
        #expect(options.maximumConnections == 1024)
        #expect(options.idleTimeout == 30)
        #expect(options.requestTimeout == 15)
        #expect(options.validationQueueLimit == min(64 * options.maximumConcurrentValidations, 512))
        #expect(settings.logLevel == .info)
        #expect(settings.environmentName == "any")
    }

    @Test func everyVariableIsRead() throws {
        let settings = try Self.settings([
            "RECEIPT_SERVER_HOST": "0.0.0.0", "RECEIPT_SERVER_PORT": " 9090 ", "RECEIPT_SERVER_BUNDLE_ID": "com.a, com.b",
            "RECEIPT_SERVER_ENVIRONMENT": "production", "RECEIPT_SERVER_SHARED_SECRET": "s1,s2", "RECEIPT_SERVER_XCODE": "true",
            "RECEIPT_SERVER_ROOT": "/a.cer,/b.pem", "RECEIPT_SERVER_CATALOG": "/catalog.json", "RECEIPT_SERVER_MAX_BODY_SIZE": "4096",
            "RECEIPT_SERVER_BACKEND": "gnutls", "RECEIPT_SERVER_MAX_CONNECTIONS": "7", "RECEIPT_SERVER_IDLE_TIMEOUT": "5",
            "RECEIPT_SERVER_REQUEST_TIMEOUT": "9", "RECEIPT_SERVER_LOG_LEVEL": "debug",
        ])
        let options = settings.options
        #expect(options.host == "0.0.0.0")
        #expect(options.port == 9090)
        #expect(options.acceptedBundleIDs == ["com.a", "com.b"])
        #expect(options.sharedSecrets == ["s1", "s2"])
        #expect(options.environment == .production)
        #expect(options.acceptsXcodeReceipts)
        #expect(options.rootPaths == ["/a.cer", "/b.pem"])
        #expect(options.catalogPath == "/catalog.json")
        #expect(options.maximumBodySize == 4096)
        #expect(options.backendName == "gnutls")
        #expect(options.maximumConnections == 7)
        #expect(options.idleTimeout == 5)
        #expect(options.requestTimeout == 9)
        #expect(settings.logLevel == .debug)
        #expect(settings.environmentName == "production")
    }

    @Test func aFlagWinsOverItsVariable() throws {
        var flags = ServerFlags()
        flags.port = [0]
        flags.bundleIDs = ["com.flag"]
        flags.xcode = false
        flags.environment = ["sandbox"]
        let settings = try Self.settings(
            ["RECEIPT_SERVER_PORT": "9090", "RECEIPT_SERVER_BUNDLE_ID": "com.variable", "RECEIPT_SERVER_XCODE": "1",
             "RECEIPT_SERVER_ENVIRONMENT": "production"], flags)
        #expect(settings.options.port == 0)
        #expect(settings.options.acceptedBundleIDs == ["com.flag"])
        #expect(!settings.options.acceptsXcodeReceipts)
        #expect(settings.options.environment == .sandbox)
    }

    @Test(arguments: [
        (["RECEIPT_SERVER_BUNDLE_ID": ""], "RECEIPT_SERVER_BUNDLE_ID is set but empty"),
        (["RECEIPT_SERVER_BUNDLE_ID": "  "], "RECEIPT_SERVER_BUNDLE_ID is set but empty"),
        (["RECEIPT_SERVER_BUNDLE_ID": "com.a,,com.b"], "RECEIPT_SERVER_BUNDLE_ID has an empty entry"),
        (["RECEIPT_SERVER_BUNDLE_ID": "com.a,"], "RECEIPT_SERVER_BUNDLE_ID has an empty entry"),
        (["RECEIPT_SERVER_SHARED_SECRET": ""], "RECEIPT_SERVER_SHARED_SECRET is set but empty"),
        (["RECEIPT_SERVER_SHARED_SECRET": ",secret"], "RECEIPT_SERVER_SHARED_SECRET has an empty entry"),
        (["RECEIPT_SERVER_ROOT": ""], "RECEIPT_SERVER_ROOT is set but empty"),
        (["RECEIPT_SERVER_CATALOG": ""], "RECEIPT_SERVER_CATALOG is set but empty"),
        (["RECEIPT_SERVER_PORT": "80a"], "RECEIPT_SERVER_PORT must be a whole number, not '80a'"),
        (["RECEIPT_SERVER_PORT": "70000"], "RECEIPT_SERVER_PORT must lie in 0...65535, not 70000"),
        (["RECEIPT_SERVER_PORT": "-1"], "RECEIPT_SERVER_PORT must lie in 0...65535"),
        (["RECEIPT_SERVER_MAX_BODY_SIZE": "1MB"], "RECEIPT_SERVER_MAX_BODY_SIZE must be a whole number"),
        (["RECEIPT_SERVER_MAX_BODY_SIZE": "0"], "RECEIPT_SERVER_MAX_BODY_SIZE must be positive, not 0"),
        (["RECEIPT_SERVER_MAX_CONNECTIONS": "-5"], "RECEIPT_SERVER_MAX_CONNECTIONS must be positive"),
        (["RECEIPT_SERVER_REQUEST_TIMEOUT": "0"], "RECEIPT_SERVER_REQUEST_TIMEOUT must be positive"),
        (["RECEIPT_SERVER_BACKEND": "boringssl"], "RECEIPT_SERVER_BACKEND: unknown backend 'boringssl'"),
        (["RECEIPT_SERVER_MAX_CONNECTIONS": "many"], "RECEIPT_SERVER_MAX_CONNECTIONS must be a whole number"),
        (["RECEIPT_SERVER_IDLE_TIMEOUT": "30s"], "RECEIPT_SERVER_IDLE_TIMEOUT must be a whole number"),
        (["RECEIPT_SERVER_XCODE": "maybe"], "RECEIPT_SERVER_XCODE must be 1 or 0"),
        (["RECEIPT_SERVER_ENVIRONMENT": "staging"], "RECEIPT_SERVER_ENVIRONMENT takes production, sandbox or any, not 'staging'"),
        (["RECEIPT_SERVER_LOG_LEVEL": "loud"], "RECEIPT_SERVER_LOG_LEVEL: unknown log level 'loud'"),
        (["RECEIPT_SERVER_BUNDLE_IDS": "com.a"], "RECEIPT_SERVER_BUNDLE_IDS is not a variable receipt-server reads"),
    ])
    func aWrongVariableIsAnError(_ variables: [String: String], _ expected: String) {
        let failure = Self.failure(variables)
        #expect(failure?.contains(expected) == true, "\(variables): \(failure ?? "accepted")")
    }

    /// A set-but-wrong variable is an error even when its flag is given: every kind of check, on
    /// the variable whose flag wins.
    @Test func aSetButWrongVariableIsIgnoredWhenItsFlagIsGiven() {
        var flags = ServerFlags()
        flags.port = [0]
        flags.bundleIDs = ["com.flag"]
        flags.environment = ["any"]
        flags.maximumBodySize = [4096]
        flags.maximumConnections = [8]
        flags.idleTimeout = [5]
        flags.requestTimeout = [5]
        flags.backend = ["openssl"]
        flags.logLevel = ["info"]
        #expect(Self.failure([:], flags) == nil)
        for (name, value) in [
            ("PORT", "eighty"), ("PORT", "70000"), ("BUNDLE_ID", ""), ("ENVIRONMENT", "staging"), ("MAX_BODY_SIZE", "0"),
            ("MAX_CONNECTIONS", "-1"), ("IDLE_TIMEOUT", "0"), ("REQUEST_TIMEOUT", "0"), ("BACKEND", "boringssl"), ("LOG_LEVEL", "loud"),
        ] {
            let failure = Self.failure(["RECEIPT_SERVER_" + name: value], flags)
            #expect(failure?.contains("RECEIPT_SERVER_" + name) == true, "\(name)=\(value): \(failure ?? "accepted")")
        }
    }

    /// A wrong flag is named as the flag.
    @Test func aWrongFlagIsNamed() {
        for (set, expected) in [
            ({ (flags: inout ServerFlags) in flags.port = [70000] }, "--port must lie in 0...65535, not 70000"),
            ({ (flags: inout ServerFlags) in flags.requestTimeout = [0] }, "--request-timeout must be positive"),
            ({ (flags: inout ServerFlags) in flags.environment = ["prod"] }, "--environment takes production, sandbox or any"),
            ({ (flags: inout ServerFlags) in flags.backend = ["x"] }, "--backend: unknown backend 'x'"),
            // A flag that takes one value, given twice: refused, not the last kept.
            ({ (flags: inout ServerFlags) in flags.port = [1, 0] }, "--port can be given once, not 2 times"),
            ({ (flags: inout ServerFlags) in flags.database = ["a.sqlite", "b.sqlite", "c.sqlite"] }, "--database can be given once, not 3 times"),
            ({ (flags: inout ServerFlags) in flags.logLevel = ["info", "info"] }, "--log-level can be given once, not 2 times"),
        ] {
            var flags = ServerFlags()
            set(&flags)
            #expect(Self.failure([:], flags)?.contains(expected) == true, "\(expected)")
        }
    }

    /// `RECEIPT_SERVER_PORT=70000 receipt-server --port 0`: the process exits with status 64,
    /// naming the variable, and never listens.
    @Test(.timeLimit(.minutes(1)))
    func aSetButWrongVariableIsIgnoredWhenItsFlagIsGivenToTheProcess() async throws {
        let server = try ServerProcess(["--port", "0"], environment: ["RECEIPT_SERVER_PORT": "70000"])
        let status = try await server.exitStatus(within: 20)
        #expect(status == 64, "\(server.log)")
        #expect(server.log.contains("RECEIPT_SERVER_PORT must lie in 0...65535, not 70000"), "\(server.log)")
        #expect(!server.log.contains("listening on"), "\(server.log)")
        try await server.stop()
    }

    /// An option that takes one value, given twice, and `--xcode --no-xcode`: ArgumentParser kept
    /// the last without a word (`--port 1 --port 0` listened on a free port); and `--at` without
    /// `--rebuild-state`, which nothing read. The process exits
    /// with status 64, naming the option, and never listens.
    @Test(.timeLimit(.minutes(1)), arguments: [
        (["--port", "1", "--port", "0"], "--port can be given once, not 2 times"),
        (["--environment", "production", "--environment", "any", "--port", "0"], "--environment can be given once, not 2 times"),
        (["--log-level", "info", "--log-level", "debug", "--log-level", "error", "--port", "0"], "--log-level can be given once, not 3 times"),
        (["--xcode", "--no-xcode", "--port", "0"], "'--no-xcode' had already been set with flag '--xcode'"),
        (["--rebuild-state", "--at", "2025-01-01T00:00:00Z", "--at", "2025-01-02T00:00:00Z", "--port", "0"], "--at can be given once, not 2 times"),
        // Not twice, but without effect: --at belongs to --rebuild-state (it was ignored).
        (["--at", "2020-01-01T00:00:00Z", "--port", "0"], "--at is read only with --rebuild-state"),
    ])
    func anOptionGivenTwiceIsRefused(arguments: [String], message: String) async throws {
        let server = try ServerProcess(arguments)
        let status = try await server.exitStatus(within: 20)
        #expect(status == 64, "\(server.log)")
        #expect(server.log.contains(message), "\(server.log)")
        #expect(!server.log.contains("listening on"), "\(server.log)")
        try await server.stop()
    }

    /// `receipt-server --version` prints ReceiptKit's version.
    @Test(.timeLimit(.minutes(1)))
    func versionPrintsReceiptKitsVersion() async throws {
        let server = try ServerProcess(["--version"])
        #expect(try await server.exitStatus(within: 20) == 0)
        #expect(server.log == ReceiptKitVersion.current + "\n", "\(server.log)")
    }

    /// What Kubernetes sets in every pod for a Service named `receipt-server` on port 8080: its
    /// service links are skipped, but `RECEIPT_SERVER_PORT=tcp://…` names our own setting, so it
    /// is refused, saying where it came from.
    @Test func kubernetesServiceLinks() throws {
        let links = [
            "RECEIPT_SERVER_SERVICE_HOST": "10.0.0.11", "RECEIPT_SERVER_SERVICE_PORT": "8080",
            "RECEIPT_SERVER_SERVICE_PORT_HTTP": "8080", "RECEIPT_SERVER_PORT_8080_TCP": "tcp://10.0.0.11:8080",
            "RECEIPT_SERVER_PORT_8080_TCP_PROTO": "tcp", "RECEIPT_SERVER_PORT_8080_TCP_PORT": "8080",
            "RECEIPT_SERVER_PORT_8080_TCP_ADDR": "10.0.0.11",
        ]
        let settings = try Self.settings(links)
        #expect(settings.options.port == 8080)
        #expect(settings.options.host == "127.0.0.1")
        var withPort = links
        withPort["RECEIPT_SERVER_PORT"] = "tcp://10.0.0.11:8080"
        let failure = Self.failure(withPort)
        #expect(failure?.contains("RECEIPT_SERVER_PORT must be a whole number") == true, "\(failure ?? "accepted")")
        #expect(failure?.contains("enableServiceLinks") == true, "\(failure ?? "accepted")")
        // Only those shapes are skipped: near misses are still unknown names.
        for name in ["PORT_TCP", "PORT_8080_HTTP", "PORT_80A_TCP", "PORT_8080_TCP_HOST", "SERVICE"] {
            #expect(Self.failure(["RECEIPT_SERVER_" + name: "x"])?.contains("is not a variable") == true, "\(name)")
        }
    }

    @Test func aSharedSecretIsNotRepeatedInTheError() {
        let failure = Self.failure(["RECEIPT_SERVER_SHARED_SECRET": "hunter2,,other"])
        #expect(failure != nil)
        #expect(failure?.contains("hunter2") == false, "\(failure ?? "")")
    }

    @Test func yesAndNoSpellings() throws {
        for (text, value) in [("1", true), ("TRUE", true), ("yes", true), ("0", false), ("false", false), ("No", false)] {
            #expect(try Self.settings(["RECEIPT_SERVER_XCODE": text]).options.acceptsXcodeReceipts == value, "\(text)")
        }
    }

    @Test func anEmptyFlagValueIsAnError() {
        for (name, set) in [
            ("--bundle-id", { (flags: inout ServerFlags) in flags.bundleIDs = ["com.a", ""] }),
            ("--shared-secret", { (flags: inout ServerFlags) in flags.sharedSecrets = [" "] }),
            ("--root", { (flags: inout ServerFlags) in flags.roots = [""] }),
            ("--catalog", { (flags: inout ServerFlags) in flags.catalog = [""] }),
        ] {
            var flags = ServerFlags()
            set(&flags)
            #expect(Self.failure([:], flags)?.contains(name) == true, "\(name)")
        }
    }

    /// `receipt-server` itself with an empty `RECEIPT_SERVER_BUNDLE_ID` (a deployment file whose
    /// variable was never filled in): it exits with a usage error naming the variable and never
    /// listens, instead of accepting every app's receipts.
    @Test(.timeLimit(.minutes(1)))
    func theProcessRefusesToStartOnAWrongVariable() throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("receipt-server")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build receipt-server first: swift build --build-tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--port", "0"]
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix(ServerEnvironment.prefix) }
        environment["RECEIPT_SERVER_BUNDLE_ID"] = ""
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64, "\(text)")
        #expect(text.contains("RECEIPT_SERVER_BUNDLE_ID is set but empty"), "\(text)")
        #expect(!text.contains("listening on"), "\(text)")
    }
}
