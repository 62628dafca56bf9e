#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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

    /// The processors this process may use, read once (`activeProcessorCount` reads the cgroup's
    /// quota and cpuset files each time).
    static let processorCount = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// How many consecutive inputs one worker verifies and formats into one buffer at a time: up to
    /// 16 for a large batch (so that a 30 µs receipt does not pay for a hand-back and an emit of
    /// its own), fewer for a small one so that every core gets 32 chunks or more, and one
    /// when `interactive` (each verdict is printed as soon as it is known).
    static func chunkSize(inputCount: Int, width: Int, interactive: Bool) -> Int {
        guard !interactive else { return 1 }
        return min(16, max(1, inputCount / max(1, 32 * width)))
    }

    /// Verifies `inputs` and formats each outcome with `format` (outcome, input index, buffer to
    /// append to) on the worker threads (``ValidationThreadPool/shared``), so that output scales
    /// with the cores as validation does; calls `emit` with the statuses and text of consecutive
    /// inputs in input order. One worker per processor this process may use takes `chunkSize`
    /// consecutive inputs at a time (``ChunkSchedule``); the worker that finishes the chunk next
    /// in order emits it, so no chunk waits for one of Swift concurrency's cooperative threads to
    /// get a core. Twice as many chunks as workers may be taken and not yet emitted, more while
    /// the finished ones waiting hold little text (the memory the formatted text holds). `emit` runs on the workers, on one at a time, while this
    /// task is suspended; it is done with when `run` returns.
    func run(
        _ inputs: ReceiptInputs,
        chunkSize: Int,
        progress: ProgressBar?,
        format: @escaping @Sendable (VerificationOutcome, Int, inout [UInt8]) -> Void,
        emit: @escaping ([VerificationOutcome.Status], [UInt8]) -> Void
    ) async {
        let chunk = max(1, chunkSize)
        let chunkCount = (inputs.count + chunk - 1) / chunk
        guard chunkCount > 0 else {
            progress?.finish()
            return
        }
        let workers = min(Self.processorCount, ValidationThreadPool.shared.threadCount, chunkCount)
        // Twice as many chunks as workers, and up to 32 per worker while the chunks waiting for a
        // predecessor hold less than 1 MiB of text (four of the output's 256 KiB writes).
        let schedule = ChunkSchedule<([VerificationOutcome.Status], PooledBytes)>(
            chunkCount: chunkCount, window: 2 * workers, longestWindow: 32 * workers, waitingByteBudget: 1 << 20) { $0.1.bytes.count }
        let buffers = BufferPool()
        // The caller's emit function and progress bar, called by the workers one at a time
        // (``ChunkSchedule`` serializes them) while the caller is suspended below.
        // The text is read in place by `emit` (no copy outlives the call), so the buffer's array
        // is uniquely referenced again when it is given back, and keeps its storage.
        let output = UncheckedSendable { (statuses: [VerificationOutcome.Status], text: PooledBytes) in
            progress?.advance(by: statuses.count)
            emit(statuses, text.bytes)
            buffers.giveBack(text)
        }
        let verifyChunk: @Sendable (Int) -> ([VerificationOutcome.Status], PooledBytes) = { number in
            let range = (number * chunk)..<min(inputs.count, (number + 1) * chunk)
            let text = buffers.take()
            var statuses: [VerificationOutcome.Status] = []
            statuses.reserveCapacity(range.count)
            for index in range {
                let outcome = verify(inputs[index])
                statuses.append(outcome.status)
                format(outcome, index, &text.bytes)
            }
            return (statuses, text)
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    // On ReceiptKit's validation threads (the library's one pool), not on
                    // Swift concurrency's cooperative threads.
                    await ValidationThreadPool.shared.run {
                        schedule.work(make: verifyChunk) { output.value($0.0, $0.1) }
                    }
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
            // Read by the path's bytes (which need not be UTF-8) as the validator's own file path
            // reads it, then decoded and validated as that path would: the same answer as
            // `report(contentsOf:)`, failures included, without a URL for every file of a batch.
            do {
                let contents = try ReceiptLoader.fileContents(
                    atPath: path.bytes, displayPath: path.label, maximumSize: validator.configuration.maximumReceiptSize)
                if TokenDetection.isCompactJWS(contents) { return verifyToken(contents, label: input.label) }
                report = validator.report(for: contents)
            } catch {
                report = ReceiptValidationReport(failure: error)
            }
        case .bytes(let bytes):
            if TokenDetection.isCompactJWS(bytes) { return verifyToken(bytes, label: input.label) }
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

    /// Verifies a compact JWS (a StoreKit 2 or App Store Server Notification token).
    private func verifyToken(_ bytes: [UInt8], label: String) -> VerificationOutcome {
        // The receipt report says what a command reading only receipts (`timeline`) should say.
        let notAReceipt = ReceiptValidationError(.notPKCS7, "The input is a JWS, not a receipt (verify, dump and entitlements read JWS).")
        var outcome = VerificationOutcome(label: label, report: ReceiptValidationReport(failure: notAReceipt))
        let token = TokenOutcome(verifying: bytes, with: validator)
        outcome.token = token
        if case .success(let verified) = token.result, let notice = Self.uncheckedOptions(of: verified, configuration: validator.configuration) {
            StandardError.write("receipt: \(label): \(notice)\n")
        }
        return outcome
    }

    /// The options given that a verified token could not be checked against, as one sentence, or
    /// nil: `--app-version` and `--device-id` are a receipt's checks (a JWS carries neither), and
    /// a renewal info carries no bundle id for `--bundle-id`. Said on standard error, so that a
    /// check asked for is never passed over without a word.
    static func uncheckedOptions(of verified: VerifiedJWS, configuration: ReceiptValidator.Configuration) -> String? {
        var options: [String] = []
        if configuration.expectedBundleID != nil, verified.kind == .renewalInfo { options.append("--bundle-id") }
        if configuration.expectedApplicationVersion != nil { options.append("--app-version") }
        if configuration.deviceIdentifier != nil { options.append("--device-id") }
        guard !options.isEmpty else { return nil }
        return options.joined(separator: ", ") + " not checked: a \(verified.kind.rawValue) JWS does not carry "
            + (options == ["--bundle-id"] ? "a bundle id" : "what \(options.count == 1 ? "it checks" : "they check")")
    }

    /// The certificates a receipt carries, read without verification; empty when it is not PKCS #7.
    private func embeddedCertificates(of input: ReceiptInput) -> [Certificate] {
        let maximumSize = validator.configuration.maximumReceiptSize
        let der: [UInt8]?
        switch input.source {
        case .file(let path):
            der = try? ReceiptLoader.load(
                ReceiptLoader.fileContents(atPath: path.bytes, displayPath: path.label, maximumSize: maximumSize), maximumSize: maximumSize)
        case .bytes(let bytes): der = try? ReceiptLoader.load(bytes, maximumSize: maximumSize)
        case .unreadable: der = nil
        }
        guard let der, let container = try? PKCS7Container(bytes: der) else { return [] }
        return container.certificates
    }
}
