import Foundation
@testable import ReceiptCore
import ReceiptKit
import Testing

/// One walk of the SignedData per validation (issue 29): the structure checks' reading with the
/// cache off and cold (the cache is empty, so the envelope is not read first), the envelope read
/// alone when the cache answers. Counted by ``ReceiptValidator/evaluate(_:signedDataWalks:)``
/// over every real and generated receipt, on every backend. (An input the structure checks
/// refuse is walked again for its report's inspection: not a receipt, not counted here.)
@Suite struct SignedDataWalkTests {
    static func inputs() -> [CacheAgreementTests.Input] {
        CacheAgreementTests.files(in: "real/receipts") + CacheAgreementTests.files(in: "generated/receipts")
    }

    @Test func oneWalkPerValidationCacheOffColdAndWarm() throws {
        let inputs = Self.inputs()
        #expect(inputs.count >= 20, "\(inputs.count) inputs")
        for backend in CryptoBackends.all {
            let off = try CacheAgreementTests.validator(backend, cache: false)
            let cached = try CacheAgreementTests.validator(backend, cache: true)
            var warmAnswers = 0
            for input in inputs {
                var walks = 0
                let offReport = off.evaluate(input.bytes, signedDataWalks: &walks)
                #expect(walks == 1, "\(backend.name) \(input.name), cache off: \(walks) walks")

                cached.removeCachedChains()
                walks = 0
                let coldReport = cached.evaluate(input.bytes, signedDataWalks: &walks)
                #expect(walks == 1, "\(backend.name) \(input.name), cold: \(walks) walks")

                let hits = cached.verifiedChainCacheStatistics?.accepted ?? 0
                walks = 0
                let warmReport = cached.evaluate(input.bytes, signedDataWalks: &walks)
                #expect(walks == 1, "\(backend.name) \(input.name), warm: \(walks) walks")
                if (cached.verifiedChainCacheStatistics?.accepted ?? 0) > hits { warmAnswers += 1 }

                // The count changes nothing the report says.
                for report in [coldReport, warmReport] {
                    #expect(report.isValid == offReport.isValid && report.error?.code == offReport.error?.code,
                            "\(backend.name) \(input.name)")
                }
            }
            // The warm validations were the fast path's: the one-walk count covers it.
            #expect(warmAnswers >= inputs.count / 2, "\(backend.name): \(warmAnswers) fast-path answers of \(inputs.count)")
        }
    }
}
