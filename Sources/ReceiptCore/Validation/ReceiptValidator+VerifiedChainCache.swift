#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReceiptValidator {
    /// The verified-chain cache's counters, or `nil` when the cache is off.
    public var verifiedChainCacheStatistics: VerifiedChainCacheStatistics? {
        chainCache?.statistics
    }

    /// Whether the verified-chain cache holds no chain (`nil` when it is off): what every
    /// validation asks first, for the tests that hold it to the shards' own count.
    package var chainCacheIsEmpty: Bool? {
        chainCache?.isEmpty
    }

    /// Forgets every cached chain: the next receipt of each chain is verified in full again.
    public func removeCachedChains() {
        chainCache?.removeAll()
        jwsState.cache?.removeAll()
    }

    /// The leading byte of the DER SET the signature covers when signed attributes are present
    /// (the attributes are sent as `[0] IMPLICIT`, 0xA0, but signed as `SET`, 0x31).
    private static let setTag: [UInt8] = [0x31]

    // MARK: Fast path

    /// Validates `der` with a cached chain, or returns `nil` to send it down the full path.
    ///
    /// Taken only when the envelope is in the canonical shape and byte-identical (apart from
    /// content, signature and the per-receipt signed-attribute values) to a receipt the full path
    /// accepted under the same trust store, and the verification time lies in the cached validity
    /// window. Then: parse the payload (still unverified), pick the time exactly as the full path
    /// does, check the content digest (and signed attributes), verify the one RSA signature with the
    /// cached key; only then is the parsed receipt believed. Any doubt returns `nil`.
    /// `envelope` is `SignedDataEnvelope(der)`, read by the caller for the whole validation
    /// (``SignedDataEnvelope/read(_:noting:)``: on `nil`, the full path continues that reading).
    func fastPathReport(_ der: [UInt8], envelope: SignedDataEnvelope?) -> ReceiptValidationReport? {
        guard let cache = chainCache, let primitives, let envelope else { return nil }

        let (trust, store) = trustChoice(
            embedsOnlyStoreKitCertificate: storeKitTrustStore != nil
                && envelope.certificatesAreExactly(configuration.storeKitTestCertificate.derBytes, in: der))

        let fingerprint = der.withUnsafeBufferPointer { VerifiedChainCache.fingerprint($0, envelope, store) }
        guard let entry = cache.entry(fingerprint: fingerprint, store: store) else { return nil }
        guard let report = fastPathReport(der, envelope: envelope, entry: entry, trust: trust, primitives: primitives) else {
            cache.noteFallback(fingerprint: fingerprint)
            return nil
        }
        return report
    }

    private func fastPathReport(
        _ der: [UInt8], envelope: SignedDataEnvelope, entry: VerifiedChainCache.Entry, trust: ReceiptTrust,
        primitives: any SignaturePrimitives
    ) -> ReceiptValidationReport? {
        let templateMatches = der.withUnsafeBufferPointer { pointer -> Bool in
            let cursor = DERCursor(pointer)
            return cursor.equals(envelope.head, entry.head)
                && cursor.equals(envelope.certificates, entry.certificates)
                && cursor.equals(envelope.signerHead, entry.signerHead)
                && cursor.equals(envelope.signatureAlgorithm, entry.signatureAlgorithm)
                && (envelope.signedAttributes == nil) == (entry.attributes == nil)
                && envelope.digestAlgorithm == entry.digestAlgorithm
        }
        guard templateMatches else { return nil }

        let now = configuration.currentDate()
        // Parsed before the signature is checked, and believed only after it verified.
        let content = der[envelope.content]
        guard let receipt = try? ReceiptParser.parse(der, range: envelope.content, lanes: .strictOnly) else { return nil }
        let time = verificationTime(now: now, creationDate: receipt.creationDate)
        guard entry.covers(time) else { return nil }

        // The signature, over the content or over the DER SET of the signed attributes.
        let signature = der[envelope.signature]
        if let attributes = envelope.signedAttributes, let rules = entry.attributes {
            guard let digest = try? primitives.digest(entry.digestAlgorithm, of: [content]) else { return nil }
            let attributesMatch = der.withUnsafeBufferPointer { pointer in
                SignedAttributeTemplate.matches(DERCursor(pointer), attributes, rules: rules, digest: digest)
            }
            guard attributesMatch else { return nil }
            let signed = [Self.setTag[...], der[(attributes.lowerBound + 1)..<attributes.upperBound]]
            guard primitives.verifySignature(signature, of: signed, scheme: .rsaPKCS1v15(entry.digestAlgorithm), key: entry.key) else {
                return nil
            }
        } else {
            guard primitives.verifySignature(signature, of: [content], scheme: .rsaPKCS1v15(entry.digestAlgorithm), key: entry.key) else {
                return nil
            }
        }

        // From here on exactly what the full path does after its verification succeeded.
        var report = ReceiptValidationReport()
        report.verificationTime = time
        report.digestAlgorithm = entry.digestAlgorithm
        report.trust = trust
        report.signerChain = entry.chain
        report.receipt = receipt
        do {
            try checkPayload(receipt, now: now, verificationTime: time, unverifiedCreationDate: receipt.creationDate)
            try checkDevice(receipt, into: &report)
        } catch {
            report.error = error
        }
        return report
    }

    // MARK: Fill

    /// Remembers the chain of a receipt the full path just accepted (signature, chain at `time`,
    /// chain policy), when it is safe to reuse: canonical envelope, every embedded certificate part
    /// of the verified chain, one candidate issuer per link (so path building cannot depend on the
    /// time), and a key the backend can import.
    /// `envelope` is `SignedDataEnvelope(der)` and `certificates` the embedded certificates'
    /// ranges (``SignedDataStructure/certificates``), both from the caller's one reading of `der`.
    func remember(
        _ der: [UInt8], envelope: SignedDataEnvelope?, certificates: [Range<Int>], verified: VerifiedSignedData, store: any TrustStore,
        at time: Date
    ) {
        guard let cache = chainCache, let primitives,
              let envelope,
              envelope.digestAlgorithm == verified.digestAlgorithm,
              (envelope.signedAttributes != nil) == verified.hasSignedAttributes,
              let leaf = verified.signerChain.first
        else { return }
        // Each chain certificate's fields are read once, for the window and for the path check.
        var chainFields: [CertificateFields] = []
        chainFields.reserveCapacity(verified.signerChain.count)
        for certificate in verified.signerChain {
            guard let fields = CertificateFields(certificate) else { return }
            chainFields.append(fields)
        }
        guard let window = Self.validityWindow(of: chainFields), let second = ValidityPeriod.second(of: time),
              window.contains(second: second)
        else { return }

        // The canonical envelope's certificates field holds exactly these, in order.
        let embedded = certificates.map { Certificate(derBytes: Array(der[$0])) }
        let parts = der.withUnsafeBufferPointer { pointer -> (rules: [VerifiedChainCache.SignedAttributeRule]?, valid: Bool) in
            guard let attributes = envelope.signedAttributes else { return (nil, true) }
            guard let rules = SignedAttributeTemplate.learn(DERCursor(pointer), attributes) else { return (nil, false) }
            return (rules, true)
        }
        guard parts.valid,
              Self.pathIsUnambiguous(
                  chain: verified.signerChain, fields: chainFields, embedded: embedded, anchors: store.anchors),
              let key = try? primitives.makeVerificationKey(for: leaf)
        else { return }

        let fingerprint = der.withUnsafeBufferPointer { VerifiedChainCache.fingerprint($0, envelope, store) }
        cache.insert(VerifiedChainCache.Entry(
            trustStore: store,
            fingerprint: fingerprint,
            head: Array(der[envelope.head]),
            certificates: Array(der[envelope.certificates]),
            signerHead: Array(der[envelope.signerHead]),
            signatureAlgorithm: Array(der[envelope.signatureAlgorithm]),
            attributes: parts.rules,
            digestAlgorithm: envelope.digestAlgorithm,
            chain: verified.signerChain,
            window: window,
            key: key
        ))
    }

    /// The intersection of the chain's validity periods (``ValidityPeriod``, bounds included, the
    /// rule every backend applies); `nil` when empty.
    static func validityWindow(of chain: [CertificateFields]) -> ValidityPeriod? {
        guard let first = chain.first else { return nil }
        var window = first.validity
        for fields in chain.dropFirst() {
            window.notBefore = max(window.notBefore, fields.validity.notBefore)
            window.notAfter = min(window.notAfter, fields.validity.notAfter)
        }
        return window.notBefore <= window.notAfter ? window : nil
    }

    /// Whether the path from the leaf to the anchor is the only one the libraries could build from
    /// these certificates: every embedded certificate is in the chain, the chain ends at one of the
    /// anchors, and for every link exactly one candidate (embedded or anchor) carries the issuer's
    /// name — compared loosely (``CertificateFields``), so near-identical names count as candidates.
    /// `fields[i]` are the fields of `chain[i]` (read once by the caller).
    static func pathIsUnambiguous(
        chain: [Certificate], fields: [CertificateFields], embedded: [Certificate], anchors: [Certificate]
    ) -> Bool {
        guard chain.count >= 2, fields.count == chain.count, let last = chain.last, anchors.contains(last),
              embedded.allSatisfy({ chain.contains($0) })
        else { return false }
        var candidates: [Certificate] = []
        for certificate in embedded + anchors where !candidates.contains(certificate) {
            candidates.append(certificate)
        }
        var subjects: [[UInt8]] = []
        for candidate in candidates {
            if let index = chain.firstIndex(of: candidate) {
                subjects.append(fields[index].subjectKey)
            } else {
                guard let candidateFields = CertificateFields(candidate) else { return false }
                subjects.append(candidateFields.subjectKey)
            }
        }
        for index in 0..<(chain.count - 1) {
            let issuerKey = fields[index].issuerKey
            let matching = candidates.indices.filter { subjects[$0] == issuerKey && candidates[$0] != chain[index] }
            guard matching.count == 1, candidates[matching[0]] == chain[index + 1] else { return false }
        }
        return true
    }
}
