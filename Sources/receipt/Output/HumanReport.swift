#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// The human-readable block `verify` prints for one receipt: verdict, receipt facts, certificate
/// chain and a table of purchases.
struct HumanReport {
    /// The outcome to describe.
    let outcome: VerificationOutcome
    /// The backend that verified it.
    let backendName: String

    /// The whole block, ending with a newline; certificate lines come from (and go to) `summaries`.
    func text(summaries: SharedCertificateSummaries) -> String {
        var bytes: [UInt8] = []
        write(summaries: summaries, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the block (``text(summaries:)``) to `output` as UTF-8.
    func write(summaries: SharedCertificateSummaries, into output: inout [UInt8]) {
        var lines: [String] = []
        lines.append("\(outcome.label): \(verdict)")
        let report = outcome.report
        if let receipt = report.receipt {
            if !report.isValid {
                lines.append("  (the receipt was read from verified bytes, but failed the check above)")
            }
            lines += receiptLines(receipt)
        }
        if let time = report.verificationTime, report.trust != nil {
            var how = "  Verified:          chain at \(RFC3339.string(from: time)) by \(backendName)"
            if let digest = report.digestAlgorithm { how += ", \(digest)" }
            if let trust = report.trust { how += ", \(Self.describe(trust))" }
            lines.append(how)
        } else if let time = report.verificationTime {
            lines.append("  Checked at:        \(RFC3339.string(from: time)) by \(backendName)")
        }
        lines += chainLines(report, summaries: summaries)
        for line in lines {
            // Names, strings and messages come from the file: controls escaped (TerminalText).
            output.append(contentsOf: TerminalText.escaped(line).utf8)
            output.append(0x0A)
        }
        if let receipt = report.receipt {
            writePurchasesTable(receipt.inAppPurchases, into: &output)
        }
    }

    /// `VALID`, or `INVALID: code — message`, or `UNREADABLE: code — message`.
    private var verdict: String {
        guard let error = outcome.report.error else {
            return outcome.report.isValid ? "VALID" : "INVALID"
        }
        let word = outcome.status == .unreadable ? "UNREADABLE" : "INVALID"
        return "\(word): \(error.code.rawValue) — \(outcome.displayedMessage(for: error))"
    }

    private func receiptLines(_ receipt: Receipt) -> [String] {
        var lines: [String] = []
        func add(_ name: String, _ value: String?) {
            let padded = name + ":" + String(repeating: " ", count: max(0, 18 - name.count))
            lines.append("  \(padded)\(value ?? "-")")
        }
        add("Environment", receipt.environment?.rawValue)
        add("Bundle ID", receipt.bundleID)
        add("App version", receipt.applicationVersion)
        add("Original version", receipt.originalApplicationVersion)
        add("Created", receipt.creationDate.map(RFC3339.string(from:)))
        if let date = receipt.originalPurchaseDate { add("Original purchase", RFC3339.string(from: date)) }
        add("Expires", receipt.expirationDate.map(RFC3339.string(from:)) ?? "never")
        switch outcome.report.deviceHashMatches {
        case true?: add("Device hash", "matches")
        case false?: add("Device hash", "DOES NOT MATCH")
        case nil: add("Device hash", "not checked (no --device-id)")
        }
        return lines
    }

    private func chainLines(_ report: ReceiptValidationReport, summaries: SharedCertificateSummaries) -> [String] {
        let certificates: [Certificate]
        var lines: [String] = []
        if !report.signerChain.isEmpty {
            certificates = report.signerChain
            lines.append("  Certificate chain (verified, leaf first):")
        } else if !outcome.embeddedCertificates.isEmpty {
            certificates = outcome.embeddedCertificates
            lines.append("  Embedded certificates (NOT verified):")
        } else {
            return []
        }
        return lines + summaries.lines(for: certificates)
    }

    private func writePurchasesTable(_ purchases: [InAppPurchase], into output: inout [UInt8]) {
        guard !purchases.isEmpty else {
            output.append(contentsOf: "  Purchases:         none\n".utf8)
            return
        }
        var table = TextTable(header: ["PRODUCT", "QTY", "TRANSACTION", "ORIGINAL TX", "PURCHASED", "EXPIRES", "CANCELLED"])
        table.rows.reserveCapacity(purchases.count)
        for purchase in purchases {
            table.rows.append([
                purchase.productID ?? "-",
                purchase.quantity.map(String.init) ?? "-",
                purchase.transactionID ?? "-",
                purchase.originalTransactionID ?? "-",
                purchase.purchaseDate.map(RFC3339.string(from:)) ?? "-",
                purchase.expiresDate.map(RFC3339.string(from:)) ?? "-",
                purchase.cancellationDate.map(RFC3339.string(from:)) ?? "-",
            ])
        }
        output.append(contentsOf: "  Purchases (\(purchases.count)):\n".utf8)
        table.render(indent: "    ", into: &output)
    }

    private static func describe(_ trust: ReceiptTrust) -> String {
        switch trust {
        case .appleReceiptSigning: "Apple receipt-signing chain"
        case .storeKitTesting: "Xcode StoreKit test certificate (--xcode)"
        }
    }
}
