import Foundation

/// The `RECEIPT_SERVER_*` environment variables, read strictly.
///
/// A variable that is set must hold a value of its kind: a number that does not parse, an empty
/// value, a list with an empty entry or a name the server does not know is an error that stops
/// the server before it listens, never a silent fall-back to the default. A deployment that sets
/// `RECEIPT_SERVER_BUNDLE_ID=$BUNDLE_ID` with `BUNDLE_ID` unset would otherwise accept every
/// app's receipts, and one that misspells a name (`RECEIPT_SERVER_BUNDLE_IDS`) would never know.
public struct ServerEnvironment: Sendable {
    /// What every variable's name starts with.
    public static let prefix = "RECEIPT_SERVER_"

    /// The names the server reads, without ``prefix``.
    public static let names: [String] = [
        "HOST", "PORT", "BUNDLE_ID", "ENVIRONMENT", "SHARED_SECRET", "XCODE", "ROOT", "CATALOG",
        "MAX_BODY_SIZE", "BACKEND", "MAX_CONNECTIONS", "IDLE_TIMEOUT", "REQUEST_TIMEOUT", "LOG_LEVEL",
        "DATABASE",
    ]

    /// The server's variables, by name without ``prefix``.
    private let values: [String: String]

    /// Reads the `RECEIPT_SERVER_*` variables of `variables` (by default the process's environment).
    /// - Throws: ``ServerOptionsError`` for a variable whose name the server does not read (but for
    ///   the service links Kubernetes sets, which are skipped).
    public init(_ variables: [String: String] = ProcessInfo.processInfo.environment) throws(ServerOptionsError) {
        var values: [String: String] = [:]
        for (name, value) in variables where name.hasPrefix(Self.prefix) {
            let short = String(name.dropFirst(Self.prefix.count))
            if Self.isKubernetesServiceLink(short) { continue }
            guard Self.names.contains(short) else {
                let known = Self.names.map { Self.prefix + $0 }.joined(separator: ", ")
                throw ServerOptionsError(description: "\(name) is not a variable receipt-server reads (it reads \(known))")
            }
            values[short] = value
        }
        self.values = values
    }

    /// Whether `name` (without ``prefix``) is one of the variables Kubernetes sets in every pod for
    /// a Service named `receipt-server` (`SERVICE_HOST`, `SERVICE_PORT`, `SERVICE_PORT_HTTP`,
    /// `PORT_8080_TCP`, `PORT_8080_TCP_ADDR`, …): not settings, so skipped rather than refused.
    /// (`PORT` itself, which Kubernetes sets to `tcp://ADDRESS:PORT`, is a setting: it is refused
    /// with a word on where it came from.)
    static func isKubernetesServiceLink(_ name: String) -> Bool {
        if name == "SERVICE_HOST" || name == "SERVICE_PORT" || name.hasPrefix("SERVICE_PORT_") { return true }
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 4, parts[0] == "PORT", !parts[1].isEmpty,
              parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), ["TCP", "UDP", "SCTP"].contains(parts[2])
        else { return false }
        return parts.count == 3 || ["PROTO", "PORT", "ADDR"].contains(parts[3])
    }

    /// The text of variable `name` (without ``prefix``); nil when it is not set.
    /// - Throws: ``ServerOptionsError`` when it is set but empty or only white space.
    public func text(_ name: String) throws(ServerOptionsError) -> String? {
        guard let value = values[name] else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw ServerOptionsError(description: "\(Self.prefix)\(name) is set but empty; unset it for the default")
        }
        return trimmed
    }

    /// Variable `name` as a whole number; nil when it is not set.
    /// - Throws: ``ServerOptionsError`` when it is set to anything but a decimal integer.
    public func integer(_ name: String) throws(ServerOptionsError) -> Int? {
        guard let text = try text(name) else { return nil }
        guard let number = Int(text) else {
            let origin = text.contains("://")
                ? " (Kubernetes sets it so for a Service named receipt-server: set enableServiceLinks: false in the pod, or name the Service otherwise)"
                : ""
            throw ServerOptionsError(description: "\(Self.prefix)\(name) must be a whole number, not '\(text)'\(origin)")
        }
        return number
    }

    /// Variable `name` as a yes or no (`1`, `true`, `yes` or `0`, `false`, `no`, in any case); nil
    /// when it is not set.
    /// - Throws: ``ServerOptionsError`` for any other value.
    public func flag(_ name: String) throws(ServerOptionsError) -> Bool? {
        guard let text = try text(name) else { return nil }
        switch text.lowercased() {
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: throw ServerOptionsError(description: "\(Self.prefix)\(name) must be 1 or 0 (true or false, yes or no), not '\(text)'")
        }
    }

    /// Variable `name` as a comma-separated list, each entry trimmed; nil when it is not set.
    /// - Throws: ``ServerOptionsError`` when it is set but empty, or an entry is empty (`a,,b`, a
    ///   trailing comma), which names nothing.
    public func list(_ name: String) throws(ServerOptionsError) -> [String]? {
        guard let text = try text(name) else { return nil }
        let entries = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !entries.contains(where: \.isEmpty) else {
            // The value is not repeated: it may hold shared secrets.
            throw ServerOptionsError(description: "\(Self.prefix)\(name) has an empty entry (a comma at either end or two in a row)")
        }
        return entries
    }
}
