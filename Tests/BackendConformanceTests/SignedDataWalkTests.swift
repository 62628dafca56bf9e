import Foundation
@testable import ReceiptCore
import ReceiptKit
import ReceiptTestSupport
import Testing

/// One walk of the SignedData per validation (issue 29), in every case the validator meets: the
/// cache off, cold with an empty cache, cold with a cache holding another receipt's chain (a miss,
/// or a hit when the input shares that chain), warm (the fast path answering, or declining and
/// handing the input to the full path), and inputs the structure checks refuse (inspected from
/// the same reading). Counted by ``ReceiptValidator/evaluate(_:signedDataWalks:)`` over every
/// real and generated receipt and a hostile set, on every backend; every report equals the
/// cache-off report.
@Suite struct SignedDataWalkTests {
    static func receipts() -> [CacheAgreementTests.Input] {
        CacheAgreementTests.files(in: "real/receipts") + CacheAgreementTests.files(in: "generated/receipts")
    }

    /// Inputs the structure checks refuse, or that fail later (signature, chain, payload).
    static func hostile() -> [CacheAgreementTests.Input] {
        ["generated/hostile", "signed-data-classes", "fuzz-regressions/container", "backend-disagreements"]
            .flatMap(CacheAgreementTests.files(in:))
    }

    /// What the walk test compares between reports.
    private static func verdict(_ report: ReceiptValidationReport) -> String {
        report.isValid ? "valid" : report.error?.code.rawValue ?? "?"
    }

    /// How many validations of each case the run made, per backend.
    private struct Cases {
        var off = 0, cold = 0, coldMisses = 0, coldHits = 0, warmHits = 0, warmDeclines = 0, warmMisses = 0, refused = 0
    }

    @Test func oneWalkPerValidationInEveryCase() throws {
        let receipts = Self.receipts()
        let hostile = Self.hostile()
        #expect(receipts.count >= 20, "\(receipts.count) receipts")
        #expect(hostile.count >= 50, "\(hostile.count) hostile inputs")
        // Two warmers on different chains (the generated PKI, Apple's), so that every input meets
        // a cache holding another receipt's chain.
        let warmers = receipts.filter {
            $0.name == "generated/receipts/valid-sha256-attrs.receipt"
                || $0.name == "real/receipts/tpinapp-sandbox-sha1-2020-187iap.receipt"
        }
        #expect(warmers.count == 2)
        for (index, backend) in CryptoBackends.all.enumerated() {
            let off = try CacheAgreementTests.validator(backend, cache: false)
            let cached = try CacheAgreementTests.validator(backend, cache: true)
            var cases = Cases()
            func counted(_ validator: ReceiptValidator, _ input: CacheAgreementTests.Input, _ label: String) -> ReceiptValidationReport {
                var walks = 0
                let report = validator.evaluate(input.bytes, signedDataWalks: &walks)
                #expect(walks == 1, "\(backend.name) \(input.name), \(label): \(walks) walks")
                return report
            }
            // Every input in the plain runs; a sample under the sanitizers' divisor
            // (TestIterations), a different one for each backend.
            for input in TestIterations.sample(receipts + hostile, offset: index) {
                let expected = Self.verdict(counted(off, input, "cache off"))
                cases.off += 1
                if (try? SignedDataStructure(checking: input.bytes)) == nil { cases.refused += 1 }

                cached.removeCachedChains()
                #expect(Self.verdict(counted(cached, input, "cold, empty cache")) == expected, "\(backend.name) \(input.name)")
                cases.cold += 1

                for warmer in warmers where warmer.name != input.name {
                    cached.removeCachedChains()
                    _ = cached.evaluate(warmer.bytes)
                    guard let filled = cached.verifiedChainCacheStatistics, filled.count > 0 else {
                        Issue.record("\(backend.name): \(warmer.name) did not fill the cache")
                        continue
                    }
                    let cold = counted(cached, input, "cold, cache holding \(warmer.name)")
                    #expect(Self.verdict(cold) == expected, "\(backend.name) \(input.name) under \(warmer.name)")
                    let afterCold = cached.verifiedChainCacheStatistics ?? filled
                    if afterCold.hits > filled.hits { cases.coldHits += 1 } else { cases.coldMisses += 1 }

                    let warm = counted(cached, input, "warm, after \(warmer.name)")
                    #expect(Self.verdict(warm) == expected, "\(backend.name) \(input.name) warm after \(warmer.name)")
                    let afterWarm = cached.verifiedChainCacheStatistics ?? afterCold
                    if afterWarm.fallbacks > afterCold.fallbacks {
                        cases.warmDeclines += 1
                    } else if afterWarm.hits > afterCold.hits {
                        cases.warmHits += 1
                    } else {
                        cases.warmMisses += 1
                    }
                }
            }
            // Every case occurred, often (per backend: 158 inputs, 47 of them refused; 272 cold
            // misses and 42 cold hits under the other warmers, 72 warm answers, 23 declines).
            #expect(cases.coldMisses >= TestIterations.sampled(50), "\(backend.name): \(cases)")
            #expect(cases.coldHits >= TestIterations.sampled(5), "\(backend.name): \(cases)")
            #expect(cases.warmHits >= TestIterations.sampled(20), "\(backend.name): \(cases)")
            #expect(cases.warmDeclines >= TestIterations.sampled(5), "\(backend.name): \(cases)")
            #expect(cases.warmMisses >= TestIterations.sampled(20), "\(backend.name): \(cases)")
            #expect(cases.refused >= TestIterations.sampled(20), "\(backend.name): \(cases)")
        }
    }
}
