import Foundation

/// A PostgreSQL server of a test's own, run by `Scripts/postgres.sh` in a temporary folder (initdb,
/// a free loopback port, fsync on), removed by ``destroy()``.
public final class ThrowawayPostgres: Sendable {
    /// The folder holding the cluster.
    public let directory: URL
    /// `postgres://receipt@127.0.0.1:PORT/receipt`.
    public let url: String

    /// The script beside the package: `Scripts/postgres.sh` at the checkout's root.
    public static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/postgres.sh")
    }

    private init(directory: URL, url: String) {
        self.directory = directory
        self.url = url
    }

    /// A new cluster, started.
    public static func start() throws -> ThrowawayPostgres {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-state-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let directory = parent.appendingPathComponent("cluster")
        let url = try run("start", directory).trimmingCharacters(in: .whitespacesAndNewlines)
        return ThrowawayPostgres(directory: directory, url: url)
    }

    /// Stops the server (fast shutdown: connections are cut; the data stays).
    public func stop() throws { _ = try Self.run("stop", directory) }

    /// Starts it again on the same port.
    public func restart() throws { _ = try Self.run("restart", directory) }

    /// Stops it and removes its folder.
    public func destroy() {
        _ = try? Self.run("destroy", directory)
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }

    /// A new empty database on this server; its URL.
    public func createDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        _ = try Self.run("createdb", directory, String(name))
        guard let slash = url.lastIndex(of: "/") else { return url }
        return url[..<slash] + "/" + name
    }

    /// Runs the script; its standard output, or an error with what it printed.
    @discardableResult
    static func run(_ command: String, _ directory: URL, _ extra: String...) throws -> String {
        // Files, not pipes: the server the script starts keeps inherited descriptors open, so a
        // pipe would never reach its end.
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("postgres-sh-\(UUID().uuidString).out")
        let errorURL = outputURL.appendingPathExtension("err")
        FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, command, directory.path] + extra
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        let problem = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw ThrowawayPostgresError(message: "postgres.sh \(command) exited \(process.terminationStatus): \(problem)")
        }
        return text
    }
}

/// A failure of `Scripts/postgres.sh`.
public struct ThrowawayPostgresError: Error, CustomStringConvertible {
    /// What it printed.
    public var message: String
    /// `message`.
    public var description: String { message }
}
