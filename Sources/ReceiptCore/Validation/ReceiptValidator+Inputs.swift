#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Every way to hand a receipt to a validator: DER/BER or base64 text as `[UInt8]` or `Data`,
// base64 as a `String`, or a file URL; each as `validate` (a receipt or an error) and as `report`
// (everything found, valid or not), synchronous and `async`.
//
// The pipeline reads the receipt from one `[UInt8]` (the in-place parse and the cache compare
// against its storage), so `[UInt8]` is used as it is and any other input is copied into one
// array once; base64 text is decoded into a new array in any case.
extension ReceiptValidator {
    // MARK: Throwing API

    /// Validates a receipt given as DER/BER bytes or as base64 text bytes.
    /// - Throws: the first check that failed, as a ``ReceiptValidationError``.
    public func validate(_ receiptData: [UInt8]) throws(ReceiptValidationError) -> ValidatedReceipt {
        try Self.unwrap(report(for: receiptData))
    }

    /// Validates a receipt given as DER/BER bytes or as base64 text bytes.
    /// - Throws: the first check that failed, as a ``ReceiptValidationError``.
    public func validate(_ receiptData: Data) throws(ReceiptValidationError) -> ValidatedReceipt {
        try Self.unwrap(report(for: receiptData))
    }

    /// Validates a receipt sent as base64 text (whitespace and newlines are ignored).
    /// - Throws: the first check that failed, as a ``ReceiptValidationError``.
    public func validate(base64Encoded text: String) throws(ReceiptValidationError) -> ValidatedReceipt {
        try Self.unwrap(report(base64Encoded: text))
    }

    /// Validates the receipt file at `url` (DER/BER or base64 text).
    /// - Throws: the first check that failed, as a ``ReceiptValidationError``.
    public func validate(contentsOf url: URL) throws(ReceiptValidationError) -> ValidatedReceipt {
        try Self.unwrap(report(contentsOf: url))
    }

    // MARK: Reports

    /// Validates a receipt given as DER/BER bytes or base64 text bytes and returns everything
    /// found, valid or not.
    public func report(for receiptData: [UInt8]) -> ReceiptValidationReport {
        do {
            return evaluate(try ReceiptLoader.load(receiptData, maximumSize: configuration.maximumReceiptSize))
        } catch {
            return ReceiptValidationReport(failure: error)
        }
    }

    /// Validates a receipt whose base64 text was decoded where it lay in a request body
    /// (``ReceiptLoader/decodeQuotedBase64(_:from:maximumSize:)``): the report ``report(for:)-([UInt8])``
    /// gives for that text.
    package func report(decodedBase64 quoted: ReceiptLoader.QuotedBase64) -> ReceiptValidationReport {
        do {
            return evaluate(try ReceiptLoader.load(decodedBase64: quoted, maximumSize: configuration.maximumReceiptSize))
        } catch {
            return ReceiptValidationReport(failure: error)
        }
    }

    /// Validates a receipt whose base64 text was decoded where it lay in a request body: as
    /// ``validate(_:)-([UInt8])`` validates that text.
    /// - Throws: the first check that failed, as a ``ReceiptValidationError``.
    package func validate(decodedBase64 quoted: ReceiptLoader.QuotedBase64) throws(ReceiptValidationError) -> ValidatedReceipt {
        try Self.unwrap(report(decodedBase64: quoted))
    }

    /// Validates a receipt given as DER/BER bytes or base64 text bytes and returns everything
    /// found, valid or not.
    public func report(for receiptData: Data) -> ReceiptValidationReport {
        report(for: [UInt8](receiptData))
    }

    /// Validates a receipt sent as base64 text and returns everything found, valid or not.
    public func report(base64Encoded text: String) -> ReceiptValidationReport {
        report(for: Array(text.utf8))
    }

    /// Validates the receipt file at `url` and returns everything found, valid or not.
    public func report(contentsOf url: URL) -> ReceiptValidationReport {
        do {
            // The bytes read are the validator's own: the parse may give back what it has read.
            return evaluate(try ReceiptLoader.load(contentsOf: url, maximumSize: configuration.maximumReceiptSize), ownsInput: true)
        } catch {
            return ReceiptValidationReport(failure: error)
        }
    }

    // MARK: Async API
    //
    // The same work on one of ReceiptKit's own threads (`ValidationThreadPool`): the calling task
    // suspends instead of holding a cooperative thread while the receipt is verified and parsed.

    /// Validates a receipt given as DER/BER bytes or as base64 text bytes on one of ReceiptKit's
    /// own threads, without blocking the caller's executor.
    /// - Throws: the first check that failed, as a ``ReceiptValidationError``.
    public func validate(_ receiptData: [UInt8]) async throws(ReceiptValidationError) -> ValidatedReceipt {
        try Self.unwrap(await report(for: receiptData))
    }

    /// Validates a receipt given as DER/BER bytes or as base64 text bytes on one of ReceiptKit's
    /// own threads, without blocking the caller's executor.
    /// - Throws: the first check that failed, as a ``ReceiptValidationError``.
    public func validate(_ receiptData: Data) async throws(ReceiptValidationError) -> ValidatedReceipt {
        try Self.unwrap(await report(for: receiptData))
    }

    /// Validates a receipt sent as base64 text on one of ReceiptKit's own threads, without
    /// blocking the caller's executor.
    /// - Throws: the first check that failed, as a ``ReceiptValidationError``.
    public func validate(base64Encoded text: String) async throws(ReceiptValidationError) -> ValidatedReceipt {
        try Self.unwrap(await report(base64Encoded: text))
    }

    /// Validates the receipt file at `url` on one of ReceiptKit's own threads (the file is read
    /// there too), without blocking the caller's executor.
    /// - Throws: the first check that failed, as a ``ReceiptValidationError``.
    public func validate(contentsOf url: URL) async throws(ReceiptValidationError) -> ValidatedReceipt {
        try Self.unwrap(await report(contentsOf: url))
    }

    /// The synchronous `report(for:)` of `[UInt8]`, on one of ReceiptKit's own threads.
    public func report(for receiptData: [UInt8]) async -> ReceiptValidationReport {
        await ValidationThreadPool.shared.run { self.report(for: receiptData) }
    }

    /// The synchronous `report(for:)` of `Data`, on one of ReceiptKit's own threads.
    public func report(for receiptData: Data) async -> ReceiptValidationReport {
        await ValidationThreadPool.shared.run { self.report(for: receiptData) }
    }

    /// The synchronous `report(base64Encoded:)`, on one of ReceiptKit's own threads.
    public func report(base64Encoded text: String) async -> ReceiptValidationReport {
        await ValidationThreadPool.shared.run { self.report(base64Encoded: text) }
    }

    /// The synchronous `report(contentsOf:)`, on one of ReceiptKit's own threads.
    public func report(contentsOf url: URL) async -> ReceiptValidationReport {
        await ValidationThreadPool.shared.run { self.report(contentsOf: url) }
    }
}
