#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Validates App Store receipts: load → PKCS #7 verification by a ``CryptoBackend`` → parse the
/// verified bytes → Apple policy, bundle id, version, device hash and expiry.
///
/// Build one validator and share it: it builds its trust stores once, is `Sendable`, and may be
/// used from many tasks at once.
///
/// ```swift
/// let validator = try ReceiptValidator(backend: OpenSSLBackend(), configuration: .init(expectedBundleID: "com.example.app"))
/// let validated = try validator.validate(contentsOf: receiptURL)
/// print(validated.receipt.inAppPurchases.count)
/// ```
public struct ReceiptValidator: Sendable {
    /// The crypto library doing PKCS #7 verification and SHA-1.
    public let backend: any CryptoBackend
    /// What this validator trusts and checks.
    public let configuration: Configuration

    let appleTrustStore: any TrustStore
    let storeKitTrustStore: (any TrustStore)?
    /// The App Store anchors and the StoreKit test certificate as the chain rules read them
    /// (``SignerPaths``), read once.
    let appleAnchors: [ChainCertificate]
    let storeKitAnchors: [ChainCertificate]
    /// The verified-chain cache (nil when ``Configuration/usesVerifiedChainCache`` is off).
    let chainCache: VerifiedChainCache?
    /// ``backend`` as ``SignaturePrimitives`` (the cache's fast path, JWS), nil when it does not
    /// adopt them; and as ``SignedDataEnvelopeVerifying`` (the full path). Cast once here: a cast
    /// to an existential looks the conformance up in the runtime's process-wide cache each time
    /// (about 5,000 instructions and two shared-cache-line writes per receipt, two casts a receipt).
    let primitives: (any SignaturePrimitives)?
    let envelopeVerifier: (any SignedDataEnvelopeVerifying)?
    /// The JWS anchors (read at the first JWS) and the JWS chain cache.
    let jwsState: JWSValidatorState
    /// Whether an input that already is its canonical form is handed to the backend as it is
    /// (``CanonicalSignedData/isInput``, no copy of its content); `false` makes the validator
    /// build the copy always, for the tests that show the two give the same report.
    package var reusesCanonicalInput = true

    /// Creates a validator and builds its trust stores.
    /// - Throws: ``ReceiptValidationError/Code/rootCertificateNotFound`` when no anchor is configured,
    ///   ``ReceiptValidationError/Code/invalidCertificate`` when the backend rejects an anchor.
    public init(backend: any CryptoBackend, configuration: Configuration = Configuration()) throws(ReceiptValidationError) {
        guard !configuration.trustAnchors.isEmpty else {
            throw ReceiptValidationError(.rootCertificateNotFound, "No trust anchor is configured.")
        }
        self.backend = backend
        self.primitives = backend as? any SignaturePrimitives
        self.envelopeVerifier = backend as? any SignedDataEnvelopeVerifying
        self.configuration = configuration
        self.appleTrustStore = try backend.makeTrustStore(anchors: configuration.trustAnchors)
        self.appleAnchors = try Self.chainAnchors(configuration.trustAnchors)
        self.storeKitAnchors = try Self.chainAnchors(
            configuration.acceptsStoreKitTestReceipts ? [configuration.storeKitTestCertificate] : [])
        if configuration.acceptsStoreKitTestReceipts {
            self.storeKitTrustStore = try backend.makeTrustStore(anchors: [configuration.storeKitTestCertificate])
        } else {
            self.storeKitTrustStore = nil
        }
        self.chainCache = configuration.usesVerifiedChainCache
            ? VerifiedChainCache(capacity: configuration.verifiedChainCacheCapacity) : nil
        self.jwsState = JWSValidatorState(
            cache: configuration.usesVerifiedChainCache ? JWSChainCache(capacity: configuration.verifiedChainCacheCapacity) : nil)
    }

    /// Reads each anchor for the chain rules.
    private static func chainAnchors(_ anchors: [Certificate]) throws(ReceiptValidationError) -> [ChainCertificate] {
        var read: [ChainCertificate] = []
        for (index, anchor) in anchors.enumerated() {
            guard let certificate = ChainCertificate(anchor.derBytes) else {
                throw ReceiptValidationError(
                    .invalidCertificate, "Trust anchor \(index) is not a DER X.509 certificate the chain rules can read.")
            }
            read.append(certificate)
        }
        return read
    }

