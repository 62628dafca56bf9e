import Foundation
import NIOCore
import ReceiptKit
@testable import ReceiptServer
import ReceiptState
import StateTestSupport
import Testing

/// The stored state read and merged on the validation thread (the embedded store's read
/// connection) gives the answer the asynchronous read gives, byte for byte (`request_date`
/// aside), over every real and generated receipt: with nothing stored, with stored transactions,
/// a revocation and a renewal info for the receipt's first subscription, with
/// `exclude-old-transactions` and without.
@Suite(.timeLimit(.minutes(5)))
struct StateReadHereTests {
    /// A fixture group: the receipts, and the roots that make them valid.
    struct Group {
        var receipts: [String]
        var rootPaths: [String]
    }

    static func groups() throws -> [Group] {
        let generated = try FileManager.default.contentsOfDirectory(atPath: ServerFixtures.directory.appendingPathComponent("generated/receipts").path)
            .filter { $0.hasSuffix(".receipt") }.sorted().map { "generated/receipts/\($0)" }
        return [
            Group(receipts: try ServerFixtures.realReceiptNames().map { "real/receipts/\($0).receipt" }, rootPaths: []),
            Group(receipts: generated, rootPaths: [ServerFixtures.directory.appendingPathComponent("generated/pki/root.pem").path]),
        ]
    }

    @Test func theAnswerWrittenOnTheValidationThreadIsTheAwaitedOne() async throws {
        var compared = 0
        var writtenHere = 0
        for group in try Self.groups() {
            var options = ServerOptions()
            options.acceptsXcodeReceipts = true
            options.rootPaths = group.rootPaths
            let store = try await freshLocation(.sqlite).open(logger: testLogger)
            var service = try VerifyReceiptService(options: options)
            service.state = StateService(store: store, service: service)
            for (index, name) in group.receipts.enumerated() {
                let base64 = Data(try ServerFixtures.bytes(name)).base64EncodedString()
                let bodies = [try ServerFixtures.body(base64), try ServerFixtures.body(base64, excludeOld: true)]
                // Nothing stored.
                for body in bodies { writtenHere += try await Self.compare(service, body, name) }
                compared += bodies.count
                let probe = try #require(await service.answer(toBody: bodies[0]))
                guard let id = StatefulVerifyReceiptResponse.originalTransactionIDs(of: probe.response).first else { continue }
                let held = probe.response.latestReceiptInfo?.last { $0.originalTransactionID == id }?.transactionID
                let stored = Self.state(for: id, revoking: held, serial: index)
                // (Receipts sharing a subscription share some of these tokens: stored once.)
                _ = try await store.store(stored)
                // Stored, then read again: the first read fetches the tokens (awaited), the next
                // ones find them cached and are written on the validation thread.
                for _ in 0..<2 {
                    for body in bodies { writtenHere += try await Self.compare(service, body, name) }
                    compared += bodies.count
                }
            }
            await store.close()
        }
        print("compared \(compared) answers, \(writtenHere) of them written on the validation thread")
        #expect(compared >= 2 * 37)
        #expect(writtenHere >= 50, "the answers written on the validation thread are among the ones compared")
    }

    /// `body` answered both ways: the same status and bytes (`request_date` aside); 1 when the
    /// direct path wrote its answer on the validation thread, else 0.
    static func compare(_ service: VerifyReceiptService, _ body: ByteBuffer, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
        let here = try #require(await service.answer(toBody: body, readsStateHere: true), sourceLocation: sourceLocation)
        let awaited = try #require(await service.answer(toBody: body, readsStateHere: false), sourceLocation: sourceLocation)
        #expect(here.answer.status == awaited.answer.status, "\(name)", sourceLocation: sourceLocation)
        let hereText = Self.withoutRequestDate(here.answer.body)
        let awaitedText = Self.withoutRequestDate(awaited.answer.body)
        #expect(hereText == awaitedText, "\(name)", sourceLocation: sourceLocation)
        #expect(hereText.count > 100, "\(name)", sourceLocation: sourceLocation)
        // With ids to read, the awaited path never writes on the validation thread.
        let hasIDs = !StatefulVerifyReceiptResponse.originalTransactionIDs(of: awaited.response).isEmpty
        #expect(!(hasIDs && awaited.isWrittenOnValidationThread), "\(name)", sourceLocation: sourceLocation)
        return hasIDs && here.isWrittenOnValidationThread ? 1 : 0
    }

    /// The answer's text with the values of `request_date`, `request_date_ms` and
    /// `request_date_pst` (the time of the request) emptied.
    static func withoutRequestDate(_ body: ByteBuffer) -> String {
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        return text.replacingOccurrences(of: #""request_date(_ms|_pst)?":"[^"]*""#, with: #""request_date$1":"""#, options: .regularExpression)
    }

    /// For subscription `id`: two later renewals, a revocation of the receipt's transaction `held`
    /// (when there is one) and a renewal info.
    static func state(for id: String, revoking held: String?, serial: Int) -> [StoredToken] {
        let month: Int64 = 30 * 86_400_000
        let start: Int64 = 1_760_000_000_000
        var tokens = (1...2).map { period in
            UnsignedTokens.stored(
                .transaction,
                UnsignedTokens.transaction(
                    id: "77\(serial)00\(period)", original: id, purchase: start + Int64(period) * month, expires: start + Int64(period + 1) * month,
                    signed: start + Int64(period) * month))
        }
        if let held {
            tokens.append(
                UnsignedTokens.stored(
                    .transaction,
                    UnsignedTokens.transaction(id: held, original: id, purchase: start, expires: start + month, signed: start + 3 * month, revocation: start + 3 * month)))
        }
        tokens.append(UnsignedTokens.stored(.renewalInfo, UnsignedTokens.renewal(original: id, autoRenew: 1, signed: start + 3 * month)))
        return tokens
    }
}
