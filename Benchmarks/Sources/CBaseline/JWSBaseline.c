#include "AnchorTrustList.h"
#include "JWSBaseline.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

/* ------------------------------------------------------------------------------------------ */
/* Token reading shared by every baseline: a plain C reader, as a straightforward verifier has.  */

#define JWS_MAX_CERTS 3
#define JWS_MAX_DECODED 16384

typedef struct {
    const uint8_t *signing_input; /* header.payload */
    size_t signing_input_length;
    uint8_t signature[64];
    uint8_t header[JWS_MAX_DECODED];
    size_t header_length;
    uint8_t payload[JWS_MAX_DECODED];
    size_t payload_length;
    uint8_t certs[JWS_MAX_CERTS][4096];
    size_t cert_lengths[JWS_MAX_CERTS];
    int64_t signed_date_ms;
} jws_parts;

static int b64_value(uint8_t c, int url) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == (url ? '-' : '+')) return 62;
    if (c == (url ? '_' : '/')) return 63;
    return -1;
}

/* Decodes base64 (url: base64url without padding; else standard with padding). -1 on error. */
static long b64_decode(const uint8_t *in, size_t length, uint8_t *out, size_t capacity, int url) {
    if (!url) {
        if (length % 4 != 0) return -1;
        while (length > 0 && in[length - 1] == '=') length--;
    }
    if (length % 4 == 1) return -1;
    size_t produced = length / 4 * 3 + (length % 4 == 0 ? 0 : length % 4 - 1);
    if (produced > capacity) return -1;
    uint32_t accumulator = 0;
    int bits = 0;
    size_t o = 0;
    for (size_t i = 0; i < length; i++) {
        int v = b64_value(in[i], url);
        if (v < 0) return -1;
        accumulator = (accumulator << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(accumulator >> bits);
        }
    }
    return (long)o;
}

/* The bytes after `"key":` in a JSON object (no nesting awareness: enough for Apple's headers). */
static const uint8_t *json_find(const uint8_t *json, size_t length, const char *key) {
    size_t key_length = strlen(key);
    for (size_t i = 0; i + key_length + 3 <= length; i++) {
        if (json[i] == '"' && memcmp(json + i + 1, key, key_length) == 0 && json[i + 1 + key_length] == '"'
            && json[i + 2 + key_length] == ':') {
            return json + i + 3 + key_length;
        }
    }
    return NULL;
}

/* Splits and decodes the token; 1 when it is a three-segment ES256 token with three x5c
 * certificates and a signedDate. */
