import ReceiptCore
import ReceiptEntitlements
/// The `environment` of a `verifyReceipt` response, and the environment a service answers for.
public enum AppleVerifyReceiptEnvironment: String, Hashable, Sendable, Codable, CaseIterable {
    /// `Production`: App Store receipts (`receipt_type` `Production`, `ProductionVPP`, or none).
    case production = "Production"
    /// `Sandbox`: test receipts (`receipt_type` `ProductionSandbox`, `ProductionVPPSandbox`, and
    /// Xcode StoreKit-testing receipts, which Apple's servers never see).
    case sandbox = "Sandbox"

    /// The environment of a receipt type: any type naming a sandbox, and `Xcode`, is
    /// ``sandbox``; every other type, and a receipt without one, is ``production``.
    public init(receiptType: ReceiptEnvironment?) {
        switch receiptType {
        case .productionSandbox?, .xcode?: self = .sandbox
        case .other(let name)?: self = name.contains("Sandbox") ? .sandbox : .production
        case .production?, nil: self = .production
        }
    }
}
