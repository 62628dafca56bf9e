#include "AnchorTrustList.h"
#include "CBaseline.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include <gnutls/gnutls.h>
#include <gnutls/pkcs7.h>
#include <gnutls/x509.h>

/* ------------------------------------------------------------------------------------------ */
/* OpenSSL                                                                                     */

struct bl_openssl {
    X509_STORE *store;
};

bl_openssl *bl_openssl_new(const uint8_t *anchor_der, size_t anchor_length, int64_t unix_time) {
    const unsigned char *cursor = anchor_der;
    X509 *anchor = d2i_X509(NULL, &cursor, (long)anchor_length);
    if (anchor == NULL) return NULL;
    X509_STORE *store = X509_STORE_new();
    if (store == NULL || X509_STORE_add_cert(store, anchor) != 1) {
        X509_free(anchor);
        X509_STORE_free(store);
        return NULL;
    }
    X509_free(anchor);
    /* The store's parameters are copied into every PKCS7_verify context: time and purpose "any". */
    X509_VERIFY_PARAM *param = X509_STORE_get0_param(store);
    X509_VERIFY_PARAM_set_time(param, (time_t)unix_time);
    X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_ANY);
    bl_openssl *context = calloc(1, sizeof *context);
    if (context == NULL) {
        X509_STORE_free(store);
        return NULL;
    }
    context->store = store;
    return context;
}

void bl_openssl_free(bl_openssl *context) {
    if (context == NULL) return;
    X509_STORE_free(context->store);
    free(context);
}

long bl_openssl_run(bl_openssl *context, const uint8_t *der, size_t length, long iterations) {
    long good = 0;
    for (long i = 0; i < iterations; i++) {
        const unsigned char *cursor = der;
        PKCS7 *p7 = d2i_PKCS7(NULL, &cursor, (long)length);
        if (p7 == NULL) {
            ERR_clear_error();
            continue;
        }
        BIO *out = BIO_new(BIO_s_mem());
        if (out != NULL && PKCS7_verify(p7, NULL, context->store, NULL, out, PKCS7_BINARY) == 1) {
            char *data = NULL;
            long size = BIO_get_mem_data(out, &data);
            if (size > 0 && data != NULL) good++;
        } else {
            ERR_clear_error();
        }
        BIO_free(out);
        PKCS7_free(p7);
    }
    return good;
}

/* ------------------------------------------------------------------------------------------ */
/* GnuTLS                                                                                      */

int bl_gnutls_anchor_trust_list(const uint8_t *anchor_der, size_t anchor_length, gnutls_x509_trust_list_t *out) {
    gnutls_x509_crt_t anchor;
    if (gnutls_x509_crt_init(&anchor) < 0) return -1;
    gnutls_datum_t datum = {(unsigned char *)anchor_der, (unsigned)anchor_length};
    if (gnutls_x509_crt_import(anchor, &datum, GNUTLS_X509_FMT_DER) < 0) {
        gnutls_x509_crt_deinit(anchor);
        return -1;
    }
    gnutls_x509_trust_list_t list;
    if (gnutls_x509_trust_list_init(&list, 0) < 0) {
        gnutls_x509_crt_deinit(anchor);
        return -1;
    }
    /* On success the list owns the anchor. */
    if (gnutls_x509_trust_list_add_cas(list, &anchor, 1, 0) != 1) {
        gnutls_x509_crt_deinit(anchor);
        gnutls_x509_trust_list_deinit(list, 1);
        return -1;
    }
    *out = list;
    return 0;
}

struct bl_gnutls {
    gnutls_x509_trust_list_t list;
    unsigned flags;
};

bl_gnutls *bl_gnutls_new(const uint8_t *anchor_der, size_t anchor_length, int allow_sha1) {
    gnutls_x509_trust_list_t list;
    if (bl_gnutls_anchor_trust_list(anchor_der, anchor_length, &list) != 0) return NULL;
    bl_gnutls *context = calloc(1, sizeof *context);
    if (context == NULL) {
        gnutls_x509_trust_list_deinit(list, 1);
        return NULL;
    }
    context->list = list;
    context->flags = allow_sha1 ? GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1 : 0;
    return context;
}

void bl_gnutls_free(bl_gnutls *context) {
    if (context == NULL) return;
    gnutls_x509_trust_list_deinit(context->list, 1);
    free(context);
}

