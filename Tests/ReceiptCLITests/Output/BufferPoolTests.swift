import Testing
@testable import receipt

/// ``BufferPool``: a buffer given back after its text was emitted keeps its storage, so that the
/// next chunk formats into memory already touched (no fresh allocation, no fresh pages).
@Suite("verify: the buffer pool")
struct BufferPoolTests {
    /// The runner's round trip: a worker formats into a taken buffer, the emitter reads the bytes
    /// in place, the buffer is given back; the next take gets the same storage, emptied, with the
    /// capacity it grew. (Given back by value, the array was still shared with the emitter's copy,
    /// and emptying it allocated new storage.)
    @Test func givenBackBufferKeepsItsStorage() {
        let pool = BufferPool()
        let first = pool.take()
        first.bytes.append(contentsOf: repeatElement(0x41, count: 1 << 20))
        let storage = first.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let capacity = first.bytes.capacity
        var emitted: [UInt8] = []
        let emit: ([UInt8]) -> Void = { text in emitted.append(contentsOf: text.suffix(3)) }
        emit(first.bytes)
        pool.giveBack(first)
        let second = pool.take()
        #expect(emitted == [0x41, 0x41, 0x41])
        #expect(second === first)
        #expect(second.bytes.isEmpty)
        #expect(second.bytes.capacity == capacity)
        #expect(second.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == storage)
    }

    /// Buffers taken while others are out are distinct, and each comes back once.
    @Test func buffersOutAtOnceAreDistinct() {
        let pool = BufferPool()
        let a = pool.take()
        let b = pool.take()
        #expect(a !== b)
        pool.giveBack(a)
        pool.giveBack(b)
        let c = pool.take()
        let d = pool.take()
        #expect(c === b)
        #expect(d === a)
        #expect(pool.take() !== a)
    }
}