static int jws_read(const uint8_t *token, size_t length, jws_parts *parts) {
    const uint8_t *first = memchr(token, '.', length);
    if (first == NULL) return 0;
    const uint8_t *second = memchr(first + 1, '.', length - (size_t)(first + 1 - token));
    if (second == NULL || memchr(second + 1, '.', length - (size_t)(second + 1 - token)) != NULL) return 0;
    parts->signing_input = token;
    parts->signing_input_length = (size_t)(second - token);
    long n = b64_decode(token, (size_t)(first - token), parts->header, sizeof parts->header, 1);
    if (n < 0) return 0;
    parts->header_length = (size_t)n;
    n = b64_decode(first + 1, (size_t)(second - first - 1), parts->payload, sizeof parts->payload, 1);
    if (n < 0) return 0;
    parts->payload_length = (size_t)n;
    n = b64_decode(second + 1, length - (size_t)(second + 1 - token), parts->signature, sizeof parts->signature, 1);
    if (n != 64) return 0;

    const uint8_t *end = parts->header + parts->header_length;
    const uint8_t *alg = json_find(parts->header, parts->header_length, "alg");
    if (alg == NULL || end - alg < 7 || memcmp(alg, "\"ES256\"", 7) != 0) return 0;
    const uint8_t *cursor = json_find(parts->header, parts->header_length, "x5c");
    if (cursor == NULL || cursor >= end || *cursor != '[') return 0;
    cursor++;
    int count = 0;
    while (cursor < end && *cursor != ']') {
        if (*cursor == ',') {
            cursor++;
            continue;
        }
        if (*cursor != '"' || count == JWS_MAX_CERTS) return 0;
        const uint8_t *close = memchr(cursor + 1, '"', (size_t)(end - cursor - 1));
        if (close == NULL) return 0;
        n = b64_decode(cursor + 1, (size_t)(close - cursor - 1), parts->certs[count], sizeof parts->certs[count], 0);
        if (n <= 0) return 0;
        parts->cert_lengths[count++] = (size_t)n;
        cursor = close + 1;
    }
    if (count != JWS_MAX_CERTS) return 0;

    const uint8_t *date = json_find(parts->payload, parts->payload_length, "signedDate");
    const uint8_t *payload_end = parts->payload + parts->payload_length;
    if (date == NULL || date >= payload_end || *date < '0' || *date > '9') return 0;
    int64_t value = 0;
    while (date < payload_end && *date >= '0' && *date <= '9' && value < INT64_MAX / 10) value = value * 10 + (*date++ - '0');
    parts->signed_date_ms = value;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* OpenSSL                                                                                     */

/* DER ECDSA-Sig-Value of a raw r‖s (each 32 bytes); the length, or 0. */
static int openssl_der_signature(const uint8_t raw[64], uint8_t *out, size_t capacity) {
    ECDSA_SIG *sig = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(raw, 32, NULL);
    BIGNUM *s = BN_bin2bn(raw + 32, 32, NULL);
    if (sig == NULL || r == NULL || s == NULL || ECDSA_SIG_set0(sig, r, s) != 1) {
        BN_free(r);
        BN_free(s);
        ECDSA_SIG_free(sig);
        return 0;
    }
    int length = i2d_ECDSA_SIG(sig, NULL);
    if (length <= 0 || (size_t)length > capacity) {
        ECDSA_SIG_free(sig);
        return 0;
    }
    unsigned char *cursor = out;
    i2d_ECDSA_SIG(sig, &cursor);
    ECDSA_SIG_free(sig);
    return length;
}

struct bl_jws_openssl_signature {
    EVP_PKEY *key;
    EVP_PKEY_CTX *verify;
    uint8_t *input;
    size_t input_length;
    uint8_t der[80];
    size_t der_length;
};

bl_jws_openssl_signature *bl_jws_openssl_signature_new(const uint8_t *token, size_t length) {
    jws_parts *parts = malloc(sizeof *parts);
    bl_jws_openssl_signature *context = calloc(1, sizeof *context);
    if (parts == NULL || context == NULL || !jws_read(token, length, parts)) goto fail;
    const unsigned char *cursor = parts->certs[0];
    X509 *leaf = d2i_X509(NULL, &cursor, (long)parts->cert_lengths[0]);
    if (leaf == NULL) goto fail;
    context->key = X509_get_pubkey(leaf);
    X509_free(leaf);
    if (context->key == NULL) goto fail;
    context->verify = EVP_PKEY_CTX_new(context->key, NULL);
    if (context->verify == NULL || EVP_PKEY_verify_init(context->verify) != 1) goto fail;
    int der_length = openssl_der_signature(parts->signature, context->der, sizeof context->der);
    if (der_length == 0) goto fail;
    context->der_length = (size_t)der_length;
    context->input = malloc(parts->signing_input_length);
    if (context->input == NULL) goto fail;
    memcpy(context->input, parts->signing_input, parts->signing_input_length);
    context->input_length = parts->signing_input_length;
    free(parts);
    return context;
fail:
    free(parts);
    ERR_clear_error();
    bl_jws_openssl_signature_free(context);
    return NULL;
}

void bl_jws_openssl_signature_free(bl_jws_openssl_signature *context) {
    if (context == NULL) return;
    EVP_PKEY_CTX_free(context->verify);
    EVP_PKEY_free(context->key);
    free(context->input);
    free(context);
}

long bl_jws_openssl_signature_run(bl_jws_openssl_signature *context, long iterations) {
    long good = 0;
    unsigned char digest[SHA256_DIGEST_LENGTH];
    for (long i = 0; i < iterations; i++) {
        SHA256(context->input, context->input_length, digest);
        if (EVP_PKEY_verify(context->verify, context->der, context->der_length, digest, sizeof digest) == 1) {
            good++;
        } else {
            ERR_clear_error();
        }
    }
    return good;
}

struct bl_jws_openssl_verifier {
    X509_STORE *store;
    ASN1_OBJECT *leaf_marker;
    ASN1_OBJECT *intermediate_marker;
};

bl_jws_openssl_verifier *bl_jws_openssl_verifier_new(const uint8_t *anchor_der, size_t anchor_length) {
    const unsigned char *cursor = anchor_der;
    X509 *anchor = d2i_X509(NULL, &cursor, (long)anchor_length);
    bl_jws_openssl_verifier *context = calloc(1, sizeof *context);
    if (anchor == NULL || context == NULL) goto fail;
    context->store = X509_STORE_new();
    if (context->store == NULL || X509_STORE_add_cert(context->store, anchor) != 1) goto fail;
    context->leaf_marker = OBJ_txt2obj("1.2.840.113635.100.6.11.1", 1);
    context->intermediate_marker = OBJ_txt2obj("1.2.840.113635.100.6.2.1", 1);
    if (context->leaf_marker == NULL || context->intermediate_marker == NULL) goto fail;
    X509_free(anchor);
    return context;
fail:
    X509_free(anchor);
    ERR_clear_error();
    bl_jws_openssl_verifier_free(context);
    return NULL;
}

void bl_jws_openssl_verifier_free(bl_jws_openssl_verifier *context) {
    if (context == NULL) return;
    X509_STORE_free(context->store);
    ASN1_OBJECT_free(context->leaf_marker);
    ASN1_OBJECT_free(context->intermediate_marker);
    free(context);
}

static int openssl_verify_one(bl_jws_openssl_verifier *context, const uint8_t *token, size_t length, jws_parts *parts) {
    if (!jws_read(token, length, parts)) return 0;
    X509 *certs[JWS_MAX_CERTS] = {NULL, NULL, NULL};
    STACK_OF(X509) *untrusted = NULL;
    X509_STORE_CTX *store_context = NULL;
    EVP_MD_CTX *md = NULL;
    int ok = 0;
    for (int i = 0; i < JWS_MAX_CERTS; i++) {
        const unsigned char *cursor = parts->certs[i];
        certs[i] = d2i_X509(NULL, &cursor, (long)parts->cert_lengths[i]);
        if (certs[i] == NULL) goto done;
    }
    untrusted = sk_X509_new_null();
    if (untrusted == NULL || sk_X509_push(untrusted, certs[1]) <= 0 || sk_X509_push(untrusted, certs[2]) <= 0) goto done;
    store_context = X509_STORE_CTX_new();
    if (store_context == NULL || X509_STORE_CTX_init(store_context, context->store, certs[0], untrusted) != 1) goto done;
    X509_STORE_CTX_set_time(store_context, 0, (time_t)(parts->signed_date_ms / 1000));
    if (X509_verify_cert(store_context) != 1) goto done;
    if (X509_get_ext_by_OBJ(certs[0], context->leaf_marker, -1) < 0
        || X509_get_ext_by_OBJ(certs[1], context->intermediate_marker, -1) < 0) goto done;
    uint8_t der[80];
    int der_length = openssl_der_signature(parts->signature, der, sizeof der);
    if (der_length == 0) goto done;
    md = EVP_MD_CTX_new();
    if (md == NULL || EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, X509_get0_pubkey(certs[0])) != 1) goto done;
    ok = EVP_DigestVerify(md, der, (size_t)der_length, parts->signing_input, parts->signing_input_length) == 1;
done:
    if (!ok) ERR_clear_error();
    EVP_MD_CTX_free(md);
    X509_STORE_CTX_free(store_context);
    sk_X509_free(untrusted);
    for (int i = 0; i < JWS_MAX_CERTS; i++) X509_free(certs[i]);
    return ok;
}

