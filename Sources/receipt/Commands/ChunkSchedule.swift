#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ReceiptCore

/// The chunks of a batch shared by the worker threads that verify them: which chunk is taken next,
/// the finished ones waiting for their predecessors, and which one is emitted next.
///
/// Each worker takes the next chunk, verifies and formats it, and hands it back; whichever worker
/// hands back the chunk that is next in input order emits it, and every finished chunk after it,
/// in order, while the other workers go on verifying. So no chunk waits for a thread of Swift
/// concurrency's cooperative pool to get a core (the hand-off a task per chunk needed). A worker
/// waits only when `window` chunks are taken and not yet emitted, and either `longestWindow` are
/// or the finished chunks waiting for a predecessor hold `waitingByteBudget` bytes or more: a
/// worker that is off its core (a loaded host) holds the others back only once they are far
/// ahead, while chunks of large text (a 187-purchase receipt formats to 135 KB) keep the short
/// window, and so the memory of about `window` chunks.
final class ChunkSchedule<Chunk>: @unchecked Sendable {
    // @unchecked: every stored `var` is only read or written with `mutex` held, and `emitting`
    // lets one thread at a time call the emit function (see ``handBack(_:number:emit:)``).
    /// The lock of every stored `var` and the condition `take` waits on for the window to open.
    private let monitor = PThreadMonitor()
    private var mutex: UnsafeMutablePointer<pthread_mutex_t> { monitor.mutex }
    private var windowOpened: UnsafeMutablePointer<pthread_cond_t> { monitor.condition }
    /// How many chunks the batch has.
    let chunkCount: Int
    /// How many chunks may always be taken and not yet emitted.
    let window: Int
    /// The most chunks taken and not yet emitted.
    let longestWindow: Int
    /// Beyond `window`, chunks are taken only while the finished chunks waiting hold fewer bytes.
    let waitingByteBudget: Int
    /// The size in bytes of a finished chunk.
    private let sizeOf: @Sendable (Chunk) -> Int
    /// The bytes of the finished chunks in `finished`.
    private var waitingBytes = 0
    private var nextToTake = 0
    private var nextToEmit = 0
    private var finished: [Int: Chunk] = [:]
    private var emitting = false

    /// A schedule of `chunkCount` chunks: `window` (at least one) of them may be taken and not yet
    /// emitted, and up to `longestWindow` while the finished chunks waiting, each `sizeOf` bytes,
    /// hold fewer than `waitingByteBudget` bytes.
    init(chunkCount: Int, window: Int, longestWindow: Int, waitingByteBudget: Int, sizeOf: @escaping @Sendable (Chunk) -> Int) {
        self.chunkCount = chunkCount
        self.window = max(1, window)
        self.longestWindow = max(self.window, longestWindow)
        self.waitingByteBudget = waitingByteBudget
        self.sizeOf = sizeOf
    }

    /// A worker's loop: takes chunks by number, makes each with `make`, and hands it back (emitting
    /// it with `emit` when it is next in order, see ``handBack(_:number:emit:)``), until every
    /// chunk is taken.
    func work(make: (Int) -> Chunk, emit: (Chunk) -> Void) {
        while let number = take() {
            handBack(make(number), number: number, emit: emit)
        }
    }

    /// The number of the next chunk to make, once the window has room (see ``ChunkSchedule``); nil
    /// when every chunk is taken.
    func take() -> Int? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        // The chunk `nextToEmit` is taken whenever the window is full, and its worker does not wait
        // here before handing it back: the wait ends.
        while nextToTake < chunkCount, nextToTake - nextToEmit >= window,
              nextToTake - nextToEmit >= longestWindow || waitingBytes >= waitingByteBudget {
            pthread_cond_wait(windowOpened, mutex)
        }
        guard nextToTake < chunkCount else { return nil }
        nextToTake += 1
        return nextToTake - 1
    }

    /// Hands back the made chunk `number`. When no other thread is emitting, this one emits every
    /// finished chunk that is next in order (`emit` runs without the lock held, on one thread at a
    /// time, in chunk order, each chunk once); otherwise the thread that is emitting will.
    func handBack(_ chunk: consuming Chunk, number: Int, emit: (Chunk) -> Void) {
        let size = sizeOf(chunk)
        pthread_mutex_lock(mutex)
        finished[number] = chunk
        waitingBytes += size
        guard !emitting else {
            pthread_mutex_unlock(mutex)
            return
        }
        emitting = true
        while let ready = finished.removeValue(forKey: nextToEmit) {
            waitingBytes -= sizeOf(ready)
            pthread_mutex_unlock(mutex)
            emit(ready)
            pthread_mutex_lock(mutex)
            nextToEmit += 1
            pthread_cond_broadcast(windowOpened)
        }
        emitting = false
        pthread_mutex_unlock(mutex)
    }

    /// How many chunks have been emitted.
    var emittedCount: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return nextToEmit
    }
}
