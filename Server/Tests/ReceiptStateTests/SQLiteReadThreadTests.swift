import Foundation
@testable import ReceiptState
import StateTestSupport
import Testing

/// The SQLite store's second, read-only connection on a thread of its own: it sees what the
/// writing connection committed, a read that does not end is still answered at
/// its deadline, and an in-memory database (which a second connection does not share) keeps its
/// reads on the one connection.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteReadThreadTests {
    static let signed: Int64 = 1_800_000_000_000

    @Test func readsSeeEveryCommittedWriteAtOnce() async throws {
        let store = try await freshLocation(.sqlite).open(logger: testLogger)
        defer { Task { await store.close() } }
        try await store.ping()
        for index in 0..<20 {
            let token = UnsignedTokens.stored(
                .transaction, UnsignedTokens.transaction(id: "\(3000 + index)", purchase: Self.signed, expires: Self.signed + 1000, signed: Self.signed))
            #expect(try await store.store([token]) == [.stored])
            // Written on SQLiteNIO's connection, read on the other one right after the commit.
            let read = try await store.digests(forOriginalTransactionIDs: ["1000", "none"])
            #expect(read.count == index + 1)
            #expect(read.last == TokenDigestEntry(digest: token.digest, originalTransactionID: "1000"))
        }
        // Two ids, three, ...: a statement per count, each prepared once.
        let ids = (0..<7).map { "id-\($0)" } + ["1000"]
        for count in 1...ids.count {
            #expect(try await store.digests(forOriginalTransactionIDs: Array(ids.suffix(count))).count == 20)
        }
    }

    @Test func aReadThatDoesNotEndIsAnsweredAtItsDeadline() async throws {
        guard case .sqlite(let path) = try freshLocation(.sqlite) else { return }
        let store = try await SQLiteTokenStore.open(path: path, logger: testLogger)
        defer { Task { await store.close() } }
        let reads = try #require(await SQLiteReadThread.open(path: path, busyTimeoutMilliseconds: 100))
        let gate = DispatchSemaphore(value: 0)
        let started = ContinuousClock.now
        do {
            let value = try await reads.run(0.05, "waiting") { _ in
                gate.wait()
                return 1
            }
            Issue.record("the deadline answered \(value), not a timeout")
        } catch {
            #expect(error.code == .timeout)
            #expect(error.message == "waiting: the database did not answer within 0.05 s")
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        gate.signal()
        // The thread is free again once the stuck read has ended.
        #expect(try await reads.run(5, "reading") { connection throws(TokenStoreError) in
            var rows = 0
            try connection.rows(.ping, []) { _ in rows += 1 }
            return rows
        } == 1)
        await reads.close()
        await #expect(throws: TokenStoreError.self) { try await reads.run(5, "after close") { _ in 1 } }
    }

    @Test func anInMemoryDatabaseKeepsItsReadsOnItsOneConnection() async throws {
        #expect(await SQLiteReadThread.open(path: ":memory:", busyTimeoutMilliseconds: 100) == nil)
        let store = try await StoreLocation.sqlite(path: ":memory:").open(logger: testLogger)
        defer { Task { await store.close() } }
        let token = UnsignedTokens.stored(
            .transaction, UnsignedTokens.transaction(id: "4000", purchase: Self.signed, expires: Self.signed + 1000, signed: Self.signed))
        #expect(try await store.store([token]) == [.stored])
        #expect(try await store.digests(forOriginalTransactionIDs: ["1000"]) == [TokenDigestEntry(digest: token.digest, originalTransactionID: "1000")])
        try await store.ping()
    }
}