long bl_jws_openssl_verifier_run(bl_jws_openssl_verifier *context, const uint8_t *token, size_t length, long iterations) {
    jws_parts *parts = malloc(sizeof *parts);
    if (parts == NULL) return 0;
    long good = 0;
    for (long i = 0; i < iterations; i++) good += openssl_verify_one(context, token, length, parts);
    free(parts);
    return good;
}

/* ------------------------------------------------------------------------------------------ */
/* GnuTLS                                                                                      */

/* DER ECDSA-Sig-Value of a raw r‖s, allocated by GnuTLS (free with gnutls_free). */
static int gnutls_der_signature(const uint8_t raw[64], gnutls_datum_t *out) {
    gnutls_datum_t r = {(unsigned char *)raw, 32};
    gnutls_datum_t s = {(unsigned char *)raw + 32, 32};
    return gnutls_encode_rs_value(out, &r, &s) == 0;
}

struct bl_jws_gnutls_signature {
    gnutls_pubkey_t key;
    gnutls_datum_t input;
    gnutls_datum_t der;
};

bl_jws_gnutls_signature *bl_jws_gnutls_signature_new(const uint8_t *token, size_t length) {
    jws_parts *parts = malloc(sizeof *parts);
    bl_jws_gnutls_signature *context = calloc(1, sizeof *context);
    gnutls_x509_crt_t leaf = NULL;
    if (parts == NULL || context == NULL || !jws_read(token, length, parts)) goto fail;
    gnutls_datum_t datum = {parts->certs[0], (unsigned)parts->cert_lengths[0]};
    if (gnutls_x509_crt_init(&leaf) < 0) {
        leaf = NULL;
        goto fail;
    }
    if (gnutls_x509_crt_import(leaf, &datum, GNUTLS_X509_FMT_DER) < 0) goto fail;
    if (gnutls_pubkey_init(&context->key) < 0) {
        context->key = NULL;
        goto fail;
    }
    if (gnutls_pubkey_import_x509(context->key, leaf, 0) < 0) goto fail;
    if (!gnutls_der_signature(parts->signature, &context->der)) goto fail;
    context->input.data = malloc(parts->signing_input_length);
    if (context->input.data == NULL) goto fail;
    memcpy(context->input.data, parts->signing_input, parts->signing_input_length);
    context->input.size = (unsigned)parts->signing_input_length;
    gnutls_x509_crt_deinit(leaf);
    free(parts);
    return context;
fail:
    if (leaf != NULL) gnutls_x509_crt_deinit(leaf);
    free(parts);
    bl_jws_gnutls_signature_free(context);
    return NULL;
}

