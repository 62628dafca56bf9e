#ifndef RECEIPTKIT_JWS_BASELINE_H
#define RECEIPTKIT_JWS_BASELINE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The C baselines of the JWS lines (issue 31), OpenSSL and GnuTLS each. `token` is a compact JWS
 * (ES256, x5c leaf, intermediate, root). Every `*_run` performs `iterations` operations and returns
 * how many succeeded (so the caller can check the baseline did real work).
 *
 * (a) Signature only: the leaf's key parsed and the raw r‖s signature re-encoded once; each
 *     operation is SHA-256 over `header.payload` plus one ECDSA P-256 verification.
 * (b) Straightforward verifier: each operation splits the token, base64url-decodes header and
 *     payload, reads `alg`, the three `x5c` certificates (standard base64 → DER → library
 *     certificate) and `signedDate`, verifies the chain to the anchor (built once) at signedDate
 *     (OpenSSL: X509_verify_cert; GnuTLS: gnutls_x509_trust_list_verify_crt2 plus each
 *     certificate's validity at signedDate, GnuTLS taking no verification time), checks Apple's two
 *     marker OIDs, then the signature with the leaf's key.
 */

typedef struct bl_jws_openssl_signature bl_jws_openssl_signature;
bl_jws_openssl_signature *bl_jws_openssl_signature_new(const uint8_t *token, size_t length);
void bl_jws_openssl_signature_free(bl_jws_openssl_signature *context);
long bl_jws_openssl_signature_run(bl_jws_openssl_signature *context, long iterations);

typedef struct bl_jws_gnutls_signature bl_jws_gnutls_signature;
bl_jws_gnutls_signature *bl_jws_gnutls_signature_new(const uint8_t *token, size_t length);
void bl_jws_gnutls_signature_free(bl_jws_gnutls_signature *context);
long bl_jws_gnutls_signature_run(bl_jws_gnutls_signature *context, long iterations);

typedef struct bl_jws_openssl_verifier bl_jws_openssl_verifier;
bl_jws_openssl_verifier *bl_jws_openssl_verifier_new(const uint8_t *anchor_der, size_t anchor_length);
void bl_jws_openssl_verifier_free(bl_jws_openssl_verifier *context);
long bl_jws_openssl_verifier_run(bl_jws_openssl_verifier *context, const uint8_t *token, size_t length, long iterations);

typedef struct bl_jws_gnutls_verifier bl_jws_gnutls_verifier;
bl_jws_gnutls_verifier *bl_jws_gnutls_verifier_new(const uint8_t *anchor_der, size_t anchor_length);
void bl_jws_gnutls_verifier_free(bl_jws_gnutls_verifier *context);
long bl_jws_gnutls_verifier_run(bl_jws_gnutls_verifier *context, const uint8_t *token, size_t length, long iterations);

#endif
