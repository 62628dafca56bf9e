import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// `receipt entitlements FILE`: what the receipt's owner is entitled to at a moment.
struct EntitlementsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entitlements",
        abstract: "Show what a valid receipt entitles its user to, per product and subscription group, at a moment.",
        // Written out: ArgumentParser shows the single-valued options, parsed as lists
        // (SingleValuedOption), as repeatable. HelpTests holds it to the options the help lists.
        usage:
            "receipt entitlements <file> [--root <cert> ...] [--xcode] [--bundle-id <id>]"
            + " [--app-version <version>] [--device-id <uuid|mac|hex>] [--backend <name>]"
            + " [--catalog <file.json>] [--at <now|creation|date>] [--json] [<jws> ...]",
        discussion: """
            The receipt is validated first exactly as `verify` does (same --root, --xcode, \
            --bundle-id, --app-version, --device-id and --backend), with the certificate chain \
            checked at the receipt's creation date. --at is the moment the entitlements are for: \
            `now` (the default), `creation` (the receipt's creation date) or an RFC 3339 date.

            --catalog names the app's subscription groups and the durations of its non-renewing \
            subscriptions; without it every auto-renewable product is a group of its own and a \
            non-renewing subscription counts as owned until refunded. Example:
              {"groups": {"21482456": ["com.example.pro.monthly", "com.example.pro.yearly"]},
               "non_renewing": {"com.example.season": "P3M"}}

            A receipt can not tell auto-renew status, billing retry, grace periods, or renewals and \
            refunds after it was made: Apple's App Store Server API answers those.

            JWS files (StoreKit 2 transactions, App Store Server Notifications with their \
            nested transaction, an app transaction; detected by content) are read together: \
            every one must verify, and their transactions go through the same rules as a \
            receipt's purchases; `--at creation` is the newest token's signedDate. An \
            auto-renewable product without --catalog joins its transaction's \
            subscriptionGroupIdentifier.

            Exit status: 0 the receipt is valid, 1 it is invalid, 2 usage error (including a bad \
            catalog), 3 a file could not be read or the output could not be written.

            Examples:
              receipt entitlements app.receipt
              receipt entitlements --at creation --catalog products.json --json app.receipt
              receipt entitlements --xcode --at 2023-10-20T00:00:00Z StoreKitTestReceipt.receipt
              receipt entitlements --json transaction1.jws transaction2.jws
            """
    )

    @OptionGroup var receiptOptions: ValidatedReceiptOptions

    @Option(
        name: .customLong("at"),
        help: ArgumentHelp("The moment the entitlements are for: now, creation, or an RFC 3339 date. (default: now)", valueName: "now|creation|date")
    )
    var moments: [VerificationTimeOption] = []

    /// `--at` (given at most once: ``validate()``), `now` when not given.
    var moment: VerificationTimeOption { moments.first ?? VerificationTimeOption(.now) }

    func validate() throws {
        _ = try SingleValuedOption.value(moments, "--at")
    }

    @Flag(help: "Print JSON.")
    var json = false

    @Argument(help: ArgumentHelp("More JWS files (transactions, notifications, an app transaction), read together with the first.", valueName: "jws"))
    var moreTokens: [String] = []

    func run() throws {
        let catalog = try receiptOptions.loadCatalog()
        let outcome = try receiptOptions.verify()
        if outcome.token != nil || !moreTokens.isEmpty {
            var outcomes = [outcome]
            for file in moreTokens { outcomes.append(try receiptOptions.verify(file)) }
            try runTokens(outcomes, catalog: catalog)
            return
        }
        guard outcome.report.isValid, let receipt = outcome.report.receipt else {
            try reportFailure(outcome, outcome.report.error ?? ReceiptValidationError(.malformedReceipt, "the receipt could not be read"))
        }
        guard let date = moment.time.instant(for: receipt) else {
            throw CommandFailure(status: .invalid, message: "--at creation: the receipt has no creation date")
        }
        let entitlements = receipt.entitlements(at: date, catalog: catalog)
        if json {
            try StandardOutput.writeLine(JSONByteWriter.text(pretty: true) { $0.entitlements(entitlements) })
        } else {
            try StandardOutput.write(EntitlementsText(label: outcome.label, entitlements: entitlements).text)
        }
    }
}

extension EntitlementsCommand {
    /// Prints why `outcome` gave no entitlements (`UNREADABLE` for a file that could not be read,
    /// as `verify` says, else `INVALID`) and exits with its status: 3 or 1.
    func reportFailure(_ outcome: VerificationOutcome, _ error: ReceiptValidationError) throws -> Never {
        if json {
            try StandardOutput.writeLine(JSONByteWriter.text(pretty: true) { $0.entitlementsFailure(error) })
        } else {
            let word = outcome.status == .unreadable ? "UNREADABLE" : "INVALID"
            try StandardOutput.writeLine("\(outcome.label == "-" ? "(stdin)" : outcome.label): \(word): \(ValidatedReceiptOptions.describe(error))")
        }
        throw ValidatedReceiptOptions.failureStatus(outcome).exitCode
    }

    /// Entitlements of verified JWS: the transactions (a notification's nested one too) and the app
    /// transaction, at `--at` (`creation` is the newest token's signedDate). Every input must be a
    /// valid token; the first that is not is printed as a receipt failure is.
    func runTokens(_ outcomes: [VerificationOutcome], catalog: ProductCatalog) throws {
        var transactions: [TransactionPayload] = []
        var appTransaction: AppTransactionPayload?
        var newestSignedDate = Date.distantPast
        for outcome in outcomes {
            guard let token = outcome.token else {
                // A file that could not be read is reported as such (exit status 3), not as a
                // receipt given among tokens.
                if outcome.status == .unreadable, let error = outcome.report.error { try reportFailure(outcome, error) }
                throw CommandFailure(status: .usage, message: "\(outcome.label) is not a JWS: several files are read only as JWS (a receipt is read alone)")
            }
            let verified: VerifiedJWS
            switch token.result {
            case .success(let value): verified = value
            case .failure(let error): try reportFailure(outcome, error)
            }
            newestSignedDate = max(newestSignedDate, verified.signedDate)
            switch verified.payload {
            case .transaction(let transaction): transactions.append(transaction)
            case .notification(let notification):
                if let transaction = notification.data?.transaction { transactions.append(transaction) }
            case .appTransaction(let app): appTransaction = app
            case .renewalInfo: break  // Renewal intent does not change what is owned now.
            }
        }
        let date: Date = switch moment.time {
        case .now: Date()
        case .creationDate: newestSignedDate
        case .fixed(let fixed): fixed
        }
        let entitlements = Entitlements(transactions: transactions, appTransaction: appTransaction, at: date, catalog: catalog)
        let label = outcomes.map(\.label).joined(separator: ", ")
        if json {
            try StandardOutput.writeLine(JSONByteWriter.text(pretty: true) { $0.entitlements(entitlements) })
        } else {
            try StandardOutput.write(EntitlementsText(label: label, entitlements: entitlements).text)
        }
    }
}

extension VerificationTime {
    /// The instant this names for `receipt` (`entitlements --at` reuses `verify --at`'s syntax);
    /// nil for the creation date of a receipt that has none.
    func instant(for receipt: Receipt) -> Date? {
        switch self {
        case .now: Date()
        case .creationDate: receipt.creationDate
        case .fixed(let date): date
        }
    }
}
