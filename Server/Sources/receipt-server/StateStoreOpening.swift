import ArgumentParser
import Logging
import ReceiptState

/// Opening the state store for a command: a failure is logged and ends the command with exit
/// status 69 (EX_UNAVAILABLE), naming the database and what went wrong.
enum StateStoreOpening {
    /// The store at `--database`'s location, its schema up to date.
    static func open(_ database: String, logger: Logger) async throws -> any TokenStore {
        do {
            let location = try StoreLocation(database)
            let store = try await location.open(maximumConnections: 32, logger: logger)
            logger.info("state store open", metadata: ["database": "\(location)"])
            return store
        } catch {
            logger.critical("the state store could not be opened: \(error.message)", metadata: ["code": "\(error.code.rawValue)"])
            throw ExitCode(69)
        }
    }
}
