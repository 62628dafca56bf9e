#if OpenSSL
internal import CReceiptOpenSSL

/// The `receipt` tool's one process-wide OpenSSL choice, kept in the tool (not in the library) so
/// that a server or app that embeds ReceiptKit keeps OpenSSL's own behaviour.
enum OpenSSLProcessExit {
    /// Asks OpenSSL not to free its global state in an exit handler (`OPENSSL_INIT_NO_ATEXIT`),
    /// for a program that owns its process and ends it when its work is done. The operating
    /// system takes the memory back at exit either way; OpenSSL's handler (`OPENSSL_cleanup`,
    /// 0.88 million instructions after one receipt, `callgrind`) only makes every process of a
    /// batch end later.
    ///
    /// It takes effect only as the process's first OpenSSL initialisation, so it is called before
    /// anything else uses OpenSSL; later it does nothing. Returns whether OpenSSL accepted it.
    @discardableResult
    static func skipCleanup() -> Bool {
        OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1
    }
}
#endif
