#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The time axis of `receipt timeline`: linear where something happens, with every long idle
/// stretch collapsed to a fixed-width break, so that five-minute sandbox renewals months apart
/// are still bars a person can see.
struct TimelineAxis {
    /// A stretch of time drawn linearly between two x positions.
    struct Segment {
        var start: Double
        var end: Double
        var x0: Double
        var x1: Double
    }

    /// A collapsed stretch of idle time.
    struct Break {
        /// Where the break is drawn (its centre).
        var x: Double
        /// How long the collapsed stretch is, in seconds.
        var seconds: Double
    }

    /// The linear stretches, in time order.
    private(set) var segments: [Segment] = []
    /// The collapsed stretches, in time order.
    private(set) var breaks: [Break] = []

    /// The width of the axis, from `x0`.
    private(set) var width = 0.0

    /// Lays out `intervals` (seconds since 1970, start ≤ end) from `x0`. An idle stretch longer
    /// than a tenth of the busy time becomes a break `breakWidth` wide. The axis is as wide as it
    /// takes to draw `finest` seconds (the typical period) six pixels wide, within `widths`.
    init(
        intervals: [(start: Double, end: Double)], x0: Double, finest: Double, widths: ClosedRange<Double>,
        breakWidth: Double = 16
    ) {
        guard !intervals.isEmpty else { return }
        // A minute either side gives an instant (a purchase without a period, the creation date)
        // a visible width without swallowing the idle stretches around it.
        let pad = 60.0
        let sorted = intervals.map { (start: $0.start - pad, end: max($0.end, $0.start) + pad) }.sorted { $0.start < $1.start }
        var busy: [(start: Double, end: Double)] = []
        for interval in sorted {
            if let previous = busy.last, interval.start <= previous.end {
                busy[busy.count - 1].end = max(previous.end, interval.end)
            } else {
                busy.append(interval)
            }
        }
        let busyTotal = busy.reduce(0) { $0 + ($1.end - $1.start) }
        let threshold = max(busyTotal * 0.1, 60)
        // Short idle stretches stay linear: join them to their neighbours.
        var stretches: [(start: Double, end: Double)] = []
        for interval in busy {
            if let previous = stretches.last, interval.start - previous.end <= threshold {
                stretches[stretches.count - 1].end = interval.end
            } else {
                stretches.append(interval)
            }
        }
        let linearTotal = stretches.reduce(0) { $0 + ($1.end - $1.start) }
        let breaksWidth = breakWidth * Double(stretches.count - 1)
        width = min(max(linearTotal / max(finest, 1) * 6 + breaksWidth, widths.lowerBound), widths.upperBound)
        let linearWidth = max(width - breaksWidth, width * 0.2)
        var x = x0
        for (index, stretch) in stretches.enumerated() {
            if index > 0 {
                breaks.append(Break(x: x + breakWidth / 2, seconds: stretch.start - stretches[index - 1].end))
                x += breakWidth
            }
            let span = linearWidth * (stretch.end - stretch.start) / linearTotal
            segments.append(Segment(start: stretch.start, end: stretch.end, x0: x, x1: x + span))
            x += span
        }
    }

    /// The x position of `time`: inside its stretch, or the nearest edge.
    func x(_ time: Double) -> Double {
        guard let first = segments.first else { return 0 }
        var position = first.x0
        for segment in segments {
            if time < segment.start { return position }
            if time <= segment.end {
                let fraction = segment.end > segment.start ? (time - segment.start) / (segment.end - segment.start) : 0
                return segment.x0 + fraction * (segment.x1 - segment.x0)
            }
            position = segment.x1
        }
        return position
    }

    /// `3d 4h`, `5h 10m`, `12m`: a break's length for its label.
    static func shortDuration(_ seconds: Double) -> String {
        let minutes = Int(seconds / 60)
        let (days, hours, rest) = (minutes / 1_440, (minutes % 1_440) / 60, minutes % 60)
        if days >= 10 { return "\(days)d" }
        if days > 0 { return hours > 0 ? "\(days)d \(hours)h" : "\(days)d" }
        if hours > 0 { return rest > 0 ? "\(hours)h \(rest)m" : "\(hours)h" }
        return "\(rest)m"
    }
}
