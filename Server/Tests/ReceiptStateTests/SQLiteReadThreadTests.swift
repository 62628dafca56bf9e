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
            // Read on this thread, the same rows.
            #expect(try #require(store.digestsHere(forOriginalTransactionIDs: ["1000", "none"])).get() == read)
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

    /// A read on the calling thread cannot be left behind: a statement still running at its time
    /// is interrupted, and answered as a read on the read thread that does not end in time.
    @Test func aReadHereIsInterruptedAtItsDeadline() async throws {
        guard case .sqlite(let path) = try freshLocation(.sqlite) else { return }
        let store = try await SQLiteTokenStore.open(path: path, logger: testLogger)
        defer { Task { await store.close() } }
        let reads = try #require(await SQLiteReadThread.open(path: path, busyTimeoutMilliseconds: 100))
        let started = ContinuousClock.now
        // A statement with no end: counting without a bound.
        let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        // On a thread of its own, as on a validation thread (the deadline's watch is a task).
        let read = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, TokenStoreError>?, Never>) in
            DispatchQueue.global().async {
                continuation.resume(returning: reads.readHere(0.05, "waiting") { connection throws(TokenStoreError) in
                    try connection.rows(sql: endless) { _ in }
                })
            }
        }
        let result = try #require(read)
        #expect(throws: TokenStoreError(.timeout, "waiting: the database did not answer within 0.05 s")) { try result.get() }
        #expect(ContinuousClock.now - started < .seconds(5))
        // The same answer as a read on the read thread that does not end in time.
        let gate = DispatchSemaphore(value: 0)
        await #expect(throws: TokenStoreError(.timeout, "waiting: the database did not answer within 0.05 s")) {
            try await reads.run(0.05, "waiting") { _ in gate.wait() }
        }
        gate.signal()
        // The interrupt reached that read only: the next one, here, runs to its end.
        let rows = try #require(reads.readHere(5, "reading") { connection throws(TokenStoreError) in
            var rows = 0
            try connection.rows(sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) SELECT count(*) FROM c") { _ in rows += 1 }
            return rows
        })
        #expect(try rows.get() == 1)
        await reads.close()
    }

    /// One thread at a time: a read here has a connection of its own, never one in use (on the
    /// read thread, or by a read here not yet ended), and waits for neither; after the close,
    /// none is handed out.
    @Test func aReadHereNeverSharesAConnection() async throws {
        guard case .sqlite(let path) = try freshLocation(.sqlite) else { return }
        let store = try await SQLiteTokenStore.open(path: path, logger: testLogger)
        defer { Task { await store.close() } }
        let reads = try #require(await SQLiteReadThread.open(path: path, busyTimeoutMilliseconds: 100))
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let held = Task { try await reads.run(10, "holding") { connection in entered.signal(); gate.wait(); return ObjectIdentifier(connection) } }
        entered.wait()
        let started = ContinuousClock.now
        let (outer, inner) = try #require(reads.readHere(5, "reading") { outer throws(TokenStoreError) in
            var rows = 0
            try outer.rows(.ping, []) { _ in rows += 1 }
            // A second read here while the first holds its connection: another connection.
            let inner = try reads.readHere(5, "reading") { inner throws(TokenStoreError) in
                try inner.rows(.ping, []) { _ in rows += 1 }
                return ObjectIdentifier(inner)
            }?.get()
            #expect(rows == 2)
            return (ObjectIdentifier(outer), inner)
        }).get()
        #expect(ContinuousClock.now - started < .seconds(1), "no read here waited for the read thread")
        gate.signal()
        let threads = try await held.value
        #expect(inner != nil)
        #expect(Set([threads, outer, inner].compactMap { $0 }).count == 3)
        // Given back, the connection is taken again.
        #expect(try #require(reads.readHere(5, "reading") { ObjectIdentifier($0) }).get() == outer)
        await reads.close()
        #expect(reads.readHere(5, "after close") { _ in 3 } == nil)
    }

    @Test func anInMemoryDatabaseKeepsItsReadsOnItsOneConnection() async throws {
        #expect(await SQLiteReadThread.open(path: ":memory:", busyTimeoutMilliseconds: 100) == nil)
        let store = try await StoreLocation.sqlite(path: ":memory:").open(logger: testLogger)
        defer { Task { await store.close() } }
        let token = UnsignedTokens.stored(
            .transaction, UnsignedTokens.transaction(id: "4000", purchase: Self.signed, expires: Self.signed + 1000, signed: Self.signed))
        #expect(try await store.store([token]) == [.stored])
        #expect(try await store.digests(forOriginalTransactionIDs: ["1000"]) == [TokenDigestEntry(digest: token.digest, originalTransactionID: "1000")])
        #expect(store.digestsHere(forOriginalTransactionIDs: ["1000"]) == nil, "no read connection: the reads stay asynchronous")
        try await store.ping()
    }
}
