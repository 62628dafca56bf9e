import Foundation
import Logging
import PostgresNIO
@testable import ReceiptState
import SQLiteNIO
import StateTestSupport
import Testing

/// The same tests on SQLite and PostgreSQL: what is stored comes back as stored, each token and
/// each notification UUID at most once (retries, concurrent writers, two stores on one
/// database), migrations once, values only ever bound.
@Suite(.sharedPostgres)
struct TokenStoreTests {
    static let signed: Int64 = 1_800_000_000_000

    func notification(_ uuid: String = UUID().uuidString, transaction: String = "2000") -> StoredToken {
        UnsignedTokens.stored(
            .notification,
            UnsignedTokens.notification(
                type: "DID_RENEW", uuid: uuid, signed: Self.signed,
                transaction: UnsignedTokens.transaction(id: transaction, purchase: Self.signed, expires: Self.signed + 1000, signed: Self.signed)))
    }

    @Test(arguments: TestDatabase.allCases)
    func storedTokensComeBackAsStored(database: TestDatabase) async throws {
        let store = try await freshLocation(database).open(logger: testLogger)
        defer { Task { await store.close() } }
        let renewal = UnsignedTokens.stored(.renewalInfo, UnsignedTokens.renewal(autoRenew: 1, signed: Self.signed))
        let first = notification()
        #expect(try await store.store([first, renewal]) == [.stored, .stored])
        let read = try await store.tokens(forOriginalTransactionIDs: ["1000", "nothing"])
        #expect(read == [first, renewal])
        #expect(try await store.count() == [.notification: 1, .renewalInfo: 1])
        #expect(try await store.tokens(forOriginalTransactionIDs: ["other"]).isEmpty)
    }

    @Test(arguments: TestDatabase.allCases)
    func aNotificationUUIDIsStoredOnce(database: TestDatabase) async throws {
        let store = try await freshLocation(database).open(logger: testLogger)
        defer { Task { await store.close() } }
        let first = notification("uuid-1", transaction: "2000")
        // Apple's retry: the same token again. Then a different token with the same UUID.
        let retry = first
        let sameUUID = notification("uuid-1", transaction: "2001")
        #expect(try await store.store([first]) == [.stored])
        #expect(try await store.store([retry]) == [.alreadyStored])
        #expect(try await store.store([sameUUID]) == [.alreadyStored])
        // Equal tokens within one call: the first is stored.
        let other = notification("uuid-2")
        #expect(try await store.store([other, other]) == [.stored, .alreadyStored])
        #expect(try await store.count() == [.notification: 2])
    }

    @Test(arguments: TestDatabase.allCases)
    func concurrentWritersOfOneNotificationMakeOneRecord(database: TestDatabase) async throws {
        let location = try freshLocation(database)
        // Two stores on one database: two replicas.
        let stores = [try await location.open(logger: testLogger), try await location.open(logger: testLogger)]
        defer { Task { for store in stores { await store.close() } } }
        for round in 0..<10 {
            let token = notification("race-\(round)")
            let outcomes = try await withThrowingTaskGroup(of: StoreOutcome.self) { group in
                for writer in 0..<16 {
                    group.addTask { try await stores[writer % 2].store([token])[0] }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .stored }.count == 1, "round \(round): \(outcomes)")
        }
        #expect(try await stores[0].count() == [.notification: 10])
        #expect(try await stores[1].count() == [.notification: 10])
    }

