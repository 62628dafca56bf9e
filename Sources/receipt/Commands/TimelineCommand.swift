import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// `receipt timeline FILE --svg OUT.svg`: draw a valid receipt's purchase history.
struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Draw a valid receipt's subscription history as an SVG picture.",
        // Written out: ArgumentParser shows the single-valued options, parsed as lists
        // (SingleValuedOption), as repeatable. HelpTests holds it to the options the help lists.
        usage:
            "receipt timeline <file> [--root <cert> ...] [--xcode] [--bundle-id <id>]"
            + " [--app-version <version>] [--device-id <uuid|mac|hex>] [--backend <name>]"
            + " [--catalog <file.json>] --svg <out.svg>",
        discussion: """
            One lane per product, grouped by subscription group (--catalog, as for `entitlements`), \
            a bar per period: free trials green, introductory prices amber, the part after a \
            cancellation (refund or upgrade) hatched red. Long stretches without activity are \
            collapsed and labelled with their length, so that short sandbox renewals months apart \
            stay visible; the receipt's creation date is the dashed line. Hover a bar for its \
            transaction and dates.

            The receipt is validated first exactly as `verify` does, with the certificate chain \
            checked at its creation date.

            Exit status: 0 the picture was written, 1 the receipt is invalid, 2 usage error, 3 a \
            file could not be read or written.

            Examples:
              receipt timeline --svg history.svg app.receipt
              receipt timeline --catalog products.json --svg - app.receipt > history.svg
            """
    )

    @OptionGroup var receiptOptions: ValidatedReceiptOptions

    @Option(name: .customLong("svg"), help: ArgumentHelp("Where to write the SVG, or - for standard output.", valueName: "out.svg"))
    var outputs: [String] = []

    /// `--svg`: required, and given once (``validate()``).
    var output: String { outputs.first ?? "-" }

    func validate() throws {
        guard try SingleValuedOption.value(outputs, "--svg") != nil else {
            throw ValidationError("Missing expected argument '--svg <out.svg>'")
        }
    }

    func run() throws {
        let catalog = try receiptOptions.loadCatalog()
        let outcome = try receiptOptions.verify()
        guard outcome.report.isValid, let receipt = outcome.report.receipt else {
            let error = outcome.report.error ?? ReceiptValidationError(.malformedReceipt, "the receipt could not be read")
            StandardError.write("receipt: \(outcome.label == "-" ? "(stdin)" : outcome.label): INVALID: \(ValidatedReceiptOptions.describe(error))\n")
            throw ValidatedReceiptOptions.failureStatus(outcome).exitCode
        }
        let timeline = TimelineSVG(receipt: receipt, catalog: catalog)
        if output == "-" {
            try StandardOutput.write(timeline.svg)
            return
        }
        let path = InputPath(argument: output)
        do {
            try FileContents.write(Array(timeline.svg.utf8), to: path)
        } catch {
            throw CommandFailure(status: .unreadable, message: "\(path.label) could not be written: \(error)")
        }
        StandardError.write(
            "wrote \(path.label): \(TimelineSVG.counted(timeline.sections.flatMap(\.lanes).count, "product")), "
                + "\(TimelineSVG.counted(timeline.periodCount, "period"))\n"
        )
    }
}
