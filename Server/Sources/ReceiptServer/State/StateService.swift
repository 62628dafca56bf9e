import Foundation
import Logging
import ReceiptKit
import ReceiptState

/// The stored-state half of `receipt-server`: verified notifications and transactions kept in a
/// ``TokenStore``, and the state derived from them (``StateReader``), with no HTTP.
///
/// Every token is verified with the service's validator (the same anchors as receipts: `--root`
/// applies to both), on the validation pool, before anything is stored.
///
/// A class (its properties are constants): each `verifyReceipt` takes it to the validation
/// thread, where a copy of the struct it was cost four value-witness calls (~2,800 instructions
/// a request, copied and destroyed), a reference one retain.
public final class StateService: Sendable {
    /// Where the tokens are kept.
    public let store: any TokenStore
    /// The state, derived on read.
    public let reader: StateReader
    /// The bundle ids accepted; empty accepts any.
    public let acceptedBundleIDs: Set<String>
    /// The environment accepted (`Production` or `Sandbox`); nil accepts both.
    public let acceptedEnvironment: String?
    /// The product catalog (`--catalog`) the entitlements of `POST /transactions` use.
    public let catalog: ProductCatalog
    /// Verifies the tokens.
    let validator: ReceiptValidator
    /// Where verification runs.
    let pool: ValidationPool
    /// Whether the crypto library can verify: a refusal is a verdict only while it can.
    let readiness: BackendReadiness

    /// The most tokens in one `POST /transactions`.
    public static let maximumTokensPerRequest = 100

    /// A state service over `store`, verifying with `service`'s validator on its pool and
    /// accepting what its options accept.
    public init(store: any TokenStore, service: VerifyReceiptService) {
        self.store = store
        self.reader = StateReader(store: store)
        self.validator = service.endpoint.validator
        self.pool = service.pool
        self.readiness = service.readiness
        self.acceptedBundleIDs = service.options.acceptedBundleIDs
        self.catalog = service.endpoint.configuration.catalog
        self.acceptedEnvironment = switch service.options.environment {
        case .production: "Production"
        case .sandbox: "Sandbox"
        case nil: nil
        }
    }

    /// A refusal: an HTTP status and `{"code", "message"}`.
    public struct Refusal: Error, Sendable, Equatable {
        /// The HTTP status.
        public var status: Int
        /// A stable snake_case code.
        public var code: String
        /// A sentence naming what was wrong.
        public var message: String
    }

    /// Verifies one token of `kind` on the pool: the verified token, or a 400 naming what failed
    /// (503 when the pool is full, and 503 `backend_failure` when the crypto library failed:
    /// ``refusal(of:what:readiness:)``).
    func verify(_ token: String, as kind: JWSKind, what: String) async throws(Refusal) -> VerifiedJWS {
        let validator = self.validator
        let readiness = self.readiness
        guard let result = await pool.run({ () -> Result<VerifiedJWS, Refusal> in
            do throws(ReceiptValidationError) {
                return .success(try validator.verifyJWS(token))
            } catch {
                return .failure(Self.refusal(of: error, what: what, readiness: readiness))
            }
        }) else {
            throw Refusal(status: 503, code: "overloaded", message: "too many requests are waiting for verification; retry shortly")
        }
        let verified: VerifiedJWS
        switch result {
        case .success(let value): verified = value
        case .failure(let refusal): throw refusal
        }
        guard verified.kind == kind else {
            throw Refusal(status: 400, code: "wrong_token_kind", message: "\(what) is a \(verified.kind.rawValue), not a \(kind.rawValue)")
        }
        return verified
    }

    /// The refusal of a token that did not verify, on the validation thread. A `backend_failure`
    /// is a 503 (try again), and has the library checked again. A refusal as not authenticated
    /// (what Apple's status 21003 covers: signature, chain, marker, time) is a 400 verdict only
    /// while the library verifies the known-good receipt: otherwise it is a 503
    /// `backend_failure` too, since a library that cannot verify refuses genuine tokens as well.
    /// Other refusals (a token that is not a JWS at all) stand.
    static func refusal(of error: ReceiptValidationError, what: String, readiness: BackendReadiness) -> Refusal {
        let isFailure = error.code == .backendFailure
        guard isFailure || AppleVerifyReceiptStatus(error.code) == .notAuthenticated else {
            return Refusal(status: 400, code: error.code.rawValue, message: "\(what): \(error.message)")
        }
        let verdict = readiness.recheckedVerdict()
        if isFailure {
            return Refusal(
                status: 503, code: error.code.rawValue,
                message: "\(what) was not judged: \(error.message) (the known-good receipt: \(verdict.problem ?? "verifies"))")
        }
        guard !verdict.isReady else {
            return Refusal(status: 400, code: error.code.rawValue, message: "\(what): \(error.message)")
        }
        return Refusal(
            status: 503, code: ReceiptValidationError.Code.backendFailure.rawValue,
            message: "\(what) was not judged: the crypto library cannot verify a known-good receipt "
                + "(it said \(error.code): \(error.message)): \(verdict.problem ?? "")")
    }

    /// Refuses a bundle id or environment the service does not accept (`checksBundleID` false: a
    /// renewal info, which carries none).
    func check(bundleID: String?, environment: String?, what: String, checksBundleID: Bool = true) throws(Refusal) {
        if checksBundleID, !acceptedBundleIDs.isEmpty, !acceptedBundleIDs.contains(bundleID ?? "") {
            throw Refusal(
                status: 400, code: AppleVerifyReceiptEndpoint.FailureCode.bundleIDNotAccepted,
                message: "\(what) is for bundle id '\(bundleID ?? "")', which this service does not accept")
        }
        if let acceptedEnvironment, let environment, environment != acceptedEnvironment {
            throw Refusal(
                status: 400, code: "environment_not_accepted",
                message: "\(what) is for the \(environment) environment; this service answers for \(acceptedEnvironment)")
        }
    }

    /// The store's answer to a trivial query: nil when it answers, else what is wrong.
    public func storeProblem() async -> TokenStoreError? {
        do {
            try await store.ping()
            return nil
        } catch {
            return error
        }
    }
}
