#if OpenSSL
internal import CReceiptOpenSSL

// One owner per OpenSSL handle type: each class takes a handle OpenSSL just created (or returned
// with a new reference) and frees it exactly once, in `deinit`. Nothing else in the adapter calls
// a `*_free` function on a handle it was given; borrowed handles (`sk_X509_value`,
// `X509_STORE_CTX_get0_param`, …) stay plain pointers whose owner outlives their use.

/// Owns one `X509 *`.
final class OpenSSLX509: @unchecked Sendable {
    // @unchecked: the handle is only read after init (encoding, key extraction) and freed in deinit.
    let handle: OpaquePointer
    init(taking handle: OpaquePointer) { self.handle = handle }
    deinit { X509_free(handle) }
}

/// Owns one `EVP_PKEY *` (a public key).
final class OpenSSLPublicKey: @unchecked Sendable {
    // @unchecked: only read after init; OpenSSL 3 keys are safe to share for verification.
    let handle: OpaquePointer
    init(taking handle: OpaquePointer) { self.handle = handle }
    deinit { EVP_PKEY_free(handle) }
}

/// Owns one fetched `EVP_MD *`.
final class OpenSSLMessageDigest: @unchecked Sendable {
    // @unchecked: a fetched algorithm is immutable and reference-counted by OpenSSL.
    let handle: OpaquePointer
    /// Fetches `name` (`SHA1`, `SHA256`, `SHA384`) from the default library context, or `nil`.
    init?(fetching name: String) {
        guard let handle = EVP_MD_fetch(nil, name, nil) else { return nil }
        self.handle = handle
    }
    deinit { EVP_MD_free(handle) }
}

/// Owns one `EVP_PKEY_CTX *`.
final class OpenSSLKeyContext: @unchecked Sendable {
    // @unchecked: a template context is only read (duplicated) after init.
    let handle: OpaquePointer
    init(taking handle: OpaquePointer) { self.handle = handle }
    deinit { EVP_PKEY_CTX_free(handle) }

    /// A copy of this context (`EVP_PKEY_CTX_dup`), or `nil`.
    func duplicate() -> OpenSSLKeyContext? {
        EVP_PKEY_CTX_dup(handle).map(OpenSSLKeyContext.init(taking:))
    }
}

/// Owns one `EVP_MD_CTX *`, for one digest on one thread.
final class OpenSSLDigestContext {
    let handle: OpaquePointer
    /// A new context, or `nil` when OpenSSL cannot allocate one.
    init?() {
        guard let handle = EVP_MD_CTX_new() else { return nil }
        self.handle = handle
    }
    deinit { EVP_MD_CTX_free(handle) }

    /// Initialises the context for `md`, hashes the concatenation of `parts` and returns the
    /// digest, or `nil` on any failure.
    func digest(_ md: OpaquePointer, of parts: [ArraySlice<UInt8>]) -> [UInt8]? {
        guard EVP_DigestInit_ex2(handle, md, nil) == 1 else { return nil }
        for part in parts where !part.isEmpty {
            guard part.withUnsafeBytes({ EVP_DigestUpdate(handle, $0.baseAddress, $0.count) }) == 1 else { return nil }
        }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard output.withUnsafeMutableBufferPointer({ EVP_DigestFinal_ex(handle, $0.baseAddress, &length) }) == 1 else {
            return nil
        }
        output.removeLast(output.count - Int(length))
        return output
    }
}

/// Owns one `X509_STORE_CTX *`.
final class OpenSSLStoreContext {
    let handle: OpaquePointer
    init?() {
        guard let handle = X509_STORE_CTX_new() else { return nil }
        self.handle = handle
    }
    deinit { X509_STORE_CTX_free(handle) }
}

/// Owns one `BIO *`.
final class OpenSSLBIO {
    let handle: OpaquePointer
    init(taking handle: OpaquePointer) { self.handle = handle }
    deinit { BIO_free(handle) }
}

/// Owns one `STACK_OF(X509) *`: with `ownsCertificates`, the certificates too (`sk_X509_pop_free`,
/// a `get1` stack), otherwise only the stack (`sk_X509_free`, a stack of borrowed certificates).
final class OpenSSLCertificateStack {
    let handle: OpaquePointer
    private let ownsCertificates: Bool
    init(taking handle: OpaquePointer, ownsCertificates: Bool) {
        self.handle = handle
        self.ownsCertificates = ownsCertificates
    }
    deinit {
        if ownsCertificates { sk_X509_pop_free(handle, X509_free) } else { sk_X509_free(handle) }
    }
}
#endif
