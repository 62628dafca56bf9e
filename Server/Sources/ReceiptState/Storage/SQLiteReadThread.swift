import NIOConcurrencyHelpers
import NIOPosix
import Synchronization
// sqlite-nio's own SQLite (the library SQLiteNIO is built on): one SQLite in the process, so the
// file locks of both connections are kept by the same code.
import VaporCSQLite

/// The embedded store's reads on the request path — the digests a stateful `verifyReceipt` asks
/// for on every request, and `/health`'s ping — on a second connection to the same file, owned by
/// a thread of its own, its statements prepared once and kept.
///
/// Through SQLiteNIO each such read prepared its statement again, ran on NIO's shared blocking
/// pool, handed every row to an event loop, and was awaited from a task of its own (the deadline):
/// SQLite was in 8.8 % of the server's CPU samples under a 2-purchase `verifyReceipt` load, 2.8 %
/// preparing (perf, Benchmarks/RESULTS.md, 2026-11-27). Here a read is one job on this thread,
/// awaited within the same deadline (``boundedWait(_:starting:)``, no task made): a read that
/// does not end in time is answered `timeout` and left to end on its own, as before.
///
/// A read may also be made on the calling thread (``readHere(_:_:_:)``): a stateful
/// `verifyReceipt` reads on its validation thread, right after the validation, rather than
/// hopping to this thread and back, on a read-only connection of its own, taken from a few kept
/// for that. Every connection is used by one thread at a time (its
/// ``SQLiteReadConnection/exclusive`` lock, which no two threads ask for at once).
///
/// The connection is read-only (`query_only`): writes and migrations stay on SQLiteNIO's
/// connection. In WAL mode a read sees every transaction committed before it began, on either
/// connection.
final class SQLiteReadThread: Sendable {
    private let thread: NIOThreadPool
    private let connection: SQLiteReadConnection
    private let path: String
    private let busyTimeoutMilliseconds: Int32
    /// The connections of ``readHere(_:_:_:)``: one per thread reading at once, so that two
    /// validation threads never wait for one another (nor take turns with this thread).
    private let hereConnections = Mutex(HereConnections())

    /// The idle connections for reads made here, and how many are open.
    private struct HereConnections {
        var idle: [SQLiteReadConnection] = []
        var opened = 0
        var isClosed = false
    }

    /// The most connections open for reads made here (beyond it, a read is made on this thread).
    static let maximumHereConnections = 8

    private init(thread: NIOThreadPool, connection: SQLiteReadConnection, path: String, busyTimeoutMilliseconds: Int32) {
        self.thread = thread
        self.connection = connection
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }

    /// Opens the second connection to `path` on a thread of its own; nil (and the thread ended)
    /// when it cannot read the store's table there — an in-memory database, which a second
    /// connection does not share.
    static func open(path: String, busyTimeoutMilliseconds: Int32) async -> SQLiteReadThread? {
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        let connection = try? await thread.runIfActive { () -> SQLiteReadConnection? in
            let connection = try? SQLiteReadConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            // The statement every request uses, prepared now: it fails where the table is not seen.
            guard let connection, (try? connection.statement(.digests(count: 1))) != nil else { return nil }
            return connection
        }
        guard let connection else {
            try? await thread.shutdownGracefully()
            return nil
        }
        return SQLiteReadThread(thread: thread, connection: connection, path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    /// Runs `work` on the thread with the connection, waiting at most `seconds` for it.
    func run<T: Sendable>(
        _ seconds: Double, _ what: String, _ work: @escaping @Sendable (SQLiteReadConnection) throws(TokenStoreError) -> T
    ) async throws(TokenStoreError) -> T {
        let connection = self.connection
        let thread = self.thread
        let outcome = await boundedWait(seconds) { (finish: @escaping @Sendable (Result<T, any Error>) -> Void) in
            thread.submit { state in
                guard case .active = state else {
                    return finish(.failure(TokenStoreError(.unavailable, "\(what): the store is closed")))
                }
                finish(connection.exclusive.withLock { _ in Result { () throws(TokenStoreError) in try work(connection) } }.mapError { $0 })
            }
            return {}
        }
        return try outcome.value(seconds, what) { "SQLite: \($0)" }
    }

    /// Runs `work` with a connection of the caller's own on the calling thread, blocking it: an
    /// idle one of ``hereConnections``, or a new one (opened with the same busy timeout); nil, at
    /// once, when ``maximumHereConnections`` are in use, one cannot be opened, or the store is
    /// closed (the caller uses ``run(_:_:_:)``).
    ///
    /// A read made here cannot be left behind as ``run(_:_:_:)`` leaves one, so it is bounded
    /// with SQLite's own means: a lock is waited for at most the busy timeout the connection was
    /// opened with (the store's ``TokenStoreLimits/operationTimeout``), and a statement still
    /// running at `seconds` is interrupted (`sqlite3_interrupt`, from ``DeadlineWatch/shared``).
    /// A read that fails once its time has passed is answered as ``run(_:_:_:)`` answers a read
    /// that does not end in time: `timeout`, "`what`: the database did not answer within
    /// `seconds` s". (A file read that the kernel does not return from is not bounded.)
    func readHere<T: Sendable>(
        _ seconds: Double, _ what: String, _ work: (SQLiteReadConnection) throws(TokenStoreError) -> T
    ) -> Result<T, TokenStoreError>? {
        guard let connection = takeHereConnection() else { return nil }
        defer { giveBack(connection) }
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(seconds, 0) * 1000))
        // Held by no other thread (the connection is this caller's alone until given back).
        let result = connection.exclusive.withLock { _ -> Result<T, TokenStoreError> in
            let read = connection.interruptible(until: deadline)
            defer { connection.endInterruptible(read) }
            return Result { () throws(TokenStoreError) in try work(connection) }
        }
        if case .failure = result, ContinuousClock.now >= deadline {
            return .failure(TokenStoreError(.timeout, "\(what): the database did not answer within \(seconds) s"))
        }
        return result
    }

