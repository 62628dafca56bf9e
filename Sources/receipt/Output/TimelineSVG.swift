#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// The picture `receipt timeline` draws: one lane per product, grouped by subscription group, a
/// bar per period (free trial and introductory periods in their own colours, the part after a
/// cancellation hatched red), a dot per purchase without a period, collapsed idle stretches
/// marked with their length, and the receipt's creation date as a dashed line.
struct TimelineSVG {
    /// One product's row.
    struct Lane {
        var productID: String
        var kind: ProductKind
        var purchases: [InAppPurchase]
        var duration: SubscriptionDuration?
    }

    /// A block of lanes under one heading.
    struct Section {
        var title: String
        var lanes: [Lane]
    }

    let receipt: Receipt
    let sections: [Section]

    private static let margin = 16.0
    private static let laneHeight = 26.0
    private static let sectionHeight = 24.0
    private static let top = 78.0

    /// Groups the receipt's products as ``Entitlements`` does with `catalog`.
    init(receipt: Receipt, catalog: ProductCatalog) {
        self.receipt = receipt
        // Every purchase counts for the picture, so ask about a moment after all of them.
        let entitlements = receipt.entitlements(at: .distantFuture, catalog: catalog)
        func lane(_ product: ProductEntitlement) -> Lane {
            Lane(
                productID: product.productID, kind: product.kind, purchases: product.purchases.reversed(),
                duration: product.kind == .nonRenewing ? catalog.nonRenewingDuration(ofProduct: product.productID) : nil
            )
        }
        // A subscription that no catalog group names is a group of its own, named after the
        // product; those share one section rather than a heading each.
        let (alone, named) = entitlements.subscriptionGroups.reduce(into: ([SubscriptionGroupEntitlement](), [SubscriptionGroupEntitlement]())) {
            if $1.productIDs == [$1.groupID] { $0.0.append($1) } else { $0.1.append($1) }
        }
        var sections = named.map { group in
            Section(title: "Group \(group.groupID)", lanes: group.productIDs.compactMap(entitlements.product).map(lane))
        }
        sections.append(Section(
            title: "Subscriptions in no --catalog group",
            lanes: alone.flatMap(\.productIDs).compactMap(entitlements.product).map(lane)
        ))
        let others = entitlements.products.filter { $0.subscriptionGroupID == nil }
        if !others.isEmpty {
            sections.append(Section(title: "Other products", lanes: others.map(lane)))
        }
        self.sections = sections.filter { !$0.lanes.isEmpty }
    }

    /// "1 period", "2 periods": a count and its noun, plural unless the count is one.
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// How many bars the picture has: one per purchase with a period.
    var periodCount: Int {
        sections.flatMap(\.lanes).reduce(0) { count, lane in count + lane.purchases.filter { period(of: $0, in: lane) != nil }.count }
    }

    /// The start and end (seconds since 1970) of a purchase's period, when it has one.
    private func period(of purchase: InAppPurchase, in lane: Lane) -> (start: Double, end: Double)? {
        guard let start = purchase.purchaseDate else { return nil }
        if let expires = purchase.expiresDate {
            return (start.timeIntervalSince1970, max(expires, start).timeIntervalSince1970)
        }
        if let duration = lane.duration {
            return (start.timeIntervalSince1970, duration.added(to: start).timeIntervalSince1970)
        }
        return nil
    }

