import NIOConcurrencyHelpers
import NIOCore

/// The open connections, and who makes way when there are too many (`--max-connections`).
///
/// Every connection the listener accepts is admitted here. Below the limit it simply joins. At
/// the limit it takes the place of the connection that has been idle longest (connected, or
/// answered, with no request begun since), which is closed: idle connections cannot crowd out a
/// client with a request to make, such as a load balancer's `/health`. When every connection has
/// a request in flight, the new one is closed instead; those requests end within the request
/// deadline (``ServerOptions/requestTimeout``) or are answered. The listener itself never stops
/// accepting, so nothing waits unserved in its backlog.
public final class ConnectionRegistry: Sendable {
    /// What ``admit(_:)`` decided.
    enum Admission {
        /// The connection joins; `closing` makes way for it.
        case admitted(closing: (any Channel)?)
        /// Every place is taken by a connection with a request in flight.
        case refused
    }

    private struct Entry {
        let channel: any Channel
        var isBusy: Bool
        /// When it last became idle, in admissions and answers counted so far: the smallest is
        /// the longest idle.
        var idleSince: UInt64
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var tick: UInt64 = 0
        var shed = 0
        var refused = 0
    }

    /// The most connections open at once.
    public let limit: Int
    private let state = NIOLockedValueBox(State())

    /// A registry for at most `limit` connections (at least one: a smaller limit allows one).
    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Admits `channel`, making way for it if need be, and forgets it once it has closed.
    func admit(_ channel: any Channel) -> Admission {
        let admission = state.withLockedValue { state -> Admission in
            state.tick += 1
            var closing: (any Channel)?
            if state.entries.count >= limit {
                var longestIdle: (key: ObjectIdentifier, entry: Entry)?
                for (key, entry) in state.entries where !entry.isBusy {
                    if let found = longestIdle, found.entry.idleSince <= entry.idleSince { continue }
                    longestIdle = (key, entry)
                }
                guard let longestIdle else {
                    state.refused += 1
                    return .refused
                }
                state.entries[longestIdle.key] = nil
                state.shed += 1
                closing = longestIdle.entry.channel
            }
            state.entries[ObjectIdentifier(channel)] = Entry(channel: channel, isBusy: false, idleSince: state.tick)
            return .admitted(closing: closing)
        }
        if case .admitted = admission {
            channel.closeFuture.whenComplete { _ in self.forget(channel) }
        }
        return admission
    }

    /// Marks `channel` busy (a request begun) or idle (its answers all written).
    func setBusy(_ channel: any Channel, _ isBusy: Bool) {
        state.withLockedValue { state in
            let key = ObjectIdentifier(channel)
            guard state.entries[key] != nil else { return }
            state.tick += 1
            state.entries[key]?.isBusy = isBusy
            if !isBusy { state.entries[key]?.idleSince = state.tick }
        }
    }

    private func forget(_ channel: any Channel) {
        state.withLockedValue { state in
            let key = ObjectIdentifier(channel)
            if state.entries[key]?.channel === channel { state.entries[key] = nil }
        }
    }

    /// The connections open now, and how many of them have a request in flight.
    public var counts: (open: Int, busy: Int) {
        state.withLockedValue { state in (state.entries.count, state.entries.values.filter(\.isBusy).count) }
    }

    /// The idle connections closed to make way for new ones, and the new ones closed because
    /// every place was busy, so far.
    public var turnedAway: (shed: Int, refused: Int) {
        state.withLockedValue { ($0.shed, $0.refused) }
    }
}
