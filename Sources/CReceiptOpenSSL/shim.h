#ifndef C_RECEIPT_OPENSSL_SHIM_H
#define C_RECEIPT_OPENSSL_SHIM_H

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

/*
 * The Swift importer cannot see function-like macros. Each wrapper below is a `static inline`
 * function named after the macro it stands for; the parentheses around the name keep the
 * preprocessor from expanding the macro in the declaration, while the body expands it as usual.
 */

/* STACK_OF(X509) */

static inline int (sk_X509_num)(const STACK_OF(X509) *sk) {
    return sk_X509_num(sk);
}

static inline X509 *(sk_X509_value)(const STACK_OF(X509) *sk, int index) {
    return sk_X509_value(sk, index);
}

/* Frees the stack only; the certificates stay owned by whoever owns them. */
static inline void (sk_X509_free)(STACK_OF(X509) *sk) {
    sk_X509_free(sk);
}

/* Frees every certificate of the stack with X509_free, then the stack. */
static inline void (sk_X509_pop_free)(STACK_OF(X509) *sk, void (*free_function)(X509 *)) {
    sk_X509_pop_free(sk, free_function);
}

/* STACK_OF(PKCS7_SIGNER_INFO), STACK_OF(X509_ATTRIBUTE) */

static inline int (sk_PKCS7_SIGNER_INFO_num)(const STACK_OF(PKCS7_SIGNER_INFO) *sk) {
    return sk_PKCS7_SIGNER_INFO_num(sk);
}

static inline PKCS7_SIGNER_INFO *(sk_PKCS7_SIGNER_INFO_value)(const STACK_OF(PKCS7_SIGNER_INFO) *sk, int index) {
    return sk_PKCS7_SIGNER_INFO_value(sk, index);
}

static inline int (sk_X509_ATTRIBUTE_num)(const STACK_OF(X509_ATTRIBUTE) *sk) {
    return sk_X509_ATTRIBUTE_num(sk);
}

/* PKCS7 type tests */

static inline int (PKCS7_type_is_signed)(const PKCS7 *p7) {
    return PKCS7_type_is_signed(p7);
}

static inline int (PKCS7_type_is_data)(const PKCS7 *p7) {
    return PKCS7_type_is_data(p7);
}

/* Borrowed: the signer info keeps ownership of its authenticated (signed) attributes. */
static inline STACK_OF(X509_ATTRIBUTE) *(PKCS7_get_signed_attributes)(PKCS7_SIGNER_INFO *si) {
    return PKCS7_get_signed_attributes(si);
}

/* Memory */

static inline long (BIO_get_mem_data)(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

static inline void (OPENSSL_free)(void *pointer) {
    OPENSSL_free(pointer);
}

/* RSA public keys */

/*
 * An RSA public key (EVP_PKEY_RSA) from its modulus and public exponent, given as big-endian
 * magnitudes, built with EVP_PKEY_fromdata: no certificate or SubjectPublicKeyInfo decoding (which
 * goes through the OSSL_DECODER machinery). NULL on failure; the caller frees the key.
 */
static inline EVP_PKEY *receipt_rsa_public_key(const unsigned char *n, int n_length, const unsigned char *e, int e_length) {
    EVP_PKEY *key = NULL;
    BIGNUM *modulus = BN_bin2bn(n, n_length, NULL);
    BIGNUM *exponent = BN_bin2bn(e, e_length, NULL);
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    OSSL_PARAM *parameters = NULL;
    EVP_PKEY_CTX *context = NULL;
    if (modulus != NULL && exponent != NULL && builder != NULL
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, modulus) == 1
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, exponent) == 1
        && (parameters = OSSL_PARAM_BLD_to_param(builder)) != NULL
        && (context = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL)) != NULL
        && EVP_PKEY_fromdata_init(context) == 1) {
        if (EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, parameters) != 1) {
            key = NULL;
        }
    }
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_free(parameters);
    OSSL_PARAM_BLD_free(builder);
    BN_free(exponent);
    BN_free(modulus);
    return key;
}

#endif
