import Foundation
import Testing
@testable import receipt

/// The order of a directory's files: plain names sorted as bytes must come out as the labels'
/// order (``DirectoryListing/Name/precedes(_:)``), and names that are not plain merged in by it.
@Suite("verify: the order of a directory's files")
struct DirectoryListingOrderTests {
    /// The names, each as the listing's buffer of plain names holds it or as a name of its own.
    static func split(_ names: [[UInt8]]) -> (DirectoryListing.PlainNames, [DirectoryListing.Name]) {
        var plain = DirectoryListing.PlainNames()
        var others: [DirectoryListing.Name] = []
        for name in names {
            name.withUnsafeBufferPointer { bytes in
                if InputPath.isPlain(bytes) {
                    plain.append(bytes)
                } else {
                    others.append(DirectoryListing.Name(bytes, isPlain: false))
                }
            }
        }
        return (plain, others)
    }

    /// The bytes of each name, in the order the listing gives.
    static func listed(_ names: [[UInt8]]) -> [[UInt8]] {
        let (plain, others) = split(names)
        return DirectoryListing.sorted(plain, others: others).map { name in
            switch name {
            case .plain(let range): Array(plain.bytes[range])
            case .other(let index): others[index].bytes ?? Array(others[index].label.utf8)
            }
        }
    }

    /// The bytes of each name, sorted by label and equal labels by bytes (a `String` per name).
    static func byLabel(_ names: [[UInt8]]) -> [[UInt8]] {
        names.map { bytes in bytes.withUnsafeBufferPointer { DirectoryListing.Name($0, isPlain: InputPath.isPlain($0)) } }
            .sorted { $0.precedes($1) }
            .map { $0.bytes ?? Array($0.label.utf8) }
    }

    @Test("plain names sorted as bytes come out in the labels' order")
    func plainNamesSortAsLabels() {
        var generator = SystemRandomNumberGenerator()
        // Every printable ASCII byte but the backslash, short names sharing prefixes, and names
        // that begin others ("a" before "a!" before "a.receipt").
        let alphabet = (UInt8(0x20)...UInt8(0x7E)).filter { $0 != UInt8(ascii: "\\") }
        var names = Set<[UInt8]>()
        for stem in ["", "a", "r00", "Z", "~", "r000012.", "r000012.rec"] {
            for _ in 0..<400 {
                let tail = (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0x61 }
                let name = Array(stem.utf8) + tail
                if !name.isEmpty { names.insert(name) }
            }
        }
        names.formUnion(["a", "a!", "a.receipt", "A", "a0", "r000010.receipt", "r00001.receipt", " ", "~~", "abcdefgh", "abcdefg", "abcdefgh!", "abcdefghi", "abcdefgi"].map { Array($0.utf8) })
        let shuffled = Array(names).shuffled(using: &generator)
        #expect(Self.listed(shuffled) == Self.byLabel(shuffled))
    }

    @Test("names that are not plain merge into the plain names' order by label, equal labels by bytes")
    func otherNamesMerge() {
        let others: [[UInt8]] = [
            [0x62, 0xFF] + Array(".receipt".utf8),  // not UTF-8: b\xff.receipt
            Array("é.receipt".utf8),  // precomposed
            Array("e\u{301}.receipt".utf8),  // decomposed: the same label as a String, other bytes
            Array("\u{212A}.receipt".utf8),  // KELVIN SIGN: canonically equal to "K.receipt"
            Array("a\\b".utf8),  // a backslash, escaped in its label
            Array("a\nb".utf8),  // a control character
            [0x7F],
        ]
        let plain = ["K.receipt", "a.receipt", "b.receipt", "a", "b\\", "bx", "z", "e.receipt", "f"].map { Array($0.utf8) }
            .filter { InputPath.isPlain($0) }
        let names = (plain + others).shuffled()
        #expect(Self.listed(names) == Self.byLabel(names))
        #expect(Self.listed(others) == Self.byLabel(others))
        #expect(Self.listed(plain) == Self.byLabel(plain))
    }

    @Test("a directory's files in the output: in the labels' order, plain names and others together")
    func directoryOrder() throws {
        let sample = try Data(contentsOf: EveryInputCountedTests.sample)
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let names: [[UInt8]] = [
            Array("b.receipt".utf8), Array("a.receipt".utf8), Array("a.receipt.1".utf8), Array("B.receipt".utf8),
            [0x62, 0xFF] + Array(".receipt".utf8), Array("\u{212A}.receipt".utf8), Array("K.receipt".utf8), Array("é".utf8),
        ]
        for name in names {
            try ReceiptCLI.createFile(named: name, in: directory, contents: sample)
        }
        let result = try ReceiptCLI.run(["verify", "--ndjson", directory.path])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try result.stdout.split(separator: "\n").map { try VerifyOutputShape.decode(String($0)).file }
        let expected = ["B.receipt", "K.receipt", "\u{212A}.receipt", "a.receipt", "a.receipt.1", "b.receipt", "b\\xff.receipt", "é"]
        // As bytes: `String`'s == holds the Kelvin sign and K equal.
        #expect(files.map { Array($0.utf8) } == expected.map { Array((directory.path + "/" + $0).utf8) })
    }
}