    // MARK: Pipeline

    /// `ownsInput`: `der` is the validator's own (read from a file), and the parse may give back
    /// the pages of the payload it has read past (``ReadPageRelease``).
    func evaluate(_ der: [UInt8], ownsInput: Bool = false) -> ReceiptValidationReport {
        var walks = 0
        return evaluate(der, signedDataWalks: &walks, ownsInput: ownsInput)
    }

    /// ``evaluate(_:)``, adding to `signedDataWalks` each walk of the input's SignedData — one
    /// for the first reading of its TLV headers, and one more for any later reading that decodes
    /// again a header an earlier one decoded — for the tests that hold it at one per validation
    /// (`SignedDataWalkTests`).
    package func evaluate(_ der: [UInt8], signedDataWalks: inout Int, ownsInput: Bool = false) -> ReceiptValidationReport {
        // The bytes are walked once. When the cache holds an entry (so a lookup can hit), the
        // fast path's strict DER reading of the envelope comes first, noting the headers it
        // decodes; on a miss the full path's BER reading continues that walk, taking those
        // headers instead of decoding them again (``SignedDataReading``). Otherwise the BER
        // reading is the walk, and the envelope is taken from the structure checks' values
        // (``SignedDataEnvelope/init(structure:)``). The structure checks, the envelope, the
        // inspection and — for an input the checks refuse — the container read for its
        // report's time all come from that one reading.
        let readsEnvelopeFirst = primitives != nil && chainCache.map { !$0.isEmpty } == true
        let reading: SignedDataReading
        let source: EnvelopeSource
        signedDataWalks += 1
        if readsEnvelopeFirst {
            var decoded = DecodedHeaders()
            let envelope = SignedDataEnvelope.read(der, noting: &decoded)
            if let report = fastPathReport(der, envelope: envelope) { return report }
            reading = SignedDataReading(der, continuing: decoded)
            // A header the envelope decoded, decoded again, would make this a second walk.
            if reading.reader.redecodedHeaders > 0 { signedDataWalks += 1 }
            source = .read(envelope)
        } else {
            reading = SignedDataReading(der)
            source = .fromStructure
        }
        var report = ReceiptValidationReport()
        do {
            try evaluate(reading, envelope: source, ownsInput: ownsInput, into: &report)
        } catch {
            report.error = error
        }
        return report
    }

    /// Where the full path takes the input's ``SignedDataEnvelope`` from.
    private enum EnvelopeSource {
        /// Read from the bytes already (`nil`: not in the canonical shape).
        case read(SignedDataEnvelope?)
        /// From the structure checks' reading, once they accepted the bytes.
        case fromStructure
    }

