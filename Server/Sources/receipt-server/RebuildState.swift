import ArgumentParser
import Foundation
import Logging
import ReceiptKit
import ReceiptServer
import ReceiptState

/// `receipt-server --rebuild-state`: every subscription's state derived again from every stored
/// token, each token's signature checked again first (with the server's anchors), one JSON object
/// per line on standard output, a summary on standard error.
///
/// The state is never stored: the server derives it from the tokens on every read, so this changes
/// nothing in the database. Exit status 1 when a token no longer verifies or cannot be read.
enum RebuildState {
    static func run(settings: ServerSettings, at: String?) async throws {
        var logger = Logger(label: "receipt-server")
        logger.logLevel = .warning
        let endpoint: AppleVerifyReceiptEndpoint
        do {
            endpoint = try settings.options.makeEndpoint()
        } catch {
            throw ValidationError("\(error)")
        }
        var time = Date()
        if let at {
            guard let date = SubscriptionState.date(rfc3339: at) else { throw ValidationError("--at takes an RFC 3339 date, not '\(at)'") }
            time = date
        }
        let store = try await StateStoreOpening.open(settings.options.database, logger: logger)
        let validator = endpoint.validator
        let rebuild = StateRebuild(store: store)
        let summary: StateRebuild.Summary
        do {
            summary = try await rebuild.run(at: time, verify: { token in
                do throws(ReceiptValidationError) {
                    _ = try validator.verifyJWS(token.token)
                    return nil
                } catch {
                    FileHandle.standardError.write(Data("rebuild-state: a stored \(token.kind.rawValue) no longer verifies: \(error.code.rawValue): \(error.message)\n".utf8))
                    return error.code.rawValue
                }
            }) { state in
                FileHandle.standardOutput.write(Data(state.jsonBytes() + [UInt8(ascii: "\n")]))
            }
        } catch {
            await store.close()
            FileHandle.standardError.write(Data("rebuild-state: \(error)\n".utf8))
            throw ExitCode(69)
        }
        await store.close()
        FileHandle.standardError.write(Data(
            "rebuild-state: \(summary.tokens) tokens, \(summary.unverified) no longer verify, \(summary.unreadable) unreadable, \(summary.subscriptions) subscriptions\n".utf8))
        if summary.unverified > 0 || summary.unreadable > 0 { throw ExitCode(1) }
    }
}
