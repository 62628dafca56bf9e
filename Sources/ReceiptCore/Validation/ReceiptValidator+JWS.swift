#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReceiptValidator {
    /// Verifies an Apple JWS in compact serialization — a StoreKit 2 transaction or app
    /// transaction, an App Store Server API answer, or an App Store Server Notification V2 — and
    /// returns its typed payload.
    ///
    /// In order (the first failure is the one reported):
    /// 1. bounds and form, before any cryptography: at most ``JWSLimits/maximumTokenSize`` bytes,
    ///    three base64url segments without padding, a JSON header with `alg` exactly `ES256`
    ///    (`unsupported_algorithm` otherwise), no `crit` it does not understand, `x5c` of exactly
    ///    three standard-base64 certificates, a JSON payload of a known kind with a `signedDate`
    ///    (`malformed_jws` otherwise);
    /// 2. the chain (``Configuration/jwsTrustAnchors``, default Apple Root CA - G3): each
    ///    certificate's signature verified with its issuer's key (ECDSA P-384/SHA-384 for Apple's),
    ///    the third `x5c` certificate an anchor or issued by one (`untrusted_chain`,
    ///    `invalid_certificate`);
    /// 3. every certificate valid at the verification time (``Configuration/verificationTime``:
    ///    ``VerificationTime/creationDate`` means the payload's `signedDate`; both bounds
    ///    included), `certificate_expired` / `certificate_not_yet_valid`;
    /// 4. the ES256 signature over `header.payload` (`invalid_signature`);
    /// 5. Apple's marker OIDs on the leaf and intermediate (`missing_apple_marker`);
    /// 6. the payload: documented members of the right types, and for a notification every
    ///    nested JWS verified by these same steps (one level only);
    /// 7. `signedDate` not beyond ``Configuration/maximumClockSkew`` in the future
    ///    (`creation_date_in_future`), then bundle id, environment and App Apple ID when
    ///    configured (`bundle_id_mismatch`, `environment_mismatch`, `app_apple_id_mismatch`).
    ///
    /// No network: revocation (OCSP) is not checked. The backend must adopt
    /// ``SignaturePrimitives`` (the built-in ones do); otherwise `backend_failure`.
    public func verifyJWS(_ token: some Collection<UInt8>) throws(ReceiptValidationError) -> VerifiedJWS {
        guard let primitives else {
            throw ReceiptValidationError(
                .backendFailure, "The \(backend.name) backend does not provide the signature primitives JWS verification needs.")
        }
        return try verifyJWS(token, primitives: primitives, now: configuration.currentDate(), nesting: 0, expected: nil)
    }

    /// `verifyJWS(_:)` for a token as text (its UTF-8 bytes).
    public func verifyJWS(_ token: String) throws(ReceiptValidationError) -> VerifiedJWS {
        try verifyJWS(Array(token.utf8))
    }

    private func verifyJWS(
        _ bytes: some Collection<UInt8>, primitives: any SignaturePrimitives, now: Date, nesting: Int, expected: JWSKind?
    ) throws(ReceiptValidationError) -> VerifiedJWS {
        let cache = jwsState.cache
        var cached: JWSChainCache.Entry?
        // 1. Bounds and form (a header byte-identical to a cached one decodes as it did).
        let jws = try CompactJWS(bytes) { segment in
            cached = cache?.entry(for: segment)
            return cached?.header
        }
        let object = try PayloadFields.object(jws.payload, context: "JWS")
        guard let signedDate = try PayloadFields(object, context: "JWS").date("signedDate") else {
            throw ReceiptValidationError(.malformedJWS, "The JWS payload has no signedDate.")
        }
        guard let kind = JWSKind(payload: object) else {
            throw ReceiptValidationError(
                .malformedJWS, "The JWS payload is not a transaction, renewal info, notification or app transaction.")
        }
        if let expected, kind != expected {
            throw ReceiptValidationError(.malformedJWS, "A nested JWS holds a \(kind.rawValue), not a \(expected.rawValue).")
        }
        guard nesting <= JWSLimits.maximumNesting, kind != .notification || nesting == 0 else {
            throw ReceiptValidationError(.malformedJWS, "A JWS is nested deeper than a notification's one level.")
        }
        let time = verificationTime(now: now, creationDate: signedDate)

        // 2. The chain: from the cache for a known header, else verified in full.
        let anchors = try jwsState.anchors(configuration.jwsTrustAnchors, primitives: primitives)
        let chain: JWSChain
        if let cached {
            chain = cached.chain
        } else {
            chain = try JWSChain(jws.header.certificateChain, anchors: anchors, primitives: primitives)
        }

        // 3. Times, 4. signature, 5. markers.
        guard let second = ValidityPeriod.second(of: time) else {
            throw ReceiptValidationError(.backendFailure, ValidityPeriod.unrepresentableTimeMessage(time))
        }
        if !chain.window.contains(second: second) {
            try ValidityPeriod.check(chain.certificates, at: time)
        }
        guard chain.leafIsP256,
              primitives.verifySignature(jws.signature[...], of: [jws.signingInput], scheme: .ecdsa(.sha256), key: chain.leafKey)
        else {
            throw ReceiptValidationError(.invalidSignature, "The JWS signature does not verify with the leaf certificate's key (ES256).")
        }
        if let markerError = chain.markerError { throw markerError }

        // 6. The payload (nested tokens verified one level down).
        let payload: JWSPayload
        switch kind {
        case .transaction: payload = .transaction(try TransactionPayload(fields: object))
        case .renewalInfo: payload = .renewalInfo(try RenewalInfoPayload(fields: object))
        case .appTransaction: payload = .appTransaction(try AppTransactionPayload(fields: object))
        case .notification:
            payload = .notification(try NotificationPayload(fields: object) { (token, kind) throws(ReceiptValidationError) in
                try verifyJWS(Array(token.utf8), primitives: primitives, now: now, nesting: nesting + 1, expected: kind).payload
            })
        }

        // 7. Policy.
        if signedDate.timeIntervalSince(now) > configuration.maximumClockSkew {
            throw ReceiptValidationError(
                .creationDateInFuture,
                "The JWS was signed at \(RFC3339.string(from: signedDate)), in the future (now \(RFC3339.string(from: now))).")
        }
        try checkPolicy(payload)

        if cached == nil, let cache {
            cache.insert(JWSChainCache.Entry(headerSegment: Array(jws.token[jws.headerSegment]), header: jws.header, chain: chain))
        }
        return VerifiedJWS(
            payload: payload, signedDate: signedDate, header: jws.header, chain: chain.certificates,
            payloadBytes: jws.payload, verificationTime: time)
    }

    /// Bundle id, environment and App Apple ID, where the payload carries them.
    private func checkPolicy(_ payload: JWSPayload) throws(ReceiptValidationError) {
        let carried: (bundleID: String?, environment: String?, appAppleID: Int64?, hasBundleID: Bool)
        switch payload {
        case .transaction(let transaction):
            carried = (transaction.bundleId, transaction.environment, nil, true)
        case .renewalInfo(let renewal):
            carried = (nil, renewal.environment, nil, false)
        case .appTransaction(let app):
            carried = (app.bundleId, app.receiptType, app.appAppleId, true)
        case .notification(let notification):
            let source = notification.data?.fields ?? notification.summary ?? notification.externalPurchaseToken ?? notification.appData
            carried = (
                source?["bundleId"]?.stringValue, source?["environment"]?.stringValue, source?["appAppleId"]?.int64Value,
                source != nil
            )
        }
        if let expected = configuration.expectedBundleID, carried.hasBundleID, carried.bundleID != expected {
            throw ReceiptValidationError(
                .bundleIDMismatch, "The JWS is for bundle id '\(carried.bundleID ?? "")', expected '\(expected)'.")
        }
        if let expected = configuration.expectedEnvironment, let environment = carried.environment, environment != expected {
            throw ReceiptValidationError(
                .environmentMismatch, "The JWS is for the \(environment) environment, expected \(expected).")
        }
        if let expected = configuration.expectedAppAppleID, let appAppleID = carried.appAppleID, appAppleID != expected {
            throw ReceiptValidationError(
                .appAppleIDMismatch, "The JWS is for App Apple ID \(appAppleID), expected \(expected).")
        }
    }
}