    private func evaluate(
        _ reading: SignedDataReading, envelope source: EnvelopeSource, ownsInput: Bool, into report: inout ReceiptValidationReport
    ) throws(ReceiptValidationError) {
        let der = reading.bytes
        let now = configuration.currentDate()
        // The bounds and the structure rules, before any library sees a byte
        // (``SignedDataStructure``, ``SignedDataLimits``), on the one reading of the input every
        // later step builds on.
        let structure: SignedDataStructure
        do {
            structure = try SignedDataStructure(checking: reading)
        } catch {
            // Refused: the report still tells the time it would have been verified at, read as
            // the inspection of an unchecked container reads it (``PKCS7Container``), from the
            // same reading.
            report.verificationTime = verificationTime(now: now, creationDate: inspect(refused: reading).creationDate)
            throw error
        }
        let envelope: SignedDataEnvelope?
        switch source {
        case .read(let read): envelope = read
        case .fromStructure: envelope = SignedDataEnvelope(structure: structure)
        }
        // Inspection only: which anchor set to try and which time to verify at, from that
        // reading. Nothing read here is trusted; the creation date is re-read from the verified
        // bytes and must agree.
        let inspection = inspect(der, envelope: envelope, structure: structure)
        let (trust, store) = trustChoice(embedsOnlyStoreKitCertificate: inspection.embedsOnlyStoreKitCertificate)
        let unverifiedCreationDate = inspection.creationDate
        report.verificationTime = verificationTime(now: now, creationDate: unverifiedCreationDate)
        let time: Date
        if configuration.verificationTime == .creationDate, unverifiedCreationDate == nil,
           let signer = ValidityPeriod(certificate: Array(der[structure.signerCertificate])) {
            // No creation date to verify at (absent, or not a date: tampered with, or malformed).
            // Verifying at "now" instead would answer certificate_expired for any real receipt and
            // hide which it is; verified at the signer certificate's first second, the answer is
            // invalid_signature for tampered bytes, and otherwise the payload's own error (a
            // malformed date, a missing attribute) once the signature is checked. Never valid:
            // a receipt without a creation date is refused after verification.
            time = Date(timeIntervalSince1970: Double(signer.notBefore))
        } else {
            time = verificationTime(now: now, creationDate: unverifiedCreationDate)
        }
        report.verificationTime = time

        let verified = try verifyReleasingCanonical(
            structure, anchors: trust == .storeKitTesting ? storeKitAnchors : appleAnchors, store: store, at: time)
        let verifiedAt = time
        report.digestAlgorithm = verified.digestAlgorithm
        report.trust = trust

        // The chain policy decides before anything in the payload is believed; the payload is
        // still parsed (from verified bytes) so tools can show what the receipt says.
        let policyError: ReceiptValidationError?
        do {
            switch trust {
            case .appleReceiptSigning: try AppleChainPolicy().check(verified.signerChain)
            case .storeKitTesting: try StoreKitTestPolicy(certificate: configuration.storeKitTestCertificate).check(verified.signerChain)
            }
            policyError = nil
        } catch {
            policyError = error
        }
        if policyError == nil { report.signerChain = verified.signerChain }

        // Parsed only now, from the verified bytes (the input's own when the rebuild copied them
        // from it, ``verifyReleasingCanonical``): the parsed receipt and the rebuild's copy of a
        // large content are never held at once. When the content lies in the validator's own
        // input, nothing reads it after the parse (the cache fill below reads the parts around
        // it), so the parse gives back its pages as it reads them.
        // The inspection's walk counted the purchases of these very bytes when the content lies
        // at the range it read of the input itself.
        let inInput = Self.sameStorage(verified.contentSource, der)
        let knownPurchaseCount = inspection.purchases.flatMap { inInput && $0.payload == verified.contentRange ? $0.count : nil }
        let receipt = try ReceiptParser.parse(
            verified.contentSource, range: verified.contentRange,
            releasesReadPages: ownsInput && inInput, knownPurchaseCount: knownPurchaseCount)
        report.receipt = receipt
        if let policyError { throw policyError }
        if inspection.isReadable, unverifiedCreationDate != nil {
            remember(der, envelope: envelope, certificates: structure.certificates, verified: verified, store: store, at: verifiedAt)
        }

        try checkPayload(receipt, now: now, verificationTime: time, unverifiedCreationDate: unverifiedCreationDate)
        try checkDevice(receipt, into: &report)
    }

    /// ``verifyCanonical(_:anchors:store:at:)``, with the backend's claim to have verified the
    /// content in place checked, returning a result that holds no reference to the canonical form
    /// when its content is the input's: content the backend verified in place in the canonical
    /// form was copied there from the input's primitive eContent, so the same octets lie at
    /// ``CanonicalSignedData/inputContent`` of the input (`CanonicalSignedDataTests` checks this
    /// for every input). The result then points there, and the rebuild — a second copy of a
    /// large content — is freed when this returns, before the payload is parsed.
    private func verifyReleasingCanonical(
        _ structure: SignedDataStructure, anchors: [ChainCertificate], store: any TrustStore, at time: Date
    ) throws(ReceiptValidationError) -> VerifiedSignedData {
        let (verified, canonical) = try verifyCanonical(structure, anchors: anchors, store: store, at: time)
        // A detached rebuild's content was verified where it lies in the input.
        guard !canonical.isDetached else {
            try Self.checkInPlaceClaim(verified, in: structure.bytes)
            return verified
        }
        try Self.checkInPlaceClaim(verified, in: canonical.der)
        guard !canonical.isInput, let inputContent = canonical.inputContent, verified.inputContentRange == canonical.content
        else { return verified }
        return VerifiedSignedData(
            contentVerifiedIn: structure.bytes, range: inputContent, signerChain: verified.signerChain,
            digestAlgorithm: verified.digestAlgorithm, hasSignedAttributes: verified.hasSignedAttributes)
    }

