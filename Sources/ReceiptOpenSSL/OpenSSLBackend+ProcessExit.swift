#if OpenSSL
internal import CReceiptOpenSSL

extension OpenSSLBackend {
    /// Asks OpenSSL not to free its global state in an exit handler (`OPENSSL_INIT_NO_ATEXIT`),
    /// for a program that owns its process and ends it when its work is done: the `receipt`
    /// tool. The operating system takes the memory back at exit either way; OpenSSL's handler
    /// (`OPENSSL_cleanup`, 0.88 million instructions after one receipt, `callgrind`) only makes
    /// every process of a batch end later.
    ///
    /// It takes effect only as the process's first OpenSSL initialisation, so call it before
    /// anything else uses OpenSSL; later it does nothing. It is a process-wide choice, which is
    /// why ReceiptKit itself never makes it: a server or app that embeds the library keeps
    /// OpenSSL's own behaviour. Returns whether OpenSSL accepted the call.
    @discardableResult
    package static func skipCleanupAtExit() -> Bool {
        OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1
    }
}
#endif
