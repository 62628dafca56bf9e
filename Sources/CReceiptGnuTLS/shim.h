#ifndef C_RECEIPT_GNUTLS_SHIM_H
#define C_RECEIPT_GNUTLS_SHIM_H

#include <gnutls/gnutls.h>
#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/pkcs7.h>
#include <gnutls/x509.h>

/* `gnutls_free` is a function-pointer variable hidden behind a function-like macro, which the
 * Swift importer cannot call. These wrappers are named after the original. Never include
 * <gnutls/openssl.h> (the libgnutls-openssl compat layer): it exports OpenSSL's symbol names. */

/* Frees memory GnuTLS allocated (datum contents, strings). NULL is accepted. */
static inline void receipt_gnutls_free(void *ptr) {
    gnutls_free(ptr);
}

/* Frees a datum's contents that GnuTLS allocated, and empties the datum. */
static inline void receipt_gnutls_free_datum(gnutls_datum_t *datum) {
    if (datum == NULL) {
        return;
    }
    if (datum->data != NULL) {
        gnutls_free(datum->data);
    }
    datum->data = NULL;
    datum->size = 0;
}

#endif