    @Test(arguments: TestDatabase.allCases)
    func migrationsRunOnceAndANewerSchemaIsRefused(database: TestDatabase) async throws {
        let location = try freshLocation(database)
        let first = try await location.open(logger: testLogger)
        _ = try await first.store([notification()])
        await first.close()
        // Opening again keeps the rows and applies nothing twice.
        let again = try await location.open(logger: testLogger)
        #expect(try await again.count() == [.notification: 1])
        try await again.recordMigrationForTesting(version: 999)
        await again.close()
        do {
            let store = try await location.open(logger: testLogger)
            await store.close()
            Issue.record("a schema newer than the build was opened")
        } catch {
            #expect(error.code == .incompatible)
            #expect(error.message.contains("999"))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func valuesAreBoundNeverSpliced(database: TestDatabase) async throws {
        let store = try await freshLocation(database).open(logger: testLogger)
        defer { Task { await store.close() } }
        var hostile = notification("x'); DROP TABLE receipt_tokens; --")
        hostile.bundleID = "com.example'\"; --"
        #expect(try await store.store([hostile]) == [.stored])
        #expect(try await store.tokens(forOriginalTransactionIDs: ["1000"]) == [hostile])
        #expect(try await store.tokens(forOriginalTransactionIDs: ["1000' OR '1'='1"]).isEmpty)
    }

    @Test(arguments: TestDatabase.allCases)
    func theWholeStoreReadsPageByPage(database: TestDatabase) async throws {
        let store = try await freshLocation(database).open(logger: testLogger)
        defer { Task { await store.close() } }
        let tokens = (0..<25).map { notification("page-\($0)", transaction: "\(3000 + $0)") }
        #expect(try await store.store(tokens).allSatisfy { $0 == .stored })
        var read: [StoredToken] = []
        var after: Int64 = 0
        while true {
            let page = try await store.tokens(after: after, limit: 7)
            guard let last = page.last else { break }
            #expect(page.count <= 7)
            after = last.rowID
            read += page.map(\.token)
        }
        #expect(read == tokens)
    }

    @Test(arguments: TestDatabase.allCases)
    func oversizedCallsAreRefused(database: TestDatabase) async throws {
        let store = try await freshLocation(database).open(logger: testLogger)
        defer { Task { await store.close() } }
        let tokens = (0...TokenStoreLimits().maximumTokensPerCall).map { notification("many-\($0)") }
        await #expect(throws: TokenStoreError(.tooLarge, "\(tokens.count) tokens in one call; at most \(TokenStoreLimits().maximumTokensPerCall)")) {
            try await store.store(tokens)
        }
        #expect(try await store.count().isEmpty)
    }

    @Test(arguments: TestDatabase.allCases)
    func oversizedReadsAreRefused(database: TestDatabase) async throws {
        let store = try await freshLocation(database).open(logger: testLogger)
        defer { Task { await store.close() } }
        let maximum = TokenStoreLimits().maximumIDsPerRead
        let most = (0..<maximum).map { "key-\($0)" }
        let tooMany = most + ["one-more"]
        // At the bound each read runs (nothing is stored, so nothing comes back); one more is refused.
        #expect(try await store.tokens(forOriginalTransactionIDs: most).isEmpty)
        #expect(try await store.digests(forOriginalTransactionIDs: most).isEmpty)
        #expect(try await store.tokens(withDigests: most).isEmpty)
        let ids = TokenStoreError(.tooLarge, "\(tooMany.count) original transaction ids in one read; at most \(maximum)")
        await #expect(throws: ids) { try await store.tokens(forOriginalTransactionIDs: tooMany) }
        await #expect(throws: ids) { try await store.digests(forOriginalTransactionIDs: tooMany) }
        await #expect(throws: TokenStoreError(.tooLarge, "\(tooMany.count) digests in one read; at most \(maximum)")) {
            try await store.tokens(withDigests: tooMany)
        }
        if let sqlite = store as? SQLiteTokenStore {
            #expect(throws: ids) { try sqlite.digestsHere(forOriginalTransactionIDs: tooMany)?.get() }
            #expect(try sqlite.digestsHere(forOriginalTransactionIDs: most)?.get() ?? [] == [])
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func pageSizesOutsideTheBoundsAreRefused(database: TestDatabase) async throws {
        let store = try await freshLocation(database).open(logger: testLogger)
        defer { Task { await store.close() } }
        let tokens = (0..<3).map { notification("bounds-\($0)", transaction: "\(4000 + $0)") }
        #expect(try await store.store(tokens).allSatisfy { $0 == .stored })
        let maximum = TokenStoreLimits().maximumTokensPerPage
        // Each was read as another size before: 0 and -1 as 1 (one token, where none was asked
        // for), and any size above the bound as itself.
        for limit in [0, -1, maximum + 1, Int.max] {
            await #expect(throws: TokenStoreError(.tooLarge, "a page of \(limit) tokens; from 1 to \(maximum)")) {
                try await store.tokens(after: 0, limit: limit)
            }
        }
        #expect(try await store.tokens(after: 0, limit: maximum).map(\.token) == tokens)
        #expect(try await store.tokens(after: 0, limit: 1).map(\.token) == [tokens[0]])
        var rebuild = StateRebuild(store: store)
        rebuild.pageSize = 0
        await #expect(throws: TokenStoreError.self) { try await rebuild.run { _ in } }
    }