    /// The SVG document.
    var svg: String {
        let lanes = sections.flatMap(\.lanes)
        let longestLabel = lanes.map(\.productID.count).max() ?? 10
        // Section titles are bold 12 px, about 7.4 px a character; lane labels 11 px, indented.
        let longestTitle = sections.map(\.title.count).max() ?? 0
        let labelColumn = max(Double(longestLabel) * 6.6 + 24, Double(longestTitle) * 7.4 + 12, 140)
        let plotX0 = Self.margin + min(labelColumn, 380)

        var intervals: [(start: Double, end: Double)] = []
        for lane in lanes {
            for purchase in lane.purchases {
                if let period = period(of: purchase, in: lane) {
                    intervals.append(period)
                } else if let start = purchase.purchaseDate?.timeIntervalSince1970 {
                    intervals.append((start, start))
                }
                if let cancelled = purchase.cancellationDate?.timeIntervalSince1970 { intervals.append((cancelled, cancelled)) }
            }
        }
        let created = receipt.creationDate?.timeIntervalSince1970
        if let created { intervals.append((created, created)) }
        let lengths = intervals.map { $0.end - $0.start }.filter { $0 > 0 }.sorted()
        let finest = lengths.isEmpty ? 3_600 : lengths[lengths.count / 4]
        // Eight pixels inside either end of the lanes, so that a dot at the first or last moment is whole.
        let axis = TimelineAxis(intervals: intervals, x0: plotX0 + 8, finest: finest, widths: 900...4_000)
        let plotWidth = axis.width + 16
        let width = plotX0 + plotWidth + Self.margin

        var body: [String] = []
        var y = Self.top
        for section in sections {
            body.append(#"<text class="section" x="\#(Self.margin)" y="\#(y + 16)">\#(Self.escape(section.title))</text>"#)
            y += Self.sectionHeight
            for lane in section.lanes {
                body.append(contentsOf: draw(lane, y: y, plotX0: plotX0, plotWidth: plotWidth, axis: axis))
                y += Self.laneHeight
            }
        }
        let plotBottom = y + 4
        var overlay: [String] = []
        for gap in axis.breaks {
            overlay.append(#"<rect class="break" x="\#(Self.fixed(gap.x - 5))" y="\#(Self.top - 4)" width="10" height="\#(Self.fixed(plotBottom - Self.top + 4))"><title>\#(TimelineAxis.shortDuration(gap.seconds)) without activity, not to scale</title></rect>"#)
            overlay.append(#"<text class="break-label" transform="translate(\#(Self.fixed(gap.x - 3)),\#(Self.fixed(Self.top))) rotate(90)">\#(TimelineAxis.shortDuration(gap.seconds))</text>"#)
        }
        overlay.append(contentsOf: axisLabels(axis, y: plotBottom + 46))
        if let created, let creationDate = receipt.creationDate {
            let x = Self.fixed(axis.x(created))
            overlay.append(#"<line class="created" x1="\#(x)" y1="\#(Self.top - 8)" x2="\#(x)" y2="\#(Self.fixed(plotBottom))"><title>receipt created \#(RFC3339.string(from: creationDate))</title></line>"#)
            overlay.append(#"<text class="created-label" x="\#(x)" y="\#(Self.top - 12)" text-anchor="end">receipt created \#(RFC3339.string(from: creationDate)) ▾</text>"#)
        }
        let height = plotBottom + 130
        let title = "\(receipt.bundleID ?? "receipt") — \(Self.counted(receipt.inAppPurchases.count, "purchase")), \(Self.counted(periodCount, "period"))"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.fixed(width))" height="\(Self.fixed(height))" viewBox="0 0 \(Self.fixed(width)) \(Self.fixed(height))" font-family="Helvetica, Arial, sans-serif">
            <title>\(Self.escape(title))</title>
            <defs><pattern id="refund-hatch" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="4" height="4" fill="#fde2e2"/><line x1="0" y1="0" x2="0" y2="4" stroke="#c62828" stroke-width="2"/></pattern></defs>
            <style>
            .heading { font-size: 15px; font-weight: bold; fill: #222; }
            .section { font-size: 12px; font-weight: bold; fill: #444; }
            .lane-label { font-size: 11px; fill: #222; }
            .lane { fill: #f4f6f8; }
            .period { stroke: #ffffff; stroke-width: 0.5; }
            .regular { fill: #3b73b9; }
            .trial { fill: #2e9d4f; }
            .intro { fill: #e39b16; }
            .refund { fill: url(#refund-hatch); }
            .cancel { stroke: #c62828; stroke-width: 2; }
            .purchase { fill: #6a3fb5; }
            .break { fill: #ffffff; stroke: #b0b6bd; stroke-dasharray: 2 2; }
            .break-label { font-size: 9px; fill: #6b7280; }
            .created { stroke: #111; stroke-width: 1.2; stroke-dasharray: 5 3; }
            .created-label { font-size: 10px; fill: #111; }
            .axis { stroke: #555; }
            .tick { font-size: 9px; fill: #555; }
            .legend { font-size: 11px; fill: #333; }
            </style>
            <text class="heading" x="\(Self.margin)" y="22">\(Self.escape(title))</text>
            \(legend(y: 42))
            \(body.joined(separator: "\n"))
            <line class="axis" x1="\(Self.fixed(plotX0))" y1="\(Self.fixed(plotBottom))" x2="\(Self.fixed(plotX0 + plotWidth))" y2="\(Self.fixed(plotBottom))"/>
            \(overlay.joined(separator: "\n"))
            </svg>

            """
    }

    private func draw(_ lane: Lane, y: Double, plotX0: Double, plotWidth: Double, axis: TimelineAxis) -> [String] {
        var elements = [
            #"<rect class="lane" x="\#(Self.fixed(plotX0))" y="\#(Self.fixed(y + 2))" width="\#(Self.fixed(plotWidth))" height="\#(Self.fixed(Self.laneHeight - 4))"/>"#,
            #"<text class="lane-label" x="\#(Self.margin + 8)" y="\#(Self.fixed(y + 17))">\#(Self.escape(lane.productID))<title>\#(lane.kind.rawValue)</title></text>"#,
        ]
        let barY = Self.fixed(y + 6)
        let barHeight = Self.fixed(Self.laneHeight - 12)
        for purchase in lane.purchases {
            let transaction = purchase.transactionID ?? "?"
            guard let period = period(of: purchase, in: lane) else {
                guard let start = purchase.purchaseDate else { continue }
                elements.append(#"<circle class="purchase" data-transaction-id="\#(Self.escape(transaction))" cx="\#(Self.fixed(axis.x(start.timeIntervalSince1970)))" cy="\#(Self.fixed(y + Self.laneHeight / 2))" r="4"><title>\#(Self.escape("\(lane.productID) — transaction \(transaction) — bought \(RFC3339.string(from: start))"))</title></circle>"#)
                if let cancelled = purchase.cancellationDate { elements.append(cancelMark(cancelled, y: y, axis: axis)) }
                continue
            }
            let x0 = axis.x(period.start)
            let x1 = max(axis.x(period.end), x0 + 2)
            let style = purchase.isTrialPeriod == true ? "trial" : purchase.isInIntroOfferPeriod == true ? "intro" : "regular"
            let label = style == "trial" ? " — free trial" : style == "intro" ? " — introductory price" : ""
            var tooltip = "\(lane.productID) — transaction \(transaction) — \(RFC3339.string(from: Date(timeIntervalSince1970: period.start))) → \(RFC3339.string(from: Date(timeIntervalSince1970: period.end)))\(label)"
            if let cancelled = purchase.cancellationDate { tooltip += " — cancelled \(RFC3339.string(from: cancelled))" }
            elements.append(#"<rect class="period \#(style)" data-transaction-id="\#(Self.escape(transaction))" x="\#(Self.fixed(x0))" y="\#(barY)" width="\#(Self.fixed(x1 - x0))" height="\#(barHeight)"><title>\#(Self.escape(tooltip))</title></rect>"#)
            if let cancelled = purchase.cancellationDate {
                let cx = min(max(axis.x(cancelled.timeIntervalSince1970), x0), x1)
                if cx < x1 {
                    elements.append(#"<rect class="refund" x="\#(Self.fixed(cx))" y="\#(barY)" width="\#(Self.fixed(x1 - cx))" height="\#(barHeight)"/>"#)
                }
                elements.append(cancelMark(cancelled, y: y, axis: axis))
            }
        }
        return elements
    }

    private func cancelMark(_ date: Date, y: Double, axis: TimelineAxis) -> String {
        let x = Self.fixed(axis.x(date.timeIntervalSince1970))
        return #"<line class="cancel" x1="\#(x)" y1="\#(Self.fixed(y + 2))" x2="\#(x)" y2="\#(Self.fixed(y + Self.laneHeight - 2))"><title>cancelled (refund or upgrade) \#(RFC3339.string(from: date))</title></line>"#
    }

    private func legend(y: Double) -> String {
        let items: [(String, String)] = [
            (#"<rect class="regular" width="14" height="10"/>"#, "period"),
            (#"<rect class="trial" width="14" height="10"/>"#, "free trial"),
            (#"<rect class="intro" width="14" height="10"/>"#, "introductory price"),
            (#"<rect class="refund" width="14" height="10"/><line class="cancel" x1="0" y1="-2" x2="0" y2="12"/>"#, "after a cancellation (refund or upgrade)"),
            (#"<circle class="purchase" cx="7" cy="5" r="4"/>"#, "purchase without a period"),
            (#"<rect class="break" width="10" height="10"/>"#, "idle time, not to scale"),
        ]
        var x = Self.margin
        var parts: [String] = []
        for (symbol, text) in items {
            parts.append(#"<g transform="translate(\#(Self.fixed(x)),\#(Self.fixed(y - 9)))">\#(symbol)<text class="legend" x="20" y="9">\#(text)</text></g>"#)
            x += 34 + Double(text.count) * 5.6
        }
        return parts.joined(separator: "\n")
    }

    /// A date label at the start of every linear stretch (and the end of the last), skipping
    /// labels that would overlap the previous one.
    private func axisLabels(_ axis: TimelineAxis, y: Double) -> [String] {
        var labels: [String] = []
        var lastX = -Double.infinity
        var lastDay = ""
        var marks = axis.segments.map { ($0.x0, $0.start) }
        if let last = axis.segments.last { marks.append((last.x1, last.end)) }
        for (x, time) in marks where x - lastX >= 24 {
            let text = RFC3339.string(from: Date(timeIntervalSince1970: time.rounded()))
            let day = String(text.prefix(10))
            let shown = day == lastDay ? String(text.dropFirst(11).prefix(5)) : day + " " + text.dropFirst(11).prefix(5)
            labels.append(#"<line class="axis" x1="\#(Self.fixed(x))" y1="\#(Self.fixed(y - 46))" x2="\#(Self.fixed(x))" y2="\#(Self.fixed(y - 40))"/>"#)
            labels.append(#"<text class="tick" text-anchor="end" transform="translate(\#(Self.fixed(x + 3)),\#(Self.fixed(y - 36))) rotate(-55)">\#(shown)</text>"#)
            lastX = x
            lastDay = day
        }
        return labels
    }

    /// A coordinate with at most two decimals.
    private static func fixed(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// Text safe inside an element or an attribute.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
