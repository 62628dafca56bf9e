import ReceiptCore
import Testing

/// `JSONValue(reading:)`, the public face of the reader a JWS's header and payload go through:
/// what it accepts, and that each refusal names its reason (a duplicate member by name).
struct JSONValueReadingTests {
    @Test func readsAnObjectKeepingNumbersAsText() throws {
        let value = try JSONValue(reading: Array(#" {"a":[1,2.50,true,null],"b":"\u00e9\n"} "#.utf8))
        #expect(value == .object(["a": .array([.number("1"), .number("2.50"), .bool(true), .null]), "b": .string("é\n")]))
    }

    @Test func aMemberNamedTwiceIsRefusedByName() {
        #expect(throws: JSONReadError(reason: #"duplicate member "a""#, offset: 12, duplicateMemberName: "a")) {
            try JSONValue(reading: Array(#"{"a":1,"a":2}"#.utf8))
        }
        // Nested too; the name is the inner object's.
        do {
            _ = try JSONValue(reading: Array(#"{"o":{"k":"x","k":"y"}}"#.utf8))
            Issue.record("a nested duplicate was read")
        } catch {
            #expect(error.duplicateMemberName == "k")
        }
    }

    @Test(arguments: [
        ("16 levels", String(repeating: "[", count: 16) + String(repeating: "]", count: 16), nil),
        ("17 levels", String(repeating: "[", count: 17) + String(repeating: "]", count: 17), "JSON nested deeper than 16 levels"),
        ("trailing", #"{} {}"#, "trailing bytes after the JSON value"),
        ("empty", "", "unexpected end of JSON"),
    ] as [(String, String, String?)])
    func boundsAndEnds(name: String, text: String, refusal: String?) {
        do {
            _ = try JSONValue(reading: Array(text.utf8))
            #expect(refusal == nil, "\(name) was read")
        } catch {
            #expect(error.reason == refusal, "\(name)")
            #expect(error.duplicateMemberName == nil)
        }
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: JSONReadError.self) { try JSONValue(reading: [0x22, 0xFF, 0x22]) }
    }
}
