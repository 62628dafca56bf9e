import ArgumentParser
import ReceiptKit

/// Resolves a `--backend` name to one of the backends compiled into this build.
enum BackendOption {
    /// The names of the compiled-in backends, the default first.
    static var availableNames: [String] { CryptoBackends.all.map(\.name) }

    /// Help text for `--backend` listing what this build offers.
    static var help: ArgumentHelp {
        ArgumentHelp(
            "The crypto backend: \(availableNames.joined(separator: " or ")) (default: \(availableNames.first ?? "none")).",
            valueName: "name"
        )
    }

    /// Every backend ReceiptKit ships, by name, with the package trait that compiles it in.
    static let knownTraits = ["openssl": "OpenSSL", "gnutls": "GnuTLS"]

    /// The backend named `name`, or the build's default when `name` is nil, with the tool's own
    /// process-wide choice for it made (``prepareProcess(for:)``).
    /// - Throws: `ValidationError` (usage, exit 2) for a name this build does not offer.
    static func resolve(_ name: String?) throws -> any CryptoBackend {
        let backend = try lookUp(name)
        prepareProcess(for: backend)
        return backend
    }

    /// The backend named `name`, or the build's default when `name` is nil.
    private static func lookUp(_ name: String?) throws -> any CryptoBackend {
        guard let name else {
            guard let backend = CryptoBackends.all.first else {
                throw ValidationError("this build has no crypto backend")
            }
            return backend
        }
        guard let backend = CryptoBackends.named(name) else {
            let offered = availableNames.joined(separator: ", ")
            if let trait = knownTraits[name.lowercased()] {
                throw ValidationError(
                    "backend '\(name)' is not compiled into this build (it offers: \(offered)); "
                        + "build with the \(trait) trait, e.g. both backends: swift build --traits OpenSSL,GnuTLS"
                )
            }
            throw ValidationError("unknown backend '\(name)'; this build offers: \(offered)")
        }
        return backend
    }

    /// The tool owns its process and ends it when its work is done, so OpenSSL is told, before
    /// its first use, not to free its global state in an exit handler (about 0.3 ms at the end
    /// of every run; ``OpenSSLBackend/skipCleanupAtExit()``). The library never does this.
    private static func prepareProcess(for backend: any CryptoBackend) {
        #if OpenSSL
        if backend is OpenSSLBackend { OpenSSLBackend.skipCleanupAtExit() }
        #endif
    }
}
