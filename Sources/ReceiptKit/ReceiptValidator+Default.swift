#if OpenSSL || GnuTLS
extension ReceiptValidator {
    /// Creates a validator on the backend chosen at build time (``DefaultCryptoBackend``).
    ///
    /// ```swift
    /// import ReceiptKit
    /// let validator = try ReceiptValidator(configuration: .init(expectedBundleID: "com.example.app"))
    /// ```
    public init(configuration: Configuration = Configuration()) throws(ReceiptValidationError) {
        try self.init(backend: DefaultCryptoBackend(), configuration: configuration)
    }
}
#endif