void bl_jws_gnutls_signature_free(bl_jws_gnutls_signature *context) {
    if (context == NULL) return;
    if (context->key != NULL) gnutls_pubkey_deinit(context->key);
    gnutls_free(context->der.data);
    free(context->input.data);
    free(context);
}

long bl_jws_gnutls_signature_run(bl_jws_gnutls_signature *context, long iterations) {
    long good = 0;
    for (long i = 0; i < iterations; i++) {
        if (gnutls_pubkey_verify_data2(context->key, GNUTLS_SIGN_ECDSA_SHA256, 0, &context->input, &context->der) >= 0) good++;
    }
    return good;
}

struct bl_jws_gnutls_verifier {
    gnutls_x509_trust_list_t list;
};

bl_jws_gnutls_verifier *bl_jws_gnutls_verifier_new(const uint8_t *anchor_der, size_t anchor_length) {
    gnutls_x509_trust_list_t list;
    if (bl_gnutls_anchor_trust_list(anchor_der, anchor_length, &list) != 0) return NULL;
    bl_jws_gnutls_verifier *context = calloc(1, sizeof *context);
    if (context == NULL) {
        gnutls_x509_trust_list_deinit(list, 1);
        return NULL;
    }
    context->list = list;
    return context;
}

void bl_jws_gnutls_verifier_free(bl_jws_gnutls_verifier *context) {
    if (context == NULL) return;
    gnutls_x509_trust_list_deinit(context->list, 1);
    free(context);
}