    /// Hands the backend the canonical signedData of each candidate path in turn (``SignerPaths``,
    /// ``CanonicalSignedData``) and returns the first that verifies and whose chain is valid at
    /// `time`, with the form it verified. When none does, the failure that got furthest (a
    /// signature or time failure over an untrusted chain) is thrown, the first path's among
    /// equals; a backend failure ends at once.
    ///
    /// Time is this validator's rule, applied after the call (``ValidityPeriod``, RFC 5280
    /// §4.1.2.5): every certificate of the chain the backend returns must be valid at `time`.
    /// The contract's order of precedence is untrusted chain, certificate time, signature; a
    /// backend reports an untrusted chain before a bad signature, so a bad signature means the
    /// path's chain verified, and that chain (the path's certificates and the anchor the chain
    /// rules chose, ``SignerPaths/Path/anchor``) is then checked at `time` before the signature
    /// failure is reported.
    private func verifyCanonical(
        _ structure: SignedDataStructure, anchors: [ChainCertificate], store: any TrustStore, at time: Date
    ) throws(ReceiptValidationError) -> (VerifiedSignedData, CanonicalSignedData) {
        let candidates = try SignerPaths(structure: structure, anchors: anchors)
        var failure: ReceiptValidationError?
        for path in candidates.paths {
            do throws(ReceiptValidationError) {
                if let refusal = path.refusal { throw refusal }
                // A built-in backend takes the content beside the rebuild (not copied into it).
                let reader = envelopeVerifier
                let canonical = try structure.canonical(
                    certificates: path.certificates, reusesInput: reusesCanonicalInput, detachesContent: reader != nil)
                let verified: VerifiedSignedData
                do throws(ReceiptValidationError) {
                    if let reader {
                        verified = try reader.verifySignedData(
                            canonical.der, content: canonical.isDetached ? structure.bytes : nil,
                            envelope: canonical.envelope, ranges: canonical.ranges, trustStore: store)
                    } else {
                        verified = try backend.verifySignedData(canonical.der, trustStore: store)
                    }
                } catch where error.code == .invalidSignature {
                    try ValidityPeriod.check(Self.chain(of: path, in: structure.bytes), at: time)
                    throw error
                }
                try ValidityPeriod.check(verified.signerChain, at: time)
                return (verified, canonical)
            } catch {
                if error.code == .backendFailure { throw error }
                if let earlier = failure, Self.reach(of: error) <= Self.reach(of: earlier) { continue }
                failure = error
            }
        }
        throw failure ?? ReceiptValidationError(.untrustedChain, "No certificate path leads from the signer to a trust anchor.")
    }

    /// The chain a path stands for, leaf first: its certificates, then its anchor unless the
    /// path ends with the anchor itself (a self-signed signer).
    private static func chain(of path: SignerPaths.Path, in bytes: [UInt8]) -> [Certificate] {
        var chain = path.certificates.map { Certificate(derBytes: Array(bytes[$0])) }
        if let anchor = path.anchor, chain.last != anchor { chain.append(anchor) }
        return chain
    }

