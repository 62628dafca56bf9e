import ArgumentParser
import ReceiptKit

/// A value of `--backend`: a crypto backend by name (`openssl`, `gnutls`; any case).
///
/// The parser accepts the backends this build offers and, so that the check can say how to get
/// one, the backends ReceiptKit ships that this build was compiled without; ``resolve()`` turns
/// the second kind into a usage error naming the trait to build with.
struct BackendChoice: ExpressibleByArgument, Sendable {
    /// The name as given.
    let name: String
    /// The compiled-in backend, nil for a backend this build was compiled without.
    let backend: (any CryptoBackend)?

    init?(argument: String) {
        let backend = CryptoBackends.named(argument)
        guard backend != nil || Self.knownTraits[argument.lowercased()] != nil else { return nil }
        self.name = argument
        self.backend = backend
    }

    /// The names of the compiled-in backends, the default first (the parser lists them when a
    /// name is unknown, the help after the option).
    static var allValueStrings: [String] { CryptoBackends.all.map(\.name) }

    /// Every backend ReceiptKit ships, by name, with the package trait that compiles it in.
    static let knownTraits = ["openssl": "OpenSSL", "gnutls": "GnuTLS"]

    /// The default backend's name, for the help (`none` in a build without one).
    static var defaultName: String { allValueStrings.first ?? "none" }

    /// The chosen backend, with the tool's own process-wide choice for it made
    /// (``prepareProcess(for:)``).
    /// - Throws: `ValidationError` (usage, exit 2) for a backend this build was compiled without.
    func resolve() throws -> any CryptoBackend {
        guard let backend else {
            let offered = Self.allValueStrings.joined(separator: ", ")
            let trait = Self.knownTraits[name.lowercased()] ?? name
            throw ValidationError(
                "backend '\(name)' is not compiled into this build (it offers: \(offered)); "
                    + "build with the \(trait) trait, e.g. both backends: swift build --traits OpenSSL,GnuTLS"
            )
        }
        Self.prepareProcess(for: backend)
        return backend
    }

    /// `choice`'s backend, or the build's default when no `--backend` was given, prepared as
    /// ``resolve()`` prepares it.
    /// - Throws: `ValidationError` (usage, exit 2) as ``resolve()``, or when this build has none.
    static func resolve(_ choice: BackendChoice?) throws -> any CryptoBackend {
        if let choice { return try choice.resolve() }
        guard let backend = CryptoBackends.all.first else {
            throw ValidationError("this build has no crypto backend")
        }
        prepareProcess(for: backend)
        return backend
    }

    /// The tool owns its process and ends it when its work is done, so OpenSSL is told, before
    /// its first use, not to free its global state in an exit handler (about 0.3 ms at the end
    /// of every run; `OpenSSLProcessExit.skipCleanup()`). The library never does this.
    private static func prepareProcess(for backend: any CryptoBackend) {
        #if OpenSSL
        if backend is OpenSSLBackend { OpenSSLProcessExit.skipCleanup() }
        #endif
    }
}