    /// An idle connection for a read made here, or a new one; nil when none can be had.
    private func takeHereConnection() -> SQLiteReadConnection? {
        enum Taken { case idle(SQLiteReadConnection), open, none }
        let taken = hereConnections.withLock { here -> Taken in
            guard !here.isClosed else { return .none }
            if let connection = here.idle.popLast() { return .idle(connection) }
            guard here.opened < Self.maximumHereConnections else { return .none }
            here.opened += 1
            return .open
        }
        switch taken {
        case .idle(let connection):
            return connection
        case .none:
            return nil
        case .open:
            if let connection = try? SQLiteReadConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds) { return connection }
            hereConnections.withLock { $0.opened -= 1 }
            return nil
        }
    }

    /// Puts a connection back among the idle ones; closes it when the store has closed meanwhile.
    private func giveBack(_ connection: SQLiteReadConnection) {
        let isClosed = hereConnections.withLock { here -> Bool in
            if !here.isClosed { here.idle.append(connection) }
            return here.isClosed
        }
        if isClosed { connection.exclusive.withLock { _ in connection.close() } }
    }

    /// Closes the connection (on its thread, after the reads queued before, once no other thread
    /// reads with it) and ends the thread.
    func close() async {
        let connection = self.connection
        _ = try? await thread.runIfActive { connection.exclusive.withLock { _ in connection.close() } }
        try? await thread.shutdownGracefully()
        // The idle connections of reads made here; one in use is closed when it is given back.
        let idle = hereConnections.withLock { here -> [SQLiteReadConnection] in
            here.isClosed = true
            defer { here.idle = [] }
            return here.idle
        }
        for connection in idle { connection.exclusive.withLock { _ in connection.close() } }
    }
}

/// One read-only SQLite connection and its prepared statements, used on one thread at a time:
/// the one holding ``exclusive`` (``SQLiteReadThread``'s own, or the caller of
/// ``SQLiteReadThread/readHere(_:_:_:)`` that took it). Closed once: by ``close()`` or in `deinit`.
final class SQLiteReadConnection: @unchecked Sendable {
    /// The statements kept.
    enum Query: Hashable {
        /// `SELECT 1`.
        case ping
        /// ``StoreSchema/selectDigestsByOriginalTransactionIDs(count:dialect:)``.
        case digests(count: Int)

        var sql: String {
            switch self {
            case .ping: "SELECT 1"
            case .digests(let count): StoreSchema.selectDigestsByOriginalTransactionIDs(count: count, dialect: .sqlite)
            }
        }
    }

    private var handle: OpaquePointer?
    private var statements: [Query: SQLitePreparedStatement] = [:]

    /// Held by the thread using the connection, for the whole of its use.
    let exclusive = Mutex(())

    /// The read that a passed deadline may interrupt now (its number), if any: set and cleared by
    /// the thread holding ``exclusive``, looked at by the deadline's expiry, so that an interrupt
    /// reaches only the read it was meant for, while the connection is open.
    private let interruptibleRead = NIOLockedValueBox<UInt64?>(nil)
    /// The number of the next interruptible read (under ``exclusive``).
    private var nextRead: UInt64 = 0

    /// Opens the file at `path` (which must exist), read-only, waiting `busyTimeoutMilliseconds`
    /// at most for a lock.
    init(path: String, busyTimeoutMilliseconds: Int32) throws(TokenStoreError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE
        let opened = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        self.handle = handle  // closed in deinit, opened or not (SQLite hands a handle to close either way)
        guard opened == SQLITE_OK, let handle else {
            throw TokenStoreError(.unavailable, "the SQLite database \(path) could not be opened for reading: \(Self.message(handle, opened))")
        }
        sqlite_nio_sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        let readOnly = sqlite_nio_sqlite3_exec(handle, "PRAGMA query_only = 1", nil, nil, nil)
        guard readOnly == SQLITE_OK else {
            throw TokenStoreError(.unavailable, "the SQLite connection could not be made read-only: \(Self.message(handle, readOnly))")
        }
    }