    /// Whether two arrays share one storage.
    private static func sameStorage(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress != nil && a.baseAddress == b.baseAddress } }
    }

    /// How far a path's verification got before it failed, in the contract's order of precedence.
    private static func reach(of error: ReceiptValidationError) -> Int {
        switch error.code {
        case .untrustedChain: 1
        case .certificateExpired, .certificateNotYetValid: 2
        case .invalidSignature: 3
        default: 0
        }
    }

    /// What the full path looks at before verification (nothing of it is trusted).
    private struct Inspection {
        /// Whether the bytes read as a PKCS #7 signedData (``PKCS7Container``).
        var isReadable = false
        /// Whether the embedded certificates are exactly the StoreKit test certificate.
        var embedsOnlyStoreKitCertificate = false
        /// The payload's creation date, if readable.
        var creationDate: Date?
        /// Where the payload lies in the input and how many in-app purchases the creation date's
        /// walk counted in it, when that walk read it in place and found it strict DER: the parse
        /// of the same range of the same bytes then does not walk it again to count them.
        var purchases: (payload: Range<Int>, count: Int)?

        /// Reads the creation date of the payload at `range` of `der` in place, keeping the
        /// purchase count its walk gives.
        mutating func readCreationDate(in der: [UInt8], range: Range<Int>) {
            var count: Int?
            creationDate = (try? ReceiptParser.creationDate(in: der, range: range, purchaseCount: &count)) ?? nil
            purchases = count.map { (payload: range, count: $0) }
        }
    }

    /// Checks a backend's claim to have verified the content in place: the input holds exactly
    /// the returned content at ``VerifiedSignedData/inputContentRange`` (compared in memory unless
    /// the content is held in the input's own storage at that range).
    private static func checkInPlaceClaim(_ verified: VerifiedSignedData, in der: [UInt8]) throws(ReceiptValidationError) {
        guard let range = verified.inputContentRange else { return }
        let holds = der.withUnsafeBufferPointer { input -> Bool in
            verified.contentSource.withUnsafeBufferPointer { source -> Bool in
                guard range.lowerBound >= 0, range.upperBound <= input.count, range.count == verified.contentRange.count
                else { return false }
                guard !range.isEmpty, let inputBase = input.baseAddress, let sourceBase = source.baseAddress else { return true }
                let claimed = inputBase + range.lowerBound
                let returned = sourceBase + verified.contentRange.lowerBound
                return claimed == returned || memcmp(claimed, returned, range.count) == 0
            }
        }
        guard holds else {
            throw ReceiptValidationError(
                .backendFailure, "The backend reported verifying the content in place at \(range), but the input does not hold it there.")
        }
    }

    /// ``inspect(_:envelope:)`` for bytes the structure checks accepted, from their reading
    /// (`structure`) instead of another walk: bytes that pass the checks are bytes
    /// ``PKCS7Container`` reads (its BER reader has the same bounds, and each of its field checks
    /// is one the checks make, or weaker) when they start with a one-octet SEQUENCE identifier, with
    /// the same content (the eContent's segments concatenated) and certificates (the encodings
    /// of the `[0] certificates` members). A canonical envelope is read in place as before.
    private func inspect(_ der: [UInt8], envelope: SignedDataEnvelope?, structure: SignedDataStructure) -> Inspection {
        var inspection = Inspection()
        guard der.first == ASN1Tag.sequence.octet, let eContent = structure.signedData.encapContentInfo.eContent else { return inspection }
        if let envelope { return inspectInPlace(der, envelope: envelope) }
        let storeKit = configuration.storeKitTestCertificate.derBytes
        inspection.embedsOnlyStoreKitCertificate = structure.certificates.count == 1
            && der[structure.certificates[0]].elementsEqual(storeKit)
        if eContent.isConstructed {
            guard let content = try? structure.reader.stringContent(of: eContent) else { return inspection }
            inspection.creationDate = (try? ReceiptParser.creationDate(in: content)) ?? nil
        } else {
            inspection.readCreationDate(in: der, range: eContent.contentStart..<eContent.contentEnd)
        }
        inspection.isReadable = true
        return inspection
    }

    /// The inspection of a canonical envelope, read in place: the StoreKit test certificate and
    /// the payload's creation date. The payload is parsed only after verification (so that a
    /// large receipt's parse never coexists with the canonical rebuild's copy of its content).
    private func inspectInPlace(_ der: [UInt8], envelope: SignedDataEnvelope) -> Inspection {
        var inspection = Inspection()
        inspection.isReadable = true
        inspection.embedsOnlyStoreKitCertificate = storeKitTrustStore != nil
            && envelope.certificatesAreExactly(configuration.storeKitTestCertificate.derBytes, in: der)
        inspection.readCreationDate(in: der, range: envelope.content)
        return inspection
    }

    /// The inspection of an input the structure checks refused: the container
    /// (``PKCS7Container``) read from the reading the checks refused, not from the bytes again.
    private func inspect(refused reading: SignedDataReading) -> Inspection {
        var inspection = Inspection()
        guard let container = try? PKCS7Container(reading: reading) else { return inspection }
        inspection.isReadable = true
        inspection.embedsOnlyStoreKitCertificate = container.certificates == [configuration.storeKitTestCertificate]
        inspection.creationDate = (try? ReceiptParser.creationDate(in: container.content)) ?? nil
        return inspection
    }

    /// The device-hash step, shared by the full and the fast path.
    func checkDevice(_ receipt: Receipt, into report: inout ReceiptValidationReport) throws(ReceiptValidationError) {
        report.deviceHashMatches = try deviceHashMatches(receipt)
        if report.deviceHashMatches == false, let device = configuration.deviceIdentifier {
            throw ReceiptValidationError(
                .hashMismatch,
                "The receipt's device hash does not match device \(device) (\(device.bytes.count) bytes): it was issued to another device or app."
            )
        }
    }

    func checkPayload(_ receipt: Receipt, now: Date, verificationTime: Date, unverifiedCreationDate: Date?) throws(ReceiptValidationError) {
        guard receipt.bundleID != nil, receipt.bundleIDAttributeBytes != nil else {
            throw ReceiptValidationError(.missingComponent, "The receipt has no bundle identifier (attribute 2).")
        }
        guard receipt.applicationVersion != nil else {
            throw ReceiptValidationError(.missingComponent, "The receipt has no application version (attribute 3).")
        }
        guard receipt.opaqueValue != nil else {
            throw ReceiptValidationError(.missingComponent, "The receipt has no opaque value (attribute 4).")
        }
        guard receipt.sha1Hash != nil else {
            throw ReceiptValidationError(.missingComponent, "The receipt has no SHA-1 hash (attribute 5).")
        }
        guard let creationDate = receipt.creationDate else {
            throw ReceiptValidationError(.missingComponent, "The receipt has no creation date (attribute 12).")
        }
        if configuration.verificationTime == .creationDate, unverifiedCreationDate != creationDate {
            throw ReceiptValidationError(
                .malformedReceipt,
                "The creation date read before verification differs from the verified one; the chain was not checked at the receipt's creation date."
            )
        }
        if creationDate.timeIntervalSince(now) > configuration.maximumClockSkew {
            throw ReceiptValidationError(
                .creationDateInFuture,
                "The receipt was created at \(RFC3339.string(from: creationDate)), in the future (now \(RFC3339.string(from: now)))."
            )
        }
        if configuration.checksReceiptExpiration, let expiration = receipt.expirationDate, expiration < now {
            throw ReceiptValidationError(.receiptExpired, "The receipt expired at \(RFC3339.string(from: expiration)).")
        }
        if let expected = configuration.expectedBundleID, receipt.bundleID != expected {
            throw ReceiptValidationError(
                .bundleIDMismatch,
                "The receipt is for bundle id '\(receipt.bundleID ?? "")', expected '\(expected)'."
            )
        }
        if let expected = configuration.expectedApplicationVersion, receipt.applicationVersion != expected {
            throw ReceiptValidationError(
                .versionMismatch,
                "The receipt is for application version '\(receipt.applicationVersion ?? "")', expected '\(expected)'."
            )
        }
    }

    /// `SHA1(device identifier ‖ opaque value ‖ bundle-id attribute bytes) == sha1_hash`.
    private func deviceHashMatches(_ receipt: Receipt) throws(ReceiptValidationError) -> Bool? {
        guard let device = configuration.deviceIdentifier else { return nil }
        guard let opaque = receipt.opaqueValue, let bundle = receipt.bundleIDAttributeBytes, let expected = receipt.sha1Hash else {
            throw ReceiptValidationError(.missingComponent, "The receipt lacks an attribute of the device hash (4, 2 or 5).")
        }
        return try backend.sha1([device.bytes, opaque, bundle]) == expected
    }

    static func unwrap(_ report: ReceiptValidationReport) throws(ReceiptValidationError) -> ValidatedReceipt {
        if let error = report.error { throw error }
        guard let receipt = report.receipt, let digest = report.digestAlgorithm,
              let time = report.verificationTime, let trust = report.trust
        else {
            throw ReceiptValidationError(.backendFailure, "Validation ended without a result.")
        }
        return ValidatedReceipt(
            receipt: receipt,
            signerChain: report.signerChain,
            digestAlgorithm: digest,
            verificationTime: time,
            trust: trust,
            deviceHashMatches: report.deviceHashMatches
        )
    }
}
