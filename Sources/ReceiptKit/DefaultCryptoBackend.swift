@_exported import ReceiptCore
@_exported import ReceiptEntitlements
@_exported import ReceiptOutput

#if OpenSSL
@_exported import ReceiptOpenSSL
#endif
#if GnuTLS
@_exported import ReceiptGnuTLS
#endif

// The one place that chooses the default backend from the enabled traits.
#if OpenSSL
/// The backend chosen at build time: OpenSSL unless only the `GnuTLS` trait is enabled.
public typealias DefaultCryptoBackend = OpenSSLBackend
#elseif GnuTLS
/// The backend chosen at build time: GnuTLS (the `OpenSSL` trait is disabled).
public typealias DefaultCryptoBackend = GnuTLSBackend
#endif
// With neither trait (`traits: []`), ReceiptKit is the verifier without a C library and without a
// default backend: the dependent brings a ``CryptoBackend`` of its own (as `Backends/SwiftCrypto`
// does) and passes it to ``ReceiptValidator/init(backend:configuration:)``.

/// The crypto backends compiled into this build, the default first.
public enum CryptoBackends {
    /// One instance of every compiled-in backend, the default (``DefaultCryptoBackend``) first.
    public static var all: [any CryptoBackend] {
        var backends: [any CryptoBackend] = []
        #if OpenSSL
        backends.append(OpenSSLBackend())
        #endif
        #if GnuTLS
        backends.append(GnuTLSBackend())
        #endif
        return backends
    }

    /// The compiled-in backend with this ``CryptoBackend/name`` (`openssl`, `gnutls`), if any.
    public static func named(_ name: String) -> (any CryptoBackend)? {
        all.first { $0.name == name.lowercased() }
    }
}
