import Configuration
import Foundation
import Logging
import ReceiptKit
import ReceiptState

/// One of `receipt-server`'s settings: its flag, its variable, its kind, its default and what it
/// does. ``all`` is the one table the parse, the strict checks, `--help` and Server/README.md's
/// table (compared by a test) come from.
public struct ServerSetting: Sendable {
    /// What a setting holds, which decides how its text is read and checked.
    public enum Kind: Sendable {
        /// Text, not empty.
        case text
        /// A decimal whole number, in `range`.
        case number(ClosedRange<Int>)
        /// A flag repeated or a comma-separated variable, no entry empty.
        case list
        /// `--name` / `--no-name`, or a variable `1`/`0` (`true`/`false`, `yes`/`no`).
        case yesNo
    }

    /// The flag's long name without `--`, and the configuration key's last component.
    public var name: String
    /// How the value is read.
    public var kind: Kind
    /// The default, as the README and `--help` state it.
    public var defaultText: String
    /// What the setting does (Markdown, for the README).
    public var doc: String
    /// A further check of one value (`name` is the flag or variable to blame); nil for none.
    var check: (@Sendable (String, String) throws(ServerOptionsError) -> Void)?

    /// `--name`.
    public var flag: String { "--" + name }

    /// `RECEIPT_SERVER_NAME`, as `EnvironmentVariablesProvider` spells ``key``.
    public var variable: String { ServerEnvironment.prefix + name.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// The key the setting is read at, from the command line and from the environment.
    var key: ConfigKey { ConfigKey(["receipt", "server", name]) }

    /// The setting called `name` in ``all``.
    public static func named(_ name: String) -> ServerSetting? { all.first { $0.name == name } }

    /// `--help`'s line: the doc, the variable and the default.
    public var help: String {
        let plain = doc.replacingOccurrences(of: "`", with: "")
        let variableText: String
        switch kind {
        case .list: variableText = "repeat for several; env \(variable), comma-separated"
        case .yesNo: variableText = "env \(variable)=1 or 0"
        case .text, .number: variableText = "env \(variable)"
        }
        return "\(plain) (\(variableText); default \(defaultText.replacingOccurrences(of: "`", with: "")))."
    }

    /// The row of Server/README.md's table.
    public var readmeRow: String {
        let flagCell: String
        let variableCell: String
        switch kind {
        case .list: (flagCell, variableCell) = ("`\(flag)` (repeat)", "`\(variable)` (comma-separated)")
        case .yesNo: (flagCell, variableCell) = ("`\(flag)` / `--no-\(name)`", "`\(variable)=1`")
        case .text, .number: (flagCell, variableCell) = ("`\(flag)`", "`\(variable)`")
        }
        return "| \(flagCell) | \(variableCell) | \(defaultText) | \(doc) |"
    }

    var isList: Bool {
        if case .list = kind { return true }
        return false
    }

    /// The settings, in `--help`'s and the README's order.
    public static let all: [ServerSetting] = [
        .init(name: "host", kind: .text, defaultText: "`127.0.0.1`", doc: "address to listen on (`0.0.0.0` for all)"),
        .init(name: "port", kind: .number(0...65535), defaultText: "`8080`", doc: "0 picks a free port"),
        .init(name: "bundle-id", kind: .list, defaultText: "any", doc: "other bundle ids get 21003"),
        .init(
            name: "environment", kind: .text, defaultText: "`any`",
            doc: "`production` (sandbox receipts get 21007), `sandbox` (production ones get 21008)",
            check: { text, name throws(ServerOptionsError) in
                guard ["production", "sandbox", "any"].contains(text) else {
                    throw ServerOptionsError(description: "\(name) takes production, sandbox or any, not '\(text)'")
                }
            }),
        .init(name: "shared-secret", kind: .list, defaultText: "none checked", doc: "a `password` not listed gets 21004"),
        .init(name: "xcode", kind: .yesNo, defaultText: "off", doc: "accept Xcode StoreKit-testing receipts"),
        .init(name: "root", kind: .list, defaultText: "Apple's roots", doc: "trust anchor files, DER or PEM"),
        .init(
            name: "catalog", kind: .text, defaultText: "none",
            doc: "`{\"groups\": {\"GROUP\": [\"product\", …]}}` for `subscription_group_identifier`"),
        .init(name: "max-body-size", kind: .number(1...Int.max), defaultText: "1048576", doc: "bytes; larger bodies get 413"),
        .init(
            name: "backend", kind: .text, defaultText: "`\(CryptoBackends.all.first?.name ?? "none")`",
            doc: "the crypto backend: " + CryptoBackends.all.map { "`\($0.name)`" }.joined(separator: " or "),
            check: { text, name throws(ServerOptionsError) in
                guard CryptoBackends.named(text) != nil else {
                    let offered = CryptoBackends.all.map(\.name).joined(separator: " or ")
                    throw ServerOptionsError(description: "\(name): unknown backend '\(text)'; this build offers \(offered)")
                }
            }),
        .init(
            name: "max-connections", kind: .number(1...Int.max), defaultText: "1024",
            doc: "open connections at once; a new one beyond it takes the place of the connection idle longest (none with a request in flight), or is closed at once when every one has a request in flight"),
        .init(
            name: "idle-timeout", kind: .number(1...Int.max), defaultText: "30",
            doc: "seconds before an idle or stalled connection is closed; a client that stops reading its answer gets as long again"),
        .init(
            name: "request-timeout", kind: .number(1...Int.max), defaultText: "15",
            doc: "seconds from a request's first byte to its last (head and body); a client sending slower is disconnected"),
        .init(
            name: "database", kind: .text, defaultText: "`receipt-state.sqlite`",
            doc: "where notifications and transactions are kept: a file path or `sqlite:PATH`, or `postgres://user[:password]@host[:port]/database`",
            check: { text, name throws(ServerOptionsError) in
                do throws(TokenStoreError) {
                    _ = try StoreLocation(text)
                } catch {
                    throw ServerOptionsError(description: "\(name): \(error.message)")
                }
            }),
        .init(
            name: "log-level", kind: .text, defaultText: "`info`", doc: "swift-log level: trace, debug, info, notice, warning, error or critical",
            check: { text, name throws(ServerOptionsError) in
                guard Logger.Level(rawValue: text) != nil else {
                    throw ServerOptionsError(
                        description: "\(name): unknown log level '\(text)' (trace, debug, info, notice, warning, error or critical)")
                }
            }),
    ]
}

/// A setting's value, read and checked.
enum ServerSettingValue {
    case text(String)
    case number(Int)
    case list([String])
    case yesNo(Bool)
}

extension ServerSetting {
    /// The variable's text, read and checked strictly: set but empty, an empty list entry, a
    /// number that does not parse or is out of range, or a failed ``check`` is an error naming
    /// the variable.
    func value(variable text: String) throws(ServerOptionsError) -> ServerSettingValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ServerOptionsError(description: "\(variable) is set but empty; unset it for the default") }
        switch kind {
        case .list:
            let entries = trimmed.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard !entries.contains(where: \.isEmpty) else {
                // The value is not repeated: it may hold shared secrets.
                throw ServerOptionsError(description: "\(variable) has an empty entry (a comma at either end or two in a row)")
            }
            for entry in entries { try check?(entry, variable) }
            return .list(entries)
        case .yesNo:
            switch trimmed.lowercased() {
            case "1", "true", "yes": return .yesNo(true)
            case "0", "false", "no": return .yesNo(false)
            default: throw ServerOptionsError(description: "\(variable) must be 1 or 0 (true or false, yes or no), not '\(trimmed)'")
            }
        case .number(let range):
            guard let number = Int(trimmed) else {
                let origin = trimmed.contains("://")
                    ? " (Kubernetes sets it so for a Service named receipt-server: set enableServiceLinks: false in the pod, or name the Service otherwise)"
                    : ""
                throw ServerOptionsError(description: "\(variable) must be a whole number, not '\(trimmed)'\(origin)")
            }
            try Self.check(number, in: range, variable)
            return .number(number)
        case .text:
            try check?(trimmed, variable)
            return .text(trimmed)
        }
    }

    /// The flag's values (each time it was given), checked: a second value of a flag that is not
    /// a list, an empty one, a number out of range or a failed ``check`` is an error naming the
    /// flag.
    func value(flag values: [String]) throws(ServerOptionsError) -> ServerSettingValue {
        guard isList || values.count <= 1 else {
            throw ServerOptionsError(description: "\(flag) can be given once, not \(values.count) times")
        }
        guard !values.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw ServerOptionsError(description: "\(flag) was given an empty value")
        }
        switch kind {
        case .list:
            for entry in values { try check?(entry, flag) }
            return .list(values)
        case .yesNo:
            return .yesNo(values.last == "true")
        case .number(let range):
            guard let text = values.last, let number = Int(text) else {
                throw ServerOptionsError(description: "\(flag) must be a whole number")
            }
            try Self.check(number, in: range, flag)
            return .number(number)
        case .text:
            let text = values.last ?? ""
            try check?(text, flag)
            return .text(text)
        }
    }

    private static func check(_ number: Int, in range: ClosedRange<Int>, _ name: String) throws(ServerOptionsError) {
        guard range.contains(number) else {
            if range.upperBound == Int.max {
                throw ServerOptionsError(description: "\(name) must be positive, not \(number)")
            }
            throw ServerOptionsError(description: "\(name) must lie in \(range.lowerBound)...\(range.upperBound), not \(number)")
        }
    }
}
