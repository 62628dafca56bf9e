import NIOConcurrencyHelpers
import ReceiptKit

/// Whether the crypto backend can verify at all: the service's readiness (`GET /health`).
///
/// A crypto library that cannot work (an OpenSSL configuration that loads only the null provider,
/// a GnuTLS policy that marks SHA-256 insecure) does not say so: it reports a genuine receipt as
/// untrusted, as if it were forged. So the service asks it to verify ``KnownGoodReceipt``, with
/// Apple's embedded root at the receipt's creation date and no verified-chain cache: at startup,
/// after a backend failure, when it refuses a receipt as not authenticated (21003), and on
/// `/health` while the last check failed, at most once per ``recheckInterval`` each time. While
/// the check fails, `/health` answers 503 and a refusal that depends on the library is answered
/// `backend_failure` (21005: try again) instead of a verdict on the receipt.
public final class BackendReadiness: Sendable {
    /// How old the last check may be before a failure asks for another.
    public static let recheckInterval = Duration.seconds(1)

    /// The outcome of the last check.
    public struct Verdict: Sendable, Equatable {
        /// Whether the known-good receipt verified.
        public var isReady: Bool
        /// Why it did not (the library's error), when it did not.
        public var problem: String?
    }

    private struct State {
        var verdict: Verdict
        var checkedAt: ContinuousClock.Instant
        var isChecking: Bool
    }

    private let validator: Result<ReceiptValidator, ReceiptValidationError>
    private let state: NIOLockedValueBox<State>

    /// Checks `backend` once, at once.
    public init(backend: any CryptoBackend) {
        var configuration = ReceiptValidator.Configuration()
        // A cached chain would skip the very chain verification this check is for.
        configuration.usesVerifiedChainCache = false
        do {
            validator = .success(try ReceiptValidator(backend: backend, configuration: configuration))
        } catch {
            validator = .failure(error)
        }
        state = NIOLockedValueBox(State(verdict: Verdict(isReady: false, problem: "not checked yet"), checkedAt: .now, isChecking: true))
        check()
    }

    /// The verdict of the last check.
    public var verdict: Verdict {
        state.withLockedValue { $0.verdict }
    }

    /// The verdict after a check made now, unless the last one is younger than
    /// ``recheckInterval`` or another is under way: then the last verdict. Runs the check on the
    /// caller's thread (a validation thread: never an event loop).
    public func recheckedVerdict() -> Verdict {
        let isDue = state.withLockedValue { state -> Bool in
            guard !state.isChecking, ContinuousClock.now - state.checkedAt >= Self.recheckInterval else { return false }
            state.isChecking = true
            return true
        }
        return isDue ? check() : verdict
    }

    /// Verifies the known-good receipt and records the verdict.
    @discardableResult
    private func check() -> Verdict {
        let verdict: Verdict
        switch validator {
        case .success(let validator):
            do {
                _ = try validator.validate(KnownGoodReceipt.bytes)
                verdict = Verdict(isReady: true, problem: nil)
            } catch {
                verdict = Verdict(isReady: false, problem: "\(error)")
            }
        case .failure(let error):
            verdict = Verdict(isReady: false, problem: "Apple's root could not be loaded: \(error)")
        }
        state.withLockedValue { state in
            state.verdict = verdict
            state.checkedAt = .now
            state.isChecking = false
        }
        return verdict
    }
}
