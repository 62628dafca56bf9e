#ifndef RECEIPTKIT_C_BASELINE_H
#define RECEIPTKIT_C_BASELINE_H

#include <stddef.h>
#include <stdint.h>

#include "JWSBaseline.h"

/*
 * The C baseline of the ReceiptKit benchmarks: what a validator built directly on the libraries'
 * own PKCS #7 verification costs, measured in a tight loop with the trust store built once.
 *
 * Every `*_run` function performs `iterations` complete operations on `der` and returns the number
 * of operations that succeeded (so the caller can check the baseline did real work).
 */

/* ---- OpenSSL: d2i_PKCS7 + PKCS7_verify (chain to the store at a fixed time, purpose any) ---- */

typedef struct bl_openssl bl_openssl;

/* A context with an X509_STORE holding `anchor_der` and verification time `unix_time`. NULL on failure. */
bl_openssl *bl_openssl_new(const uint8_t *anchor_der, size_t anchor_length, int64_t unix_time);
void bl_openssl_free(bl_openssl *context);
/* One operation: parse the envelope, verify chain and signature, copy out the content. */
long bl_openssl_run(bl_openssl *context, const uint8_t *der, size_t length, long iterations);

/* ---- GnuTLS: gnutls_pkcs7_import + gnutls_pkcs7_verify (trust list built once, time = now) ---- */

typedef struct bl_gnutls bl_gnutls;

/* A context with a trust list holding `anchor_der`. `allow_sha1` adds GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1. */
bl_gnutls *bl_gnutls_new(const uint8_t *anchor_der, size_t anchor_length, int allow_sha1);
void bl_gnutls_free(bl_gnutls *context);
/* One operation: import the envelope, verify chain and signature, read out the content. */
long bl_gnutls_run(bl_gnutls *context, const uint8_t *der, size_t length, long iterations);

/* ---- A bare DER walk of a receipt payload (top-level SET of attributes, type 17 descended) ---- */

/* Returns the number of attributes visited (top level plus in-app), or -1 if malformed. */
long bl_der_walk(const uint8_t *payload, size_t length);
/* `iterations` walks; returns the attribute count of the last one. */
long bl_der_walk_run(const uint8_t *payload, size_t length, long iterations);

/* ---- The allocator, the same for every measurement ---- */

/*
 * Fixes glibc malloc's thresholds for this process: blocks up to 32 MiB come from the heap, and
 * the heap keeps up to 64 MiB of free memory at its top. By default glibc serves a block of
 * 128 KiB or more with a fresh mmap (page faults on every touch, then munmap) until a freed block
 * raises that threshold, so the C baseline's speed on a large receipt (OpenSSL and GnuTLS copy the
 * content) depended on what the Swift code measured before it had allocated and freed: 1.5 ms or
 * 3.6 ms per 5000-purchase verification in the same build. With the thresholds fixed every
 * measurement sees the allocator a long-running server settles into. Returns 1 when both were set.
 * Measurement runs only: the memory children are new processes and keep glibc's defaults.
 */
int bl_fix_malloc_thresholds(void);

/* ---- Peak resident memory of this process (VmHWM), in KiB; -1 if unknown ---- */
long bl_peak_rss_kib(void);
/* Resets the peak (writes "5" to /proc/self/clear_refs); returns 0 on success. */
int bl_reset_peak_rss(void);
/* Current resident memory (VmRSS) in KiB. */
long bl_current_rss_kib(void);

#endif
