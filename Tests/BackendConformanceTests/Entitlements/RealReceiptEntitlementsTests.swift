import Foundation
import ReceiptKit
import Testing

/// Entitlements of real Apple receipts, validated by every compiled-in backend. The expected
/// values were read by hand from the dumped purchases in `Fixtures/real/expected/<name>.json`.
@Suite struct RealReceiptEntitlementsTests {
    static let lite = "com.nutcallalert.inapp.lite"
    static let pro = "com.nutcallalert.inapp.pro"
    static let optimum = "com.nutcallalert.inapp.optimum"
    /// The 187-purchase receipt's three products share one original transaction id: they are one
    /// subscription group in the app.
    static let nutcallCatalog = Result { try ProductCatalog(subscriptionGroups: ["nutcall": [lite, pro, optimum]]) }

    static func date(_ text: String) throws -> Date { try #require(RFC3339.parse(text)) }

    static func validated(_ name: String, _ backend: any CryptoBackend, xcode: Bool = false) throws -> ValidatedReceipt {
        var configuration = ReceiptValidator.Configuration()
        configuration.acceptsStoreKitTestReceipts = xcode
        let validator = try ReceiptValidator(backend: backend, configuration: configuration)
        return try validator.validate(BackendFixtures.bytes("real/receipts/\(name).receipt"))
    }

    static func stress(_ backend: any CryptoBackend) throws -> ValidatedReceipt {
        try validated("tpinapp-sandbox-sha1-2020-187iap", backend)
    }

    @Test(arguments: BackendFixtures.backends)
    func stressReceiptAtItsCreationDate(_ backend: BackendCase) throws {
        let receipt = try Self.stress(backend.backend)
        let entitlements = receipt.entitlements(at: try Self.date("2020-05-06T18:28:49Z"))
        #expect(entitlements.products.map(\.productID) == [Self.lite, Self.optimum, Self.pro])
        #expect(entitlements.products.map(\.purchases.count) == [32, 116, 39])
        #expect(entitlements.products.allSatisfy { $0.kind == .autoRenewable })
        #expect(entitlements.activeProductIDs == [Self.pro])
        let pro = try #require(entitlements.product(Self.pro))
        #expect(pro.latestTransaction?.transactionID == "1000000661019370")
        #expect(pro.activePeriod?.transactionID == "1000000661019370")
        #expect(pro.expiresDate == (try Self.date("2020-05-06T18:31:31Z")))
        #expect(!pro.isInTrialPeriod && !pro.isInIntroOfferPeriod && !pro.isRefunded)
        #expect(entitlements.product(Self.optimum)?.latestTransaction?.transactionID == "1000000642741397")
        #expect(entitlements.product(Self.optimum)?.expiresDate == nil)
        #expect(entitlements.product(Self.lite)?.latestTransaction?.transactionID == "1000000637840714")
        // Without a catalogue every product is its own group; only optimum ever had a trial.
        #expect(entitlements.subscriptionGroups.map(\.groupID) == [Self.lite, Self.optimum, Self.pro])
        #expect(entitlements.subscriptionGroups.map(\.activeProductID) == [nil, nil, Self.pro])
        #expect(entitlements.subscriptionGroups.map(\.isEligibleForIntroductoryOffer) == [true, false, true])
        #expect(entitlements.originalApplicationVersion == "1.0")
        #expect(entitlements.purchasedBefore(version: "2") == .undetermined(.sandbox))
        // Newest first: purchase dates never increase along the list.
        for product in entitlements.products {
            let dates = product.purchases.compactMap(\.purchaseDate)
            #expect(zip(dates, dates.dropFirst()).allSatisfy { $0 >= $1 })
        }
    }

    @Test(arguments: BackendFixtures.backends)
    func stressReceiptBetweenPeriods(_ backend: BackendCase) throws {
        let receipt = try Self.stress(backend.backend)
        let entitlements = receipt.entitlements(at: try Self.date("2019-12-20T00:00:00Z"), catalog: try Self.nutcallCatalog.get())
        #expect(entitlements.activeProductIDs == [])
        #expect(entitlements.products.map(\.purchases.count) == [0, 6, 5], "lite was first bought on 2019-12-26")
        #expect(entitlements.product(Self.lite)?.latestTransaction == nil)
        #expect(entitlements.product(Self.pro)?.latestTransaction?.transactionID == "1000000637840709")
        #expect(entitlements.product(Self.optimum)?.latestTransaction?.transactionID == "1000000637840751")
        #expect(entitlements.subscriptionGroups.map(\.groupID) == ["nutcall"])
        #expect(entitlements.subscriptionGroup("nutcall")?.productIDs == [Self.lite, Self.pro, Self.optimum])
        #expect(entitlements.subscriptionGroup("nutcall")?.activeProductID == nil)
        #expect(entitlements.subscriptionGroup("nutcall")?.isEligibleForIntroductoryOffer == true)
    }

    @Test(arguments: BackendFixtures.backends)
    func stressReceiptAfterItsLastPeriod(_ backend: BackendCase) throws {
        let receipt = try Self.stress(backend.backend)
        let entitlements = receipt.entitlements(at: try Self.date("2020-06-01T00:00:00Z"), catalog: try Self.nutcallCatalog.get())
        #expect(entitlements.activeProductIDs == [])
        #expect(entitlements.products.map(\.purchases.count) == [32, 116, 39])
        #expect(entitlements.subscriptionGroup("nutcall")?.activeProductID == nil)
        #expect(entitlements.subscriptionGroup("nutcall")?.isEligibleForIntroductoryOffer == false)
        #expect(entitlements.product(Self.pro)?.latestTransaction?.transactionID == "1000000661019370")
    }

    /// 2019-12-26 00:15:00: lite (00:10:12-00:15:12), optimum (00:11:18-00:16:18) and pro
    /// (00:14:54-00:19:54) all cover the moment; pro was bought last, so it is the upgrade.
    @Test(arguments: BackendFixtures.backends)
    func stressReceiptOverlappingPeriodsResolveToTheUpgrade(_ backend: BackendCase) throws {
        let receipt = try Self.stress(backend.backend)
        let moment = try Self.date("2019-12-26T00:15:00Z")
        let grouped = receipt.entitlements(at: moment, catalog: try Self.nutcallCatalog.get())
        #expect(grouped.subscriptionGroup("nutcall")?.activeProductID == Self.pro)
        #expect(grouped.activeProductIDs == [Self.pro])
        #expect(grouped.product(Self.pro)?.expiresDate == (try Self.date("2019-12-26T00:19:54Z")))
        #expect(grouped.product(Self.lite)?.activePeriod?.transactionID == "1000000637840633")
        #expect(grouped.product(Self.lite)?.supersedingProductID == Self.pro)
        #expect(grouped.product(Self.optimum)?.activePeriod?.transactionID == "1000000637840594")
        #expect(grouped.product(Self.optimum)?.supersedingProductID == Self.pro)

        let ungrouped = receipt.entitlements(at: moment)
        #expect(ungrouped.activeProductIDs == [Self.lite, Self.optimum, Self.pro], "three groups of one each")

        // 15:50:00 the same day: pro 15:47:18-15:52:18 and optimum 15:47:59-15:52:59; optimum is newer.
        let later = receipt.entitlements(at: try Self.date("2019-12-26T15:50:00Z"), catalog: try Self.nutcallCatalog.get())
        #expect(later.subscriptionGroup("nutcall")?.activeProductID == Self.optimum)
        #expect(later.product(Self.optimum)?.latestTransaction?.transactionID == "1000000637840617")
        #expect(later.product(Self.pro)?.supersedingProductID == Self.optimum)
    }

    /// optimum's only trial period: 2020-03-10 17:02:47-17:06:47 (transaction 1000000637840616).
    @Test(arguments: BackendFixtures.backends)
    func stressReceiptTrialPeriodAndEligibility(_ backend: BackendCase) throws {
        let receipt = try Self.stress(backend.backend)
        let catalog = try Self.nutcallCatalog.get()
        let before = receipt.entitlements(at: try Self.date("2020-03-10T17:00:00Z"), catalog: catalog)
        #expect(before.activeProductIDs == [])
        #expect(before.subscriptionGroup("nutcall")?.isEligibleForIntroductoryOffer == true)

        let during = receipt.entitlements(at: try Self.date("2020-03-10T17:05:00Z"), catalog: catalog)
        let optimum = try #require(during.product(Self.optimum))
        #expect(optimum.isActive && optimum.isInTrialPeriod && !optimum.isInIntroOfferPeriod)
        #expect(optimum.activePeriod?.transactionID == "1000000637840616")
        #expect(optimum.expiresDate == (try Self.date("2020-03-10T17:06:47Z")))
        #expect(optimum.purchases.count == 96)
        #expect(during.subscriptionGroup("nutcall")?.isEligibleForIntroductoryOffer == false)

        let after = receipt.entitlements(at: try Self.date("2020-03-10T17:07:00Z"), catalog: catalog)
        #expect(after.product(Self.optimum)?.isActive == true)
        #expect(after.product(Self.optimum)?.isInTrialPeriod == false)
        #expect(after.product(Self.optimum)?.activePeriod?.transactionID == "1000000637840671")
    }

    /// Every Xcode StoreKit-testing receipt, at its creation date and a week later.
    @Test(arguments: BackendFixtures.backends)
    func xcodeReceipts(_ backend: BackendCase) throws {
        let empty = try Self.validated("apple-xcode-2023-empty", backend.backend, xcode: true)
        let emptyEntitlements = empty.entitlements(at: try Self.date("2023-10-19T01:18:54Z"))
        #expect(emptyEntitlements.products.isEmpty && emptyEntitlements.subscriptionGroups.isEmpty)
        #expect(emptyEntitlements.purchasedBefore(version: "1.0") == .undetermined(.xcode))

        // pass.premium: no product type; an expiry makes it auto-renewable. Bought 01:45:36 in an
        // introductory period until 2023-11-19T01:45:36Z.
        let apple = try Self.validated("apple-xcode-2023-with-transaction", backend.backend, xcode: true)
        let premium = try #require(apple.entitlements(at: try Self.date("2023-10-19T01:45:40Z")).product("pass.premium"))
        #expect(premium.kind == .autoRenewable && premium.isActive && premium.isInIntroOfferPeriod && !premium.isInTrialPeriod)
        #expect(premium.expiresDate == (try Self.date("2023-11-19T01:45:36Z")))
        #expect(apple.entitlements(at: try Self.date("2023-10-19T01:45:40Z")).subscriptionGroup("pass.premium")?.isEligibleForIntroductoryOffer == false)
        #expect(apple.entitlements(at: try Self.date("2023-11-19T01:45:36Z")).activeProductIDs == [], "the expiry itself is outside the period")

        // Bought at its creation date (14:29:30+0300), one year.
        let kvitto = try Self.validated("kvitto-xcode-2020-1iap", backend.backend, xcode: true)
        let atCreation = kvitto.entitlements(at: try Self.date("2020-10-16T11:29:30Z"))
        #expect(atCreation.activeProductIDs == ["com.rd.eehelper.pro_subscription"])
        #expect(atCreation.product("com.rd.eehelper.pro_subscription")?.expiresDate == (try Self.date("2021-10-16T11:29:30Z")))
        #expect(atCreation.subscriptionGroups.map(\.isEligibleForIntroductoryOffer) == [true])
        #expect(atCreation.purchasedBefore(version: "2") == .undetermined(.xcode))

        // Created 22:38:45+0300 (19:38:45Z) but its purchase says 22:29:47Z: at the creation date
        // the purchase has not happened yet.
        let tpin = try Self.validated("tpinapp-xcode-2021-no-orig-purchase-date", backend.backend, xcode: true)
        let early = tpin.entitlements(at: try Self.date("2021-04-03T19:38:45Z"))
        #expect(early.product(Self.optimum)?.purchases.isEmpty == true)
        #expect(early.activeProductIDs == [])
        let weekLater = tpin.entitlements(at: try Self.date("2021-04-10T00:00:00Z"))
        #expect(weekLater.activeProductIDs == [Self.optimum])
        #expect(weekLater.product(Self.optimum)?.expiresDate == (try Self.date("2021-05-03T22:29:47Z")))
    }

    /// Receipts with non-consumables, a consumable and production original versions.
    @Test(arguments: BackendFixtures.backends)
    func productionReceiptsAndOtherKinds(_ backend: BackendCase) throws {
        // MindNode macOS 2023: two non-consumables (2017) and a yearly subscription that started
        // with a trial on 2021-09-10 and expired 2022-09-24; original version 5.0 (marketing).
        let mindnode = try Self.validated("aiv-production-macos-mindnode-g5-sha256-2023-3iap", backend.backend)
        let entitlements = mindnode.entitlements(at: try Self.date("2023-08-28T10:24:05Z"))
        let prefix = "com.ideasoncanvas.mindnode.macos."
        #expect(entitlements.activeProductIDs == [prefix + "iap.fullversionfree", prefix + "iap.trial"])
        #expect(entitlements.product(prefix + "iap.trial")?.kind == .nonConsumable)
        #expect(entitlements.product(prefix + "subscription.yearly")?.isActive == false)
        #expect(entitlements.subscriptionGroup(prefix + "subscription.yearly")?.isEligibleForIntroductoryOffer == false)
        #expect(entitlements.purchasedBefore(version: "5.0") == .purchasedAtOrAfter)
        #expect(entitlements.purchasedBefore(version: "5.0.1") == .purchasedBefore)
        #expect(entitlements.purchasedBefore(version: "4.9") == .purchasedAtOrAfter)
        let inTrial = mindnode.entitlements(at: try Self.date("2021-09-11T00:00:00Z"))
        #expect(inTrial.product(prefix + "subscription.yearly")?.isInTrialPeriod == true)

        // Watch app 2020: original build 31.12.1 (iOS: CFBundleVersion).
        let watch = try Self.validated("tpinapp-production-sha1-2020-1iap-watch", backend.backend)
        #expect(watch.receipt.purchasedBefore(version: "31.12.10") == .purchasedBefore)
        #expect(watch.receipt.purchasedBefore(version: "31.12") == .purchasedAtOrAfter)
        #expect(watch.receipt.purchasedBefore(version: "32") == .purchasedBefore)
        #expect(watch.entitlements(at: try Self.date("2020-09-21T05:35:19Z")).activeProductIDs == ["CYCLEMAPS_PREMIUM"])

        // 2015 sandbox: a consumable is never "active"; "monthly" renewed every five minutes.
        let mixed = try Self.validated("aiv-sandbox-sha1-2015-7iap-expiredcert", backend.backend)
        let mixedAt = mixed.entitlements(at: try Self.date("2015-08-10T07:10:00Z"))
        #expect(mixedAt.product("consumable")?.kind == .consumable)
        #expect(mixedAt.product("consumable")?.isActive == false)
        #expect(mixedAt.product("consumable")?.purchases.count == 1)
        #expect(mixedAt.activeProductIDs == ["monthly"])
        #expect(mixedAt.product("monthly")?.activePeriod?.transactionID == "1000000166967484")
    }
}
