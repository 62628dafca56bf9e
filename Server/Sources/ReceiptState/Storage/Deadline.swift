/// Runs `operation`, throwing ``TokenStoreError`` `timeout` when it takes longer than `seconds`
/// (the operation is cancelled), and mapping any other failure to `unavailable` with `describe`.
func withDeadline<T: Sendable>(
    _ seconds: Double, _ what: String, describe: @escaping @Sendable (any Error) -> String,
    _ operation: @escaping @Sendable () async throws -> T
) async throws(TokenStoreError) -> T {
    do {
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
                throw TokenStoreError(.timeout, "\(what): the database did not answer within \(seconds) s")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else {
                throw TokenStoreError(.unavailable, "\(what): no result")
            }
            return first
        }
    } catch let error as TokenStoreError {
        throw error
    } catch is CancellationError {
        throw TokenStoreError(.timeout, "\(what): cancelled")
    } catch {
        throw TokenStoreError(.unavailable, "\(what): \(describe(error))")
    }
}