    deinit {
        close()
    }

    /// Finalizes the statements and closes the connection; nothing when closed already.
    func close() {
        statements.removeAll()
        if let handle { sqlite_nio_sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Makes the read about to run (under ``exclusive``) interruptible once `deadline` has passed;
    /// ``endInterruptible(_:)`` must follow before ``exclusive`` is released.
    func interruptible(until deadline: ContinuousClock.Instant) -> (read: UInt64, watch: DeadlineWatch.Entry) {
        let read = nextRead
        nextRead &+= 1
        interruptibleRead.withLockedValue { $0 = read }
        let watch = DeadlineWatch.shared.add(deadline) { [self] in
            interruptibleRead.withLockedValue { current in
                // Read while `read` runs: the thread running it holds `exclusive`, so the
                // connection is open, and it ends the read only under this lock.
                if current == read, let handle { sqlite_nio_sqlite3_interrupt(handle) }
            }
        }
        return (read, watch)
    }

    /// Ends what ``interruptible(until:)`` began: no interrupt reaches the connection after it.
    func endInterruptible(_ interruptible: (read: UInt64, watch: DeadlineWatch.Entry)) {
        DeadlineWatch.shared.remove(interruptible.watch)
        interruptibleRead.withLockedValue { $0 = nil }
    }

    /// The statement for `query`, prepared on first use.
    func statement(_ query: Query) throws(TokenStoreError) -> SQLitePreparedStatement {
        if let statement = statements[query] { return statement }
        let statement = try prepare(query.sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        statements[query] = statement
        return statement
    }

    /// `sql` prepared.
    private func prepare(_ sql: String, flags: UInt32) throws(TokenStoreError) -> SQLitePreparedStatement {
        guard let handle else { throw TokenStoreError(.unavailable, "the SQLite read connection is closed") }
        var prepared: OpaquePointer?
        let result = sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, flags, &prepared, nil)
        guard result == SQLITE_OK, let prepared else {
            sqlite_nio_sqlite3_finalize(prepared)
            throw TokenStoreError(.unavailable, "SQLite: \(Self.message(handle, result))")
        }
        return SQLitePreparedStatement(prepared)
    }

    /// Runs `query` with `texts` bound to its parameters in order, calling `row` on each row; the
    /// statement is reset after (its read transaction ended), whatever happens.
    func rows(_ query: Query, _ texts: [String], _ row: (SQLitePreparedStatement) -> Void) throws(TokenStoreError) {
        try rows(of: try statement(query), texts, row)
    }

    /// Runs `sql`, a statement not kept (prepared, run and finalized: the tests' queries), calling
    /// `row` on each row.
    func rows(sql: String, _ row: (SQLitePreparedStatement) -> Void) throws(TokenStoreError) {
        try rows(of: try prepare(sql, flags: 0), [], row)
    }

    /// ``rows(_:_:_:)`` of a prepared statement.
    private func rows(of statement: SQLitePreparedStatement, _ texts: [String], _ row: (SQLitePreparedStatement) -> Void) throws(TokenStoreError) {
        defer { statement.reset() }
        for (index, text) in texts.enumerated() {
            let result = sqlite_nio_sqlite3_bind_text64(
                statement.handle, Int32(index + 1), text, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
            guard result == SQLITE_OK else { throw TokenStoreError(.unavailable, "SQLite: \(Self.message(handle, result))") }
        }
        while true {
            let result = sqlite_nio_sqlite3_step(statement.handle)
            if result == SQLITE_DONE { return }
            guard result == SQLITE_ROW else { throw TokenStoreError(.unavailable, "SQLite: \(Self.message(handle, result))") }
            row(statement)
        }
    }

    /// SQLite's message for `code` on `handle`.
    private static func message(_ handle: OpaquePointer?, _ code: Int32) -> String {
        let text: UnsafePointer<CChar>? = if let handle { sqlite_nio_sqlite3_errmsg(handle) } else { sqlite_nio_sqlite3_errstr(code) }
        return text.map { String(cString: $0) } ?? "SQLite error \(code)"
    }

    /// `SQLITE_TRANSIENT`: SQLite copies a bound value before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A prepared statement, finalized once, in `deinit`.
final class SQLitePreparedStatement {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        sqlite_nio_sqlite3_finalize(handle)
    }

    /// Ends the statement's run and clears its parameters.
    func reset() {
        sqlite_nio_sqlite3_reset(handle)
        sqlite_nio_sqlite3_clear_bindings(handle)
    }

    /// Column `index`'s text (empty when null).
    func text(_ index: Int32) -> String {
        guard let bytes = sqlite_nio_sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite_nio_sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Whether column `index` is null.
    func isNull(_ index: Int32) -> Bool {
        sqlite_nio_sqlite3_column_type(handle, index) == SQLITE_NULL
    }
}
