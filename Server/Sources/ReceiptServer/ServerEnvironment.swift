import Configuration
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

    /// The server's variables, as a configuration provider (``ServerSetting/variable`` names).
    let provider: EnvironmentVariablesProvider

    /// Reads the `RECEIPT_SERVER_*` variables of `variables` (by default the process's environment).
    /// - Throws: ``ServerOptionsError`` for a variable whose name the server does not read (but for
    ///   the service links Kubernetes sets, which are skipped).
    public init(_ variables: [String: String] = ProcessInfo.processInfo.environment) throws(ServerOptionsError) {
        let known = ServerSetting.all.map(\.variable)
        var values: [String: String] = [:]
        for (name, value) in variables where name.hasPrefix(Self.prefix) {
            if Self.isKubernetesServiceLink(String(name.dropFirst(Self.prefix.count))) { continue }
            guard known.contains(name) else {
                throw ServerOptionsError(description: "\(name) is not a variable receipt-server reads (it reads \(known.joined(separator: ", ")))")
            }
            values[name] = value
        }
        let secrets = ServerSetting.named("shared-secret").map { [$0.variable] } ?? []
        self.provider = EnvironmentVariablesProvider(environmentVariables: values, secretsSpecifier: .specific(Set(secrets)))
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
}
