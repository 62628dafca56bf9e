import Foundation
@testable import receipt
import Testing

/// What a receipt, certificate or token says is printed with its control characters escaped: a
/// certificate named with an escape sequence and a newline once recoloured the terminal and
/// printed a line of its own under the tool's verdict.
struct TerminalTextTests {
    @Test func controlsAndBidiOverridesAreEscaped() {
        #expect(TerminalText.escaped("Evil\u{1B}[31mRED\u{1B}]0;TITLE\u{07}\nFAKE LINE") == #"Evil\x1b[31mRED\x1b]0;TITLE\x07\x0aFAKE LINE"#)
        #expect(TerminalText.escaped("a\tb\rc\u{7F}d") == #"a\x09b\x0dc\x7fd"#)
        #expect(TerminalText.escaped("c1\u{9B}31m") == #"c1\xc2\x9b31m"#)
        #expect(TerminalText.escaped("abc\u{202E}fed\u{2066}") == #"abc\xe2\x80\xaefed\xe2\x81\xa6"#)
    }

    @Test func printableTextIsKeptAsItIs() {
        for text in ["", "com.example.app", "CN=Apple Worldwide Developer Relations, O=Apple Inc.", "café — 日本 🍎", #"back\slash"#] {
            #expect(TerminalText.escaped(text) == text)
        }
    }

    /// `receipt dump` of a token whose header and payload hold escape sequences and a newline: no
    /// control byte reaches standard output, and the forged line stays inside the header's line.
    @Test func aDumpPrintsNoControlFromTheFile() throws {
        func base64url(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let header = Data(#"{"alg":"ES256","kid":"\u001b]0;TITLE\u0007\nFAKE: VALID","x5c":[]}"#.utf8)
        let payload = Data(#"{"transactionId":"1","bundleId":"\u001b[2Jcom.x"}"#.utf8)
        let token = [base64url(header), base64url(payload), base64url(Data(repeating: 1, count: 64))].joined(separator: ".")
        let result = try ReceiptCLI.run(["dump", "-"], stdin: Data(token.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let controls = result.stdout.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" }
        #expect(controls.isEmpty, "\(result.stdout)")
        #expect(result.stdout.contains(#"  kid: \x1b]0;TITLE\x07\x0aFAKE: VALID"#), "\(result.stdout)")
        #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("FAKE") })
    }
}
