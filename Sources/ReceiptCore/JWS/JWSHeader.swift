/// The protected header of a JWS, as read: the algorithm, the `x5c` chain and every other member.
public struct JWSHeader: Hashable, Sendable {
    /// `alg`: always `ES256` in a verified token.
    public var algorithm: String
    /// `x5c`: the certificates, leaf first, as DER (exactly three in a verified token).
    public var certificateChain: [Certificate]
    /// The whole header object, unknown members included.
    public var fields: [String: JSONValue]

    /// The `crit` names ReceiptKit understands: none (RFC 7515 §4.1.11: a name it does not
    /// understand makes the token invalid).
    static let understoodCritical: Set<String> = []

    /// Reads a decoded header. `malformed_jws` for anything but an object with a string `alg`,
    /// a `crit` of understood names and an `x5c` array of exactly three standard-base64 strings
    /// of at most ``JWSLimits/maximumCertificateSize`` bytes each; `unsupported_algorithm` for an
    /// `alg` other than `ES256`.
    init(json: [UInt8]) throws(ReceiptValidationError) {
        let object: [String: JSONValue]
        switch JSONReader.read(json[...]) {
        case .success(.object(let members)): object = members
        case .success: throw ReceiptValidationError(.malformedJWS, "The JWS header is not a JSON object.")
        case .failure(let error):
            throw ReceiptValidationError(.malformedJWS, "The JWS header is not JSON: \(error.reason).", offset: error.offset)
        }
        guard let algorithm = object["alg"]?.stringValue else {
            throw ReceiptValidationError(.malformedJWS, "The JWS header has no \"alg\" string.")
        }
        guard algorithm == "ES256" else {
            throw ReceiptValidationError(.unsupportedAlgorithm, "The JWS algorithm \"\(algorithm)\" is not ES256.")
        }
        if let critical = object["crit"] {
            guard let names = critical.arrayValue, !names.isEmpty else {
                throw ReceiptValidationError(.malformedJWS, "The JWS header's \"crit\" is not a non-empty array.")
            }
            for name in names where !(name.stringValue.map(Self.understoodCritical.contains) ?? false) {
                throw ReceiptValidationError(
                    .malformedJWS, "The JWS header marks \(name.stringValue.map { "\"\($0)\"" } ?? "a non-string") as critical; it is not understood.")
            }
        }
        guard let chain = object["x5c"]?.arrayValue else {
            throw ReceiptValidationError(.malformedJWS, "The JWS header has no \"x5c\" array.")
        }
        guard chain.count == 3 else {
            throw ReceiptValidationError(
                .malformedJWS, "The JWS header's \"x5c\" holds \(chain.count) certificate(s); Apple's holds exactly 3 (leaf, intermediate, root).")
        }
        var certificates: [Certificate] = []
        for (index, entry) in chain.enumerated() {
            guard let text = entry.stringValue else {
                throw ReceiptValidationError(.malformedJWS, "x5c[\(index)] is not a string.")
            }
            guard text.utf8.count <= (JWSLimits.maximumCertificateSize + 2) / 3 * 4 else {
                throw ReceiptValidationError(
                    .malformedJWS, "x5c[\(index)] is larger than \(JWSLimits.maximumCertificateSize) bytes.")
            }
            guard let der = StrictBase64.decodeStandard(Array(text.utf8)[...]), !der.isEmpty else {
                throw ReceiptValidationError(.malformedJWS, "x5c[\(index)] is not standard base64 (RFC 7515 §4.1.6).")
            }
            certificates.append(Certificate(derBytes: der))
        }
        self.algorithm = algorithm
        self.certificateChain = certificates
        self.fields = object
    }
}
