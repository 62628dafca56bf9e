#ifndef BL_ANCHOR_TRUST_LIST_H
#define BL_ANCHOR_TRUST_LIST_H

#include <stddef.h>
#include <stdint.h>

#include <gnutls/x509.h>

/* A GnuTLS trust list holding one anchor (DER), shared by the receipt and JWS baselines. Returns 0
 * and sets *list (the caller deinits it with gnutls_x509_trust_list_deinit(list, 1)), or -1. */
int bl_gnutls_anchor_trust_list(const uint8_t *anchor_der, size_t anchor_length, gnutls_x509_trust_list_t *list);

#endif