    @Test(arguments: TestDatabase.allCases)
    func rowsOfAKindFromANewerBuildAreRefusedNotLeftOut(database: TestDatabase) async throws {
        let location = try freshLocation(database)
        let store = try await location.open(logger: testLogger)
        defer { Task { await store.close() } }
        let tokens = (0..<2).map { notification("newer-\($0)", transaction: "\(5000 + $0)") }
        #expect(try await store.store(tokens).allSatisfy { $0 == .stored })
        try await location.relabelFirstRowForTesting(kind: "from_a_newer_build")
        // A count that left the row out would say one notification is stored.
        await #expect(throws: TokenStoreError(.incompatible, "1 stored row(s) have the unknown kind 'from_a_newer_build'")) {
            try await store.count()
        }
        for read in [{ try await store.tokens(forOriginalTransactionIDs: ["1000"]) }, { try await store.tokens(after: 0, limit: 10).map(\.token) }] {
            do {
                _ = try await read()
                Issue.record("a row of an unknown kind was read")
            } catch let error as TokenStoreError {
                #expect(error.code == .incompatible)
            }
        }
        // The digests hold no kind: both rows are still found.
        #expect(try await store.digests(forOriginalTransactionIDs: ["1000"]).count == 2)
    }

    @Test(arguments: TestDatabase.allCases)
    func theReaderDerivesWhatTheTokensSayFromTheCacheToo(database: TestDatabase) async throws {
        let store = try await freshLocation(database).open(logger: testLogger)
        defer { Task { await store.close() } }
        let tokens = StateDerivationTests.history()
        _ = try await store.store(Array(tokens.reversed()))
        let at = Date(millisecondsSince1970: StateDerivationTests.start + 70 * StateDerivationTests.day)
        let expected = SubscriptionState.derive(originalTransactionId: "1000", from: tokens, at: at).state
        let reader = StateReader(store: store, cache: TokenFactsCache(capacity: 100))
        #expect(try await reader.state(of: "1000", at: at) == expected)
        #expect(reader.cache.count == tokens.count)
        // From the cache alone: the same.
        #expect(try await reader.state(of: "1000", at: at) == expected)
        #expect(try await reader.states(of: ["1000", "none"], at: at).keys.sorted() == ["1000"])
        #expect(try await store.digests(forOriginalTransactionIDs: ["1000"]).map(\.digest) == tokens.reversed().map(\.digest))
    }

    @Test func locationsAreReadAsWritten() throws {
        #expect(try StoreLocation("state.sqlite") == .sqlite(path: "state.sqlite"))
        #expect(try StoreLocation("sqlite:/var/lib/x.db") == .sqlite(path: "/var/lib/x.db"))
        #expect(try StoreLocation("postgres://u:secret@db:6543/app") == .postgres(url: "postgres://u:secret@db:6543/app"))
        #expect(try StoreLocation("postgres://u:secret@db:6543/app").description == "postgres://u@db:6543/app")
        for bad in ["", "mysql://u@h/d", "postgres://h/d", "postgres://u@h/d?sslmode=require", "postgres://u@h:99999/d", "sqlite:"] {
            #expect(throws: TokenStoreError.self, "\(bad)") { try StoreLocation(bad) }
        }
    }
}

extension StoreLocation {
    /// Gives the first stored row `kind`, through the database's own driver, as a newer build that
    /// knows more kinds would write it.
    func relabelFirstRowForTesting(kind: String) async throws {
        let statement = "UPDATE receipt_tokens SET kind = '\(kind)' WHERE id = (SELECT MIN(id) FROM receipt_tokens)"
        switch self {
        case .sqlite(let path):
            let connection = try await SQLiteConnection.open(storage: .file(path: path), logger: testLogger)
            _ = try await connection.query(statement)
            try await connection.close()
        case .postgres(let url):
            let location = try PostgresLocation(url: url)
            let connection = try await PostgresConnection.connect(
                configuration: .init(
                    host: location.host, port: location.port, username: location.user, password: location.password,
                    database: location.database, tls: .disable),
                id: 1, logger: testLogger)
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: testLogger)
            try await connection.close()
        }
    }
}

extension TokenStore {
    /// Records a migration this build does not have, as a newer build would.
    func recordMigrationForTesting(version: Int) async throws {
        if let store = self as? SQLiteTokenStore {
            try await store.recordMigration(version: version, description: "from a newer build")
        } else if let store = self as? PostgresTokenStore {
            try await store.recordMigration(version: version, description: "from a newer build")
        } else {
            Issue.record("unknown store \(self)")
        }
    }
}
