import CBaseline

/// The C baselines of the issue-31 lines for one token and backend (Sources/CBaseline/JWSBaseline.c):
/// (a) SHA-256 plus one ECDSA P-256 verification with the leaf's key parsed once, and (b) a
/// straightforward verifier that per token decodes the x5c, verifies the chain at signedDate and
/// then the signature. Each context is owned here and freed once, in deinit.
final class JWSBaselineRunner {
    /// `signatureOnly(n)`: n signature-only verifications.
    private(set) var signatureOnly: (Int) -> Void = { _ in }
    /// `straightforward(n)`: n complete straightforward verifications of the token.
    private(set) var straightforward: (Int) -> Void = { _ in }
    private var opensslSignature: OpaquePointer?
    private var opensslVerifier: OpaquePointer?
    private var gnutlsSignature: OpaquePointer?
    private var gnutlsVerifier: OpaquePointer?

    init(backend: String, token: [UInt8], anchor: [UInt8], name: String) throws {
        switch backend {
        case "openssl":
            guard let signature = bl_jws_openssl_signature_new(token, token.count),
                  let verifier = bl_jws_openssl_verifier_new(anchor, anchor.count)
            else { throw BenchError("OpenSSL JWS baseline: cannot read \(name) or the anchor") }
            opensslSignature = signature
            opensslVerifier = verifier
            guard bl_jws_openssl_signature_run(signature, 1) == 1, bl_jws_openssl_verifier_run(verifier, token, token.count, 1) == 1 else {
                throw BenchError("OpenSSL JWS baseline rejects \(name)")
            }
            signatureOnly = { n in precondition(bl_jws_openssl_signature_run(signature, n) == n) }
            straightforward = { n in precondition(bl_jws_openssl_verifier_run(verifier, token, token.count, n) == n) }
        case "gnutls":
            guard let signature = bl_jws_gnutls_signature_new(token, token.count),
                  let verifier = bl_jws_gnutls_verifier_new(anchor, anchor.count)
            else { throw BenchError("GnuTLS JWS baseline: cannot read \(name) or the anchor") }
            gnutlsSignature = signature
            gnutlsVerifier = verifier
            guard bl_jws_gnutls_signature_run(signature, 1) == 1, bl_jws_gnutls_verifier_run(verifier, token, token.count, 1) == 1 else {
                throw BenchError("GnuTLS JWS baseline rejects \(name)")
            }
            signatureOnly = { n in precondition(bl_jws_gnutls_signature_run(signature, n) == n) }
            straightforward = { n in precondition(bl_jws_gnutls_verifier_run(verifier, token, token.count, n) == n) }
        default:
            throw BenchError("no JWS baseline for \(backend)")
        }
    }

    deinit {
        bl_jws_openssl_signature_free(opensslSignature)
        bl_jws_openssl_verifier_free(opensslVerifier)
        bl_jws_gnutls_signature_free(gnutlsSignature)
        bl_jws_gnutls_verifier_free(gnutlsVerifier)
    }
}
