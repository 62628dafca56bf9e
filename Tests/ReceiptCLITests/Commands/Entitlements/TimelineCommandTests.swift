import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `receipt timeline --svg`: a well-formed SVG with one bar per period, rendered with headless
/// Chromium when it is installed.
@Suite("timeline")
struct TimelineCommandTests {
    static let stress = ReceiptCLI.realReceipt("tpinapp-sandbox-sha1-2020-187iap.receipt").path

    /// What the SVG holds, read with an XML parser (which also proves it well-formed).
    final class SVGSummary: NSObject, XMLParserDelegate {
        var root: String?
        var periodClasses: [String] = []
        var periodTransactions: [String] = []
        var creationLines = 0

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if root == nil { root = name }
            let classes = (attributes["class"] ?? "").split(separator: " ").map(String.init)
            if name == "rect", classes.contains("period") {
                periodClasses.append(classes.joined(separator: " "))
                periodTransactions.append(attributes["data-transaction-id"] ?? "")
            }
            if name == "line", classes.contains("created") { creationLines += 1 }
        }
    }

    static func summary(of svg: Data) throws -> SVGSummary {
        let parser = XMLParser(data: svg)
        let summary = SVGSummary()
        parser.delegate = summary
        guard parser.parse() else {
            throw CLIError("the SVG is not well-formed XML: \(String(describing: parser.parserError))")
        }
        return summary
    }

    @Test("the 187-purchase receipt: one bar per period, one trial, the creation line")
    func stressReceipt() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = directory.appendingPathComponent("timeline.svg")
        let result = try ReceiptCLI.run(["timeline", "--svg", svg.path, Self.stress])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("3 products, 187 periods"))
        let summary = try Self.summary(of: Data(contentsOf: svg))
        #expect(summary.root == "svg")
        #expect(summary.periodClasses.count == 187)
        #expect(Set(summary.periodTransactions).count == 187, "each bar is a different transaction")
        #expect(summary.periodClasses.filter { $0.contains("trial") } == ["period trial"])
        #expect(summary.periodClasses.filter { $0.contains("intro") }.isEmpty)
        #expect(summary.creationLines == 1)
    }

    /// The section headings of a picture, in order.
    static func sectionTitles(_ svg: String) -> [String] {
        svg.matches(of: /<text class="section"[^>]*>([^<]*)<\/text>/).map { String($0.output.1) }
    }

    @Test("a catalog group gets a heading; subscriptions in no group share one; counts are singular at one")
    func sections() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = directory.appendingPathComponent("timeline.svg")
        let catalog = directory.appendingPathComponent("catalog.json")
        try Data(#"{"groups": {"nutcall": ["com.nutcallalert.inapp.optimum", "com.nutcallalert.inapp.pro"]}}"#.utf8).write(to: catalog)

        #expect(try ReceiptCLI.run(["timeline", "--svg", svg.path, Self.stress]).status == 0)
        #expect(Self.sectionTitles(try String(contentsOf: svg, encoding: .utf8)) == ["Subscriptions in no --catalog group"])

        #expect(try ReceiptCLI.run(["timeline", "--catalog", catalog.path, "--svg", svg.path, Self.stress]).status == 0)
        let grouped = try String(contentsOf: svg, encoding: .utf8)
        #expect(Self.sectionTitles(grouped) == ["Group nutcall", "Subscriptions in no --catalog group"])
        let labels = grouped.matches(of: /<text class="lane-label"[^>]*>([^<]*)</).map { String($0.output.1) }
        #expect(labels == ["com.nutcallalert.inapp.optimum", "com.nutcallalert.inapp.pro", "com.nutcallalert.inapp.lite"])

        let one = try ReceiptCLI.run(["timeline", "--svg", svg.path, ReceiptCLI.realReceipt("aporat-production-g5-sha256-2025-1iap.receipt").path])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stderr.hasSuffix(": 1 product, 1 period\n"), "\(one.stderr)")
        #expect(try String(contentsOf: svg, encoding: .utf8).contains("— 1 purchase, 1 period</title>"))
    }

    @Test("every Xcode receipt draws its one period (or none), to standard output")
    func xcodeReceipts() throws {
        let expected = [
            "apple-xcode-2023-empty.receipt": 0, "apple-xcode-2023-with-transaction.receipt": 1,
            "kvitto-xcode-2020-1iap.receipt": 1, "tpinapp-xcode-2021-no-orig-purchase-date.receipt": 1,
        ]
        for (name, periods) in expected {
            let result = try ReceiptCLI.run(["timeline", "--xcode", "--svg", "-", ReceiptCLI.realReceipt(name).path])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let summary = try Self.summary(of: Data(result.stdout.utf8))
            #expect(summary.periodClasses.count == periods, "\(name)")
        }
        let intro = try ReceiptCLI.run(["timeline", "--xcode", "--svg", "-", ReceiptCLI.realReceipt("apple-xcode-2023-with-transaction.receipt").path])
        #expect(try Self.summary(of: Data(intro.stdout.utf8)).periodClasses == ["period intro"])
    }

    @Test("an invalid receipt writes nothing and exits 1")
    func invalidReceipt() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = directory.appendingPathComponent("timeline.svg")
        let result = try ReceiptCLI.run(["timeline", "--svg", svg.path, ReceiptCLI.realReceipt("kvitto-xcode-2020-1iap.receipt").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("INVALID: untrusted_chain"))
        #expect(!FileManager.default.fileExists(atPath: svg.path))
    }

    /// Chromium, when the machine has it (CI need not).
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("headless Chromium renders the 187-purchase timeline to a PNG of the SVG's size", .enabled(if: chromium != nil))
    func rendersInChromium() throws {
        let chromium = try #require(Self.chromium)
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = directory.appendingPathComponent("timeline.svg")
        let png = directory.appendingPathComponent("timeline.png")
        #expect(try ReceiptCLI.run(["timeline", "--svg", svg.path, Self.stress]).status == 0)
        let text = try String(contentsOf: svg, encoding: .utf8)
        let size = try #require(text.firstMatch(of: /<svg [^>]*width="(\d+)[^"]*" height="(\d+)[^"]*"/))
        let (width, height) = (Int(size.output.1) ?? 0, Int(size.output.2) ?? 0)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(directory.path)/profile",
            "--window-size=\(width),\(height)", "--screenshot=\(png.path)", svg.absoluteString,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let bytes = [UInt8](try Data(contentsOf: png))
        try #require(bytes.count > 33)
        #expect(Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        func bigEndian(_ offset: Int) -> Int { bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        #expect(bigEndian(16) == width && bigEndian(20) == height, "the screenshot is the picture's size")
        #expect(bytes.count > 20_000, "187 bars and their labels are drawn, not a blank page")
    }
}
