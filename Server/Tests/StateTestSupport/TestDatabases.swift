import Foundation
import Logging
import ReceiptState
import Testing

/// The two databases every store test runs on.
public enum TestDatabase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// `sqlite` or `postgres`.
    public var testDescription: String { rawValue }
}

/// One PostgreSQL server for a whole suite (started before its first test, removed after its
/// last), each test in a database of its own on it.
public struct SharedPostgres: SuiteTrait, TestScoping {
    /// The server of the suite running.
    @TaskLocal public static var current: ThrowawayPostgres?

    /// Once for the suite, not for each test.
    public var isRecursive: Bool { false }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try ThrowawayPostgres.start()
        defer { server.destroy() }
        try await Self.$current.withValue(server) { try await function() }
    }
}

extension Trait where Self == SharedPostgres {
    /// One throwaway PostgreSQL for the suite.
    public static var sharedPostgres: SharedPostgres { SharedPostgres() }
}

/// A fresh, empty location of `database`: a new SQLite file, or a new database on the suite's
/// PostgreSQL server.
public func freshLocation(_ database: TestDatabase) throws -> StoreLocation {
    switch database {
    case .sqlite:
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return .sqlite(path: directory.appendingPathComponent("state.sqlite").path)
    case .postgres:
        let server = try #require(SharedPostgres.current, "the suite needs the .sharedPostgres trait")
        return .postgres(url: try server.createDatabase())
    }
}

/// A logger that writes warnings and worse.
public let testLogger: Logger = {
    var logger = Logger(label: "receipt-state-tests")
    logger.logLevel = .warning
    return logger
}()
