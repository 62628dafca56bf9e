#ifndef C_RECEIPT_GNUTLS_SHIM_H
#define C_RECEIPT_GNUTLS_SHIM_H

#include <gnutls/gnutls.h>
#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/pkcs7.h>
#include <gnutls/x509.h>

#endif
