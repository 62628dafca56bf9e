#ifndef C_RECEIPT_OPENSSL_SHIM_H
#define C_RECEIPT_OPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#endif
