/// The one error every stage of ReceiptKit throws: loading, PKCS #7 verification, parsing and policy.
///
/// Modelled on swift-certificates' `CertificateError`: a struct whose ``code`` is an extensible
/// set of static members rather than an enum, so new failure codes can be added in a minor release
/// without breaking clients that `switch` over them. Match on ``code``; read ``message`` for people.
///
/// ```swift
/// do {
///     let receipt = try validator.validate(bytes)
/// } catch let error as ReceiptValidationError where error.code == .certificateExpired {
///     print(error.message)
/// }
/// ```
public struct ReceiptValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable machine-readable code.
    public var code: Code
    /// A sentence a person understands, naming what was wrong.
    public var message: String
    /// The crypto library's own diagnostic text (the whole OpenSSL error queue, or GnuTLS's
    /// `gnutls_strerror`), when a library produced the failure.
    public var libraryMessage: String?
    /// The byte offset in the input or payload where a structural problem was found, if known.
    public var offset: Int?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The stable failure code.
    ///   - message: A human-readable explanation.
    ///   - libraryMessage: The crypto library's own diagnostic, if any.
    ///   - offset: The byte offset of a structural problem, if any.
    public init(_ code: Code, _ message: String, libraryMessage: String? = nil, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.libraryMessage = libraryMessage
        self.offset = offset
    }

    /// `code: message (at byte offset N) [library message]`, e.g.
    /// `certificate_expired: The certificate … expired at ….`
    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let offset { text += " (at byte offset \(offset))" }
        if let libraryMessage, !libraryMessage.isEmpty { text += " [\(libraryMessage)]" }
        return text
    }
}

extension ReceiptValidationError {
    /// A stable, snake_case failure code. New codes may be added; existing raw values never change.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The snake_case code, e.g. `certificate_expired`.
        public var rawValue: String
        /// Wraps a raw code string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The raw code string.
        public var description: String { rawValue }

        // MARK: Loading

        /// No receipt exists at the given location.
        public static let receiptNotFound = Code(rawValue: "receipt_not_found")
        /// The receipt file or data is empty.
        public static let emptyReceipt = Code(rawValue: "empty_receipt")
        /// The input is neither DER/BER nor decodable base64.
        public static let invalidEncoding = Code(rawValue: "invalid_encoding")
        /// The input is larger than the validator accepts.
        public static let receiptTooLarge = Code(rawValue: "receipt_too_large")

        // MARK: Container and signature

        /// The input is not a PKCS #7 / CMS structure.
        public static let notPKCS7 = Code(rawValue: "not_pkcs7")
        /// The PKCS #7 structure is not signedData, has no content, or has no signer.
        public static let notSigned = Code(rawValue: "not_signed")
        /// The signer chain does not lead to any of the trust anchors.
        public static let untrustedChain = Code(rawValue: "untrusted_chain")
        /// The chain lacks Apple's marker OIDs or is not exactly leaf → WWDR intermediate → root.
        public static let missingAppleMarker = Code(rawValue: "missing_apple_marker")
        /// A certificate of the chain had expired at the verification time.
        public static let certificateExpired = Code(rawValue: "certificate_expired")
        /// A certificate of the chain was not yet valid at the verification time.
        public static let certificateNotYetValid = Code(rawValue: "certificate_not_yet_valid")
        /// The signature does not match the signed content (or signed attributes).
        public static let invalidSignature = Code(rawValue: "invalid_signature")
        /// A certificate (a trust anchor or an embedded one) could not be decoded.
        public static let invalidCertificate = Code(rawValue: "invalid_certificate")
        /// No trust anchor was given or could be loaded.
        public static let rootCertificateNotFound = Code(rawValue: "root_certificate_not_found")

        // MARK: JWS

        /// The input is not a compact JWS Apple's way: not three base64url segments, header or
        /// payload not JSON (or nested too deep), `x5c` not exactly three standard-base64
        /// certificates, an unknown `crit`, no `signedDate`, a payload of no known kind, a JWS
        /// nested beyond a notification's one level, or over a size limit.
        public static let malformedJWS = Code(rawValue: "malformed_jws")
        /// The JWS `alg` is not `ES256` (`none`, `HS256`, `ES384`, …).
        public static let unsupportedAlgorithm = Code(rawValue: "unsupported_algorithm")

        // MARK: Payload

        /// The signed payload is not a well-formed receipt attribute SET.
        public static let malformedReceipt = Code(rawValue: "malformed_receipt")
        /// An in-app purchase attribute (type 17) is not a well-formed SET.
        public static let malformedInAppPurchase = Code(rawValue: "malformed_in_app_purchase")
        /// A required receipt attribute is missing (bundle id, version, opaque value, hash, creation date).
        public static let missingComponent = Code(rawValue: "missing_component")

        // MARK: Policy

        /// The receipt's bundle identifier differs from the expected one.
        public static let bundleIDMismatch = Code(rawValue: "bundle_id_mismatch")
        /// The receipt's application version differs from the expected one.
        public static let versionMismatch = Code(rawValue: "version_mismatch")
        /// SHA-1(device id ‖ opaque value ‖ bundle id bytes) differs from the receipt's hash.
        public static let hashMismatch = Code(rawValue: "hash_mismatch")
        /// The receipt's own expiration date (field 21) has passed.
        public static let receiptExpired = Code(rawValue: "receipt_expired")
        /// The receipt's creation date (a JWS's `signedDate`) lies in the future beyond the allowed clock skew.
        public static let creationDateInFuture = Code(rawValue: "creation_date_in_future")
        /// A JWS payload's environment differs from the expected one.
        public static let environmentMismatch = Code(rawValue: "environment_mismatch")
        /// A JWS payload's App Apple ID differs from the expected one.
        public static let appAppleIDMismatch = Code(rawValue: "app_apple_id_mismatch")

        // MARK: Configuration

        /// A device identifier given to ``DeviceIdentifier/init(parsing:)`` is not a UUID, a MAC
        /// address or hex bytes.
        public static let invalidDeviceIdentifier = Code(rawValue: "invalid_device_identifier")

        // MARK: Other

        /// The crypto library failed in a way that says nothing about the receipt (out of memory, …).
        public static let backendFailure = Code(rawValue: "backend_failure")
    }
}
