import ReceiptCore

/// The result of one case on one backend.
public struct ConformanceResult: Sendable, Hashable {
    /// The case.
    public var testCase: ConformanceCase
    /// The backend's name.
    public var backendName: String
    /// What the manifest expects.
    public var expected: ConformanceOutcome
    /// What the backend produced.
    public var actual: ConformanceOutcome
    /// Whether `actual` equals `expected`.
    public var passed: Bool { actual == expected }
}

/// Every case's result on one backend.
public struct ConformanceReport: Sendable {
    /// The backend's name.
    public var backendName: String
    /// One result per case, in manifest order.
    public var results: [ConformanceResult]
    /// The validators' verified-chain cache counters over the reported cases (`nil` when the
    /// cache was off).
    public var chainCacheStatistics: VerifiedChainCacheStatistics?

    /// The cases that did not produce the expected outcome.
    public var failed: [ConformanceResult] { results.filter { !$0.passed } }
    /// The number of cases that passed.
    public var passedCount: Int { results.count - failed.count }

    /// Per category: number of cases and how many passed.
    public var categories: [(category: String, cases: Int, passed: Int)] {
        var order: [String] = []
        var counts: [String: (Int, Int)] = [:]
        for result in results {
            let category = result.testCase.category
            if counts[category] == nil { order.append(category) }
            let (cases, passed) = counts[category] ?? (0, 0)
            counts[category] = (cases + 1, passed + (result.passed ? 1 : 0))
        }
        return order.map { ($0, counts[$0]?.0 ?? 0, counts[$0]?.1 ?? 0) }
    }

    /// A plain-text table: one row per case (or only failures), then per-category counts and the
    /// closing line `N passed, N failed`.
    public func table(onlyFailures: Bool = false) -> String {
        var lines: [String] = []
        let rows = onlyFailures ? failed : results
        let width = max(4, rows.map(\.testCase.name.count).max() ?? 4)
        func pad(_ text: String, _ count: Int) -> String {
            text.count >= count ? text : text + String(repeating: " ", count: count - text.count)
        }
        lines.append("\(pad("case", width))  result  expected -> actual   [\(backendName)]")
        for result in rows {
            let verdict = result.passed ? "pass  " : "FAIL  "
            lines.append("\(pad(result.testCase.name, width))  \(verdict)  \(result.expected) -> \(result.actual)")
        }
        lines.append("")
        for (category, cases, passed) in categories {
            lines.append("\(pad(category, 20)) \(cases) cases, \(passed) passed")
        }
        lines.append("\(passedCount) passed, \(failed.count) failed")
        return lines.joined(separator: "\n")
    }
}
