import Foundation
import ReceiptKit

/// Paths and inputs under the package's `Fixtures/`, found from this file's location.
public enum FuzzFixtures {
    /// `<package>/Fixtures`.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // FuzzSupport
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // Fuzz
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Fixtures")

    /// The bytes of `Fixtures/<relativePath>`, or nil when unreadable.
    public static func bytes(_ relativePath: String) -> [UInt8]? {
        read(directory.appendingPathComponent(relativePath).path)
    }

    /// Reads a whole file with open/read. (Foundation's `Data(contentsOf:)` leaks its buffer under
    /// LeakSanitizer with Swift 6.3.1 on Linux, which would mask the soak run's own figures.)
    public static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    /// Every regular file directly inside `Fixtures/<relativeDirectory>`, sorted by name.
    public static func files(in relativeDirectory: String) -> [(name: String, bytes: [UInt8])] {
        let folder = directory.appendingPathComponent(relativeDirectory)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        return names.compactMap { name in
            guard let bytes = read(folder.appendingPathComponent(name).path) else { return nil }
            return ("\(relativeDirectory)/\(name)", bytes)
        }
    }

    /// The mixed validation workload of the soak and stress runs: real Apple and Xcode receipts,
    /// legacy iOS 6 receipts, generated valid receipts and the whole hostile corpus, plus a few
    /// base64 and truncated variants. Valid and invalid inputs are both well represented.
    public static func mixedWorkload() -> [(name: String, bytes: [UInt8])] {
        var inputs = files(in: "real/receipts") + files(in: "real/legacy") + files(in: "generated/receipts")
            + files(in: "generated/hostile")
        if let first = files(in: "generated/receipts").first {
            inputs.append(("base64:\(first.name)", Array(Data(first.bytes).base64EncodedString().utf8)))
            inputs.append(("truncated:\(first.name)", Array(first.bytes.prefix(first.bytes.count / 2))))
        }
        return inputs
    }
}