static int gnutls_has_extension(gnutls_x509_crt_t cert, const char *oid) {
    char found[128];
    for (unsigned i = 0;; i++) {
        size_t size = sizeof found;
        int result = gnutls_x509_crt_get_extension_oid(cert, i, found, &size);
        if (result < 0) return 0;
        if (strcmp(found, oid) == 0) return 1;
    }
}

static int gnutls_verify_one(bl_jws_gnutls_verifier *context, const uint8_t *token, size_t length, jws_parts *parts) {
    if (!jws_read(token, length, parts)) return 0;
    gnutls_x509_crt_t certs[JWS_MAX_CERTS] = {NULL, NULL, NULL};
    gnutls_pubkey_t key = NULL;
    gnutls_datum_t der = {NULL, 0};
    int ok = 0;
    for (int i = 0; i < JWS_MAX_CERTS; i++) {
        if (gnutls_x509_crt_init(&certs[i]) < 0) {
            certs[i] = NULL;
            goto done;
        }
        gnutls_datum_t datum = {parts->certs[i], (unsigned)parts->cert_lengths[i]};
        if (gnutls_x509_crt_import(certs[i], &datum, GNUTLS_X509_FMT_DER) < 0) goto done;
    }
    unsigned status = 0;
    if (gnutls_x509_trust_list_verify_crt2(context->list, certs, JWS_MAX_CERTS, NULL, 0,
                                           GNUTLS_VERIFY_DISABLE_TIME_CHECKS | GNUTLS_VERIFY_DISABLE_TRUSTED_TIME_CHECKS,
                                           &status, NULL) < 0 || status != 0) goto done;
    time_t at = (time_t)(parts->signed_date_ms / 1000);
    for (int i = 0; i < JWS_MAX_CERTS; i++) {
        if (gnutls_x509_crt_get_activation_time(certs[i]) > at || gnutls_x509_crt_get_expiration_time(certs[i]) < at) goto done;
    }
    if (!gnutls_has_extension(certs[0], "1.2.840.113635.100.6.11.1")
        || !gnutls_has_extension(certs[1], "1.2.840.113635.100.6.2.1")) goto done;
    if (gnutls_pubkey_init(&key) < 0) {
        key = NULL;
        goto done;
    }
    if (gnutls_pubkey_import_x509(key, certs[0], 0) < 0) goto done;
    if (!gnutls_der_signature(parts->signature, &der)) goto done;
    gnutls_datum_t input = {(unsigned char *)parts->signing_input, (unsigned)parts->signing_input_length};
    ok = gnutls_pubkey_verify_data2(key, GNUTLS_SIGN_ECDSA_SHA256, 0, &input, &der) >= 0;
done:
    gnutls_free(der.data);
    if (key != NULL) gnutls_pubkey_deinit(key);
    for (int i = 0; i < JWS_MAX_CERTS; i++) {
        if (certs[i] != NULL) gnutls_x509_crt_deinit(certs[i]);
    }
    return ok;
}

long bl_jws_gnutls_verifier_run(bl_jws_gnutls_verifier *context, const uint8_t *token, size_t length, long iterations) {
    jws_parts *parts = malloc(sizeof *parts);
    if (parts == NULL) return 0;
    long good = 0;
    for (long i = 0; i < iterations; i++) good += gnutls_verify_one(context, token, length, parts);
    free(parts);
    return good;
}
