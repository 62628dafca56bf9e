import ReceiptKit

/// The receipts whose payloads some fixture actually signed.
///
/// A fuzzer cannot forge an RSA signature, so any receipt a validator parses from bytes it verified
/// must be one of these: a mutated input that yields any other receipt means the parser read bytes
/// the backend did not verify (a parser differential), or a signature check was skipped.
public enum SignedPayloads {
    /// Every receipt parsed from the content of a fixture file (real, generated, hostile, regressions),
    /// except the hostile `tampered-*` and `bad-signature-*` files, whose content nobody signed.
    public static let receipts: Set<Receipt> = {
        var result = Set<Receipt>()
        let folders = ["real/receipts", "generated/receipts", "generated/hostile"]
            + ["loader", "container", "parser", "validator-openssl", "validator-gnutls"].map { "fuzz-regressions/\($0)" }
        for folder in folders {
            for file in FuzzFixtures.files(in: folder) {
                let name = file.name.split(separator: "/").last.map(String.init) ?? ""
                guard !name.hasPrefix("tampered-"), !name.hasPrefix("bad-signature-"),
                      let container = try? PKCS7Container(bytes: file.bytes),
                      let receipt = try? ReceiptParser.parse(container.content)
                else { continue }
                result.insert(receipt)
            }
        }
        return result
    }()

    /// Nil when the report's receipt (if any) is one a fixture signed, else a description.
    public static func violation(in report: ReceiptValidationReport) -> String? {
        guard let receipt = report.receipt, !receipts.contains(receipt) else { return nil }
        return "a receipt no fixture signed was parsed from verified bytes (bundle id \(receipt.bundleID ?? "nil"), \(receipt.inAppPurchases.count) purchases, error \(report.error?.code.rawValue ?? "none"))"
    }
}
