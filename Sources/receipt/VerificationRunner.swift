import Foundation
import ReceiptKit

/// Verifies many inputs in parallel over one shared validator, formats each outcome in the task
/// that verified it, and hands the formatted outcomes back in input order, as soon as each one's
/// predecessors are done.
struct VerificationRunner: Sendable {
    /// The validator shared by every task (it builds its trust stores once and is `Sendable`).
    let validator: ReceiptValidator
    /// Whether to read the embedded certificates of receipts whose chain was not verified (human output).
    let collectsEmbeddedCertificates: Bool
    /// Whether to answer with Apple's `verifyReceipt` response (`--format apple`).
    var answersAsApple = false

    /// Verifies `inputs` and formats each outcome with `format` (outcome, input index) on the
    /// worker threads, so that output scales with the cores as validation does; calls `emit` with
    /// each input's status and text in input order. Twice as many inputs as cores are in flight,
    /// so a worker finds the next input queued while the caller's task emits.
    func run(
        _ inputs: [ReceiptInput],
        progress: ProgressBar?,
        format: @escaping @Sendable (VerificationOutcome, Int) -> [UInt8],
        emit: (VerificationOutcome.Status, [UInt8]) -> Void
    ) async {
        let width = 2 * max(1, ProcessInfo.processInfo.activeProcessorCount)
        await withTaskGroup(of: (Int, VerificationOutcome.Status, [UInt8]).self) { group in
            var nextToStart = 0
            var nextToEmit = 0
            var finished: [Int: (VerificationOutcome.Status, [UInt8])] = [:]
            func startNext() {
                guard nextToStart < inputs.count else { return }
                let index = nextToStart
                let input = inputs[index]
                nextToStart += 1
                group.addTask {
                    let outcome = verify(input)
                    return (index, outcome.status, format(outcome, index))
                }
            }
            for _ in 0..<width { startNext() }
            for await (index, status, text) in group {
                finished[index] = (status, text)
                progress?.advance()
                startNext()
                while let ready = finished.removeValue(forKey: nextToEmit) {
                    emit(ready.0, ready.1)
                    nextToEmit += 1
                }
            }
        }
        progress?.finish()
    }

    /// Verifies one input.
    func verify(_ input: ReceiptInput) -> VerificationOutcome {
        if answersAsApple { return verifyAsApple(input) }
        let report: ReceiptValidationReport
        switch input.source {
        case .file(let path):
            // A DER file (or base64 text holding DER) is read here, by path, and validated as the
            // validator would validate it after reading it itself (the loader returns DER as it
            // is), without building and resolving a URL for every file of a batch. Anything else,
            // failures included, goes through the validator's own file path for its exact answer.
            let maximumSize = validator.configuration.maximumReceiptSize
            if let der = try? ReceiptLoader.load(path: path, maximumSize: maximumSize), der.first == 0x30 {
                report = validator.report(for: der)
            } else {
                report = validator.report(contentsOf: URL(filePath: path, directoryHint: .notDirectory))
            }
        case .bytes(let bytes):
            report = validator.report(for: bytes)
        case .unreadable(let error):
            report = ReceiptValidationReport(failure: error)
        }
        var outcome = VerificationOutcome(label: input.label, report: report)
        if collectsEmbeddedCertificates, report.signerChain.isEmpty, outcome.status == .invalid {
            outcome.embeddedCertificates = embeddedCertificates(of: input)
        }
        if report.error?.code == .untrustedChain, !validator.configuration.acceptsStoreKitTestReceipts {
            let embedded = collectsEmbeddedCertificates ? outcome.embeddedCertificates : embeddedCertificates(of: input)
            if embedded == [AppleRootCertificates.storeKitTest] { outcome.hint = VerificationOutcome.xcodeHint }
        }
        return outcome
    }

    /// The certificates a receipt carries, read without verification; empty when it is not PKCS #7.
    private func embeddedCertificates(of input: ReceiptInput) -> [Certificate] {
        let maximumSize = validator.configuration.maximumReceiptSize
        let der: [UInt8]?
        switch input.source {
        case .file(let path): der = try? ReceiptLoader.load(path: path, maximumSize: maximumSize)
        case .bytes(let bytes): der = try? ReceiptLoader.load(bytes, maximumSize: maximumSize)
        case .unreadable: der = nil
        }
        guard let der, let container = try? PKCS7Container(bytes: der) else { return [] }
        return container.certificates
    }
}
