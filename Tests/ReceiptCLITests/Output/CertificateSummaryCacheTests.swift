import Foundation
import ReceiptKit
import Testing
@testable import receipt

/// Human output with the certificate summaries of a chain decoded once: the same text as decoding
/// them for every receipt.
@Suite("certificate summaries per chain")
struct CertificateSummaryCacheTests {
    @Test("a batch over several chains prints what a fresh cache prints for each receipt, also from many threads")
    func sameTextAsUncached() async throws {
        let validator = try ReceiptValidator()
        let names = try ReceiptCLI.appleReceiptNames()
        var outcomes: [VerificationOutcome] = []
        for name in names + names.reversed() {
            let report = await validator.report(contentsOf: ReceiptCLI.realReceipt(name))
            outcomes.append(VerificationOutcome(label: name, report: report))
        }
        let shared = SharedCertificateSummaries()
        var distinctChains: [[Certificate]] = []
        for outcome in outcomes {
            #expect(outcome.report.signerChain.count == 3, "\(outcome.label): leaf, intermediate, root")
            if !distinctChains.contains(outcome.report.signerChain) { distinctChains.append(outcome.report.signerChain) }
            let fresh = SharedCertificateSummaries()
            let report = HumanReport(outcome: outcome, backendName: "b")
            #expect(report.text(summaries: shared) == report.text(summaries: fresh))
            #expect(report.text(summaries: fresh).contains("Certificate chain (verified, leaf first):\n    0  "))
        }
        // The real receipts' five signing chains: leaves issued 2010, 2015, 2022 (G5), 2022 (G7), 2024.
        #expect(distinctChains.count == 5)
        #expect(distinctChains.count <= CertificateSummaryCache.capacity)
        // Formatting on several threads at once (as the runner does) gives the same text.
        let concurrent = SharedCertificateSummaries()
        let expected = outcomes.map { HumanReport(outcome: $0, backendName: "b").text(summaries: SharedCertificateSummaries()) }
        let texts = await withTaskGroup(of: (Int, String).self) { group in
            for (index, outcome) in outcomes.enumerated() {
                group.addTask { (index, HumanReport(outcome: outcome, backendName: "b").text(summaries: concurrent)) }
            }
            var texts = [String](repeating: "", count: outcomes.count)
            for await (index, text) in group { texts[index] = text }
            return texts
        }
        #expect(texts == expected)
    }

    @Test("more distinct chains than the cache holds: every lookup still describes its own chain")
    func eviction() throws {
        let validator = try ReceiptValidator()
        let chains = try ReceiptCLI.appleReceiptNames().map { validator.report(contentsOf: ReceiptCLI.realReceipt($0)).signerChain }
        var cache = CertificateSummaryCache()
        for chain in chains + chains {
            var fresh = CertificateSummaryCache()
            #expect(cache.lines(for: chain) == fresh.lines(for: chain))
            #expect(cache.lines(for: chain).count == chain.count * 2)
        }
        // A chain of certificates the decoder rejects is described as such, not dropped.
        var junk = CertificateSummaryCache()
        #expect(junk.lines(for: [Certificate(derBytes: [0x30, 0x00])]).first?.contains("undecodable") == true)
    }
}