long bl_gnutls_run(bl_gnutls *context, const uint8_t *der, size_t length, long iterations) {
    long good = 0;
    gnutls_datum_t input = {(unsigned char *)der, (unsigned)length};
    for (long i = 0; i < iterations; i++) {
        gnutls_pkcs7_t p7;
        if (gnutls_pkcs7_init(&p7) < 0) continue;
        if (gnutls_pkcs7_import(p7, &input, GNUTLS_X509_FMT_DER) >= 0 &&
            gnutls_pkcs7_verify(p7, context->list, NULL, 0, 0, NULL, context->flags) >= 0) {
            gnutls_datum_t content = {NULL, 0};
            if (gnutls_pkcs7_get_embedded_data(p7, 0, &content) >= 0) {
                if (content.size > 0) good++;
                gnutls_free(content.data);
            }
        }
        gnutls_pkcs7_deinit(p7);
    }
    return good;
}

/* ------------------------------------------------------------------------------------------ */
/* Bare DER walk                                                                               */

/* Reads one DER header at *pos (< end); returns 0 and sets tag, content start and end. */
static int read_tlv(const uint8_t *p, size_t *pos, size_t end, uint8_t *tag, size_t *start, size_t *stop) {
    size_t i = *pos;
    if (end - i < 2) return -1;
    *tag = p[i++];
    uint8_t first = p[i++];
    size_t length = 0;
    if (first < 0x80) {
        length = first;
    } else {
        unsigned count = first & 0x7F;
        if (count == 0 || count > 4 || end - i < count) return -1;
        for (unsigned k = 0; k < count; k++) length = (length << 8) | p[i++];
    }
    if (length > end - i) return -1;
    *start = i;
    *stop = i + length;
    *pos = i + length;
    return 0;
}

/* One SET of SEQUENCE { INTEGER type, INTEGER version, OCTET STRING value }; returns the count. */
static long walk_set(const uint8_t *p, size_t begin, size_t end, int descend, long *checksum) {
    size_t pos = begin;
    uint8_t tag;
    size_t start, stop;
    if (read_tlv(p, &pos, end, &tag, &start, &stop) != 0 || tag != 0x31 || pos != end) return -1;
    long count = 0;
    size_t cursor = start;
    while (cursor < stop) {
        size_t s, e, ts, te, vs, ve, os, oe;
        uint8_t t;
        if (read_tlv(p, &cursor, stop, &t, &s, &e) != 0 || t != 0x30) return -1;
        size_t inner = s;
        if (read_tlv(p, &inner, e, &t, &ts, &te) != 0 || t != 0x02) return -1;
        if (read_tlv(p, &inner, e, &t, &vs, &ve) != 0 || t != 0x02) return -1;
        if (read_tlv(p, &inner, e, &t, &os, &oe) != 0 || t != 0x04 || inner != e) return -1;
        long type = 0;
        for (size_t k = ts; k < te && k < ts + 4; k++) type = (type << 8) | p[k];
        *checksum += type + (long)(oe - os);
        count++;
        if (descend && type == 17) {
            long nested = walk_set(p, os, oe, 0, checksum);
            if (nested < 0) return -1;
            count += nested;
        }
    }
    return count;
}

long bl_der_walk(const uint8_t *payload, size_t length) {
    long checksum = 0;
    long count = walk_set(payload, 0, length, 1, &checksum);
    return count < 0 ? -1 : count + (checksum & 0);
}

long bl_der_walk_run(const uint8_t *payload, size_t length, long iterations) {
    long result = 0;
    for (long i = 0; i < iterations; i++) {
        result = bl_der_walk(payload, length);
    }
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* Memory                                                                                      */

static long status_field_kib(const char *name) {
    FILE *file = fopen("/proc/self/status", "r");
    if (file == NULL) return -1;
    char line[256];
    long value = -1;
    size_t name_length = strlen(name);
    while (fgets(line, sizeof line, file) != NULL) {
        if (strncmp(line, name, name_length) == 0 && line[name_length] == ':') {
            value = strtol(line + name_length + 1, NULL, 10);
            break;
        }
    }
    fclose(file);
    return value;
}

long bl_peak_rss_kib(void) { return status_field_kib("VmHWM"); }

long bl_current_rss_kib(void) { return status_field_kib("VmRSS"); }

int bl_reset_peak_rss(void) {
    FILE *file = fopen("/proc/self/clear_refs", "w");
    if (file == NULL) return -1;
    int ok = fputs("5", file) >= 0;
    return (fclose(file) == 0 && ok) ? 0 : -1;
}

/* ------------------------------------------------------------------------------------------ */
/* The allocator                                                                               */

int bl_fix_malloc_thresholds(void) {
    int mmap = mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    int trim = mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
    return mmap == 1 && trim == 1;
}
