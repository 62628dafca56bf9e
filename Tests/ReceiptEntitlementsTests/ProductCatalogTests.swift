import Foundation
import Testing
import ReceiptCore
@testable import ReceiptEntitlements

@Suite struct ProductCatalogTests {
    private func json(_ text: String) throws -> ProductCatalog { try ProductCatalog(json: Data(text.utf8)) }

    @Test func readsGroupsAndNonRenewingDurations() throws {
        let catalog = try json(#"{"groups": {"g1": ["a", "b"], "g2": ["c"]}, "non_renewing": {"n": "P1M", "y": "P1Y2M10DT2H30M"}}"#)
        #expect(catalog.subscriptionGroup(ofProduct: "a") == "g1")
        #expect(catalog.subscriptionGroup(ofProduct: "b") == "g1")
        #expect(catalog.subscriptionGroup(ofProduct: "c") == "g2")
        #expect(catalog.subscriptionGroup(ofProduct: "z") == nil)
        #expect(catalog.effectiveSubscriptionGroup(ofProduct: "z") == "z")
        #expect(catalog.nonRenewingDuration(ofProduct: "n") == (try SubscriptionDuration(months: 1)))
        #expect(catalog.nonRenewingDuration(ofProduct: "y") == (try SubscriptionDuration(years: 1, months: 2, days: 10, hours: 2, minutes: 30)))
        #expect(catalog.nonRenewingDuration(ofProduct: "a") == nil)
        #expect(try json("{}") == .empty)
    }

    @Test func roundTripsThroughItsJSON() throws {
        let catalog = try ProductCatalog(subscriptionGroups: ["g": ["a", "b"]], nonRenewingDurations: ["n": try SubscriptionDuration(weeks: 2)])
        let encoded = try JSONEncoder().encode(catalog)
        #expect(try ProductCatalog(json: encoded) == catalog)
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""n":"P2W""#))
    }

    @Test func aProductListedTwiceIsAnError() {
        #expect(throws: ProductCatalogError.productListedTwice("a")) {
            try json(#"{"groups": {"g1": ["a"], "g2": ["b", "a"]}}"#)
        }
        #expect(throws: ProductCatalogError.productListedTwice("a")) {
            try ProductCatalog(subscriptionGroups: ["g": ["a", "a"]])
        }
        #expect(throws: ProductCatalogError.productListedTwice("a")) {
            try ProductCatalog(subscriptionGroups: ["g": ["a"]], nonRenewingDurations: ["a": try SubscriptionDuration(days: 1)])
        }
    }

    @Test func unknownKeysAndWrongShapesAreErrors() {
        #expect(throws: ProductCatalogError.unknownKey("group")) { try json(#"{"group": {}}"#) }
        #expect(throws: ProductCatalogError.self) { try json(#"{"groups": ["a"]}"#) }
        #expect(throws: ProductCatalogError.self) { try json("not json") }
        #expect(throws: ProductCatalogError.self) { try json(#"{"non_renewing": {"n": 30}}"#) }
    }

    /// A key given twice is refused: a JSON decoder keeps one of the two (the last, on Linux),
    /// which dropped group g1's first products, or a whole `groups` object, without a word.
    @Test func aKeyGivenTwiceIsAnError() throws {
        for text in [
            #"{"groups": {"g1": ["a"], "g1": ["b"]}}"#, #"{"groups": {"g1": ["a"]}, "groups": {"g2": ["b"]}}"#,
            #"{"non_renewing": {"n": "P1M", "n": "P1Y"}}"#,
        ] {
            do {
                _ = try json(text)
                Issue.record("read: \(text)")
            } catch let error as ProductCatalogError {
                guard case .malformedJSON(let detail) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(detail.contains("given twice"), "\(detail)")
            }
        }
        // The same keys in different objects are fine.
        #expect(try json(#"{"groups": {"g1": ["a"], "g2": ["b"]}, "non_renewing": {"g1": "P1M"}}"#).nonRenewingDuration(ofProduct: "g1") != nil)
    }

    @Test(arguments: ["", "P", "1M", "PT", "P1", "P1MT", "P-1M", "P1.5M", "P1M1Y", "P1D1D", "P1H", "PT1D", "P1MT1H1H", "P 1M", "p1m", "P1MT1HT", "P١M", "P100001D"])
    func strictDurationParsingRejects(_ text: String) {
        #expect(throws: ProductCatalogError.self) { try SubscriptionDuration(iso8601: text) }
    }

    @Test func durationParsingAcceptsEveryComponent() throws {
        #expect(try SubscriptionDuration(iso8601: "P1Y2M3W4DT5H6M7S") == (try SubscriptionDuration(years: 1, months: 2, weeks: 3, days: 4, hours: 5, minutes: 6, seconds: 7)))
        #expect(try SubscriptionDuration(iso8601: "PT90M").minutes == 90)
        #expect(try SubscriptionDuration(iso8601: "P0D").description == "PT0S")
        #expect(try SubscriptionDuration(months: 1, hours: 2).description == "P1MT2H")
        #expect(throws: ProductCatalogError.self) { try SubscriptionDuration(days: -1) }
        #expect(throws: ProductCatalogError.self) { try SubscriptionDuration(years: SubscriptionDuration.componentLimit + 1) }
    }

    @Test func calendarComponentsClampToTheMonthEnd() throws {
        func date(_ text: String) throws -> Date { try #require(RFC3339.parse(text)) }
        #expect(try SubscriptionDuration(months: 1).added(to: try date("2024-01-31T10:00:00Z")) == (try date("2024-02-29T10:00:00Z")))
        #expect(try SubscriptionDuration(months: 1).added(to: try date("2023-01-31T10:00:00Z")) == (try date("2023-02-28T10:00:00Z")))
        #expect(try SubscriptionDuration(years: 1).added(to: try date("2024-02-29T00:00:00Z")) == (try date("2025-02-28T00:00:00Z")))
        #expect(try SubscriptionDuration(months: 13).added(to: try date("2019-12-15T23:59:59Z")) == (try date("2021-01-15T23:59:59Z")))
        #expect(try SubscriptionDuration(weeks: 1, hours: 1).added(to: try date("2020-03-01T00:00:00Z")) == (try date("2020-03-08T01:00:00Z")))
        #expect(try SubscriptionDuration(months: 1).added(to: try date("1969-12-31T12:00:00Z")) == (try date("1970-01-31T12:00:00Z")))
    }
}
