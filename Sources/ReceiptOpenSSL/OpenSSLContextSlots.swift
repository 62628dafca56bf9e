#if OpenSSL
internal import CReceiptOpenSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The verify contexts one key keeps for the threads that verify with it: eight slots, each with
/// its own mutex and, made the first time a thread uses the slot, one `EVP_PKEY_CTX` per digest
/// over a copy of the key of the slot's own (`EVP_PKEY_dup`). A thread tries the slot its id
/// hashes to (`pthread_mutex_trylock`); when another thread holds that slot, the caller duplicates
/// the key's template context as before.
///
/// Why: a context duplicated from the shared template for every signature takes and drops
/// references on the shared key, its RSA or EC key data, the signature implementation and the
/// digest (about ten atomic operations on cache lines every validating thread writes), and RSA
/// verification read-locks the shared key's lock; a context a thread keeps, over a key of its
/// own, touches nothing another thread writes. Each slot lies on cache lines of its own.
final class OpenSSLContextSlots: @unchecked Sendable {
    // @unchecked: a slot's contexts are made, read and used only by the thread holding the slot's
    // mutex; the mutexes are set up in init and destroyed in deinit, when no thread holds one.

    /// The slots; threads whose ids hash alike share one (the later one falls back).
    static let slotCount = 8
    /// The contexts a slot keeps: one per digest the key verifies with (two at most).
    static let contextsPerSlot = 2
    /// Bytes per slot: two cache lines, so that no two slots share one.
    private static let slotBytes = 128
    private static let contextsOffset = (MemoryLayout<pthread_mutex_t>.size + 15) & ~15

    private let storage: UnsafeMutableRawPointer

    init() {
        storage = UnsafeMutableRawPointer.allocate(byteCount: Self.slotCount * Self.slotBytes, alignment: 64)
        for slot in 0..<Self.slotCount {
            let lock = mutex(slot)
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
            contexts(slot).initialize(repeating: nil, count: Self.contextsPerSlot)
        }
    }

    deinit {
        for slot in 0..<Self.slotCount {
            let held = contexts(slot)
            for index in 0..<Self.contextsPerSlot {
                if let context = held[index] { EVP_PKEY_CTX_free(context) }
            }
            held.deinitialize(count: Self.contextsPerSlot)
            pthread_mutex_destroy(mutex(slot))
            mutex(slot).deinitialize(count: 1)
        }
        storage.deallocate()
    }

    private func mutex(_ slot: Int) -> UnsafeMutablePointer<pthread_mutex_t> {
        (storage + slot * Self.slotBytes).assumingMemoryBound(to: pthread_mutex_t.self)
    }

    private func contexts(_ slot: Int) -> UnsafeMutablePointer<OpaquePointer?> {
        (storage + slot * Self.slotBytes + Self.contextsOffset).assumingMemoryBound(to: OpaquePointer?.self)
    }

    /// The calling thread's id: the address of its descriptor.
    private static var currentThreadID: UInt {
#if canImport(Darwin)
        UInt(bitPattern: pthread_self())
#else
        UInt(pthread_self())
#endif
    }

    /// The slot of a thread id, hashed to 0..<8.
    static func slot(ofThreadID id: UInt) -> Int {
        Int(truncatingIfNeeded: (UInt64(id) &* 0x9E37_79B9_7F4A_7C15) >> 61) & (slotCount - 1)
    }

    /// Runs `body` with the calling thread's context number `index` of its slot (made with `make`
    /// the first time; the slot owns and frees what `make` returns), and returns its result; `nil`
    /// when `index` is out of range, another thread holds the slot, or `make` gives `nil`.
    func withContext<Result>(_ index: Int, make: () -> OpaquePointer?, _ body: (OpaquePointer) -> Result) -> Result? {
        guard index >= 0, index < Self.contextsPerSlot else { return nil }
        let slot = Self.slot(ofThreadID: Self.currentThreadID)
        let lock = mutex(slot)
        guard pthread_mutex_trylock(lock) == 0 else { return nil }
        defer { pthread_mutex_unlock(lock) }
        let held = contexts(slot)
        if held[index] == nil { held[index] = make() }
        guard let context = held[index] else { return nil }
        return body(context)
    }
}
#endif
