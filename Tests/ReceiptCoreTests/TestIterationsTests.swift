import ReceiptTestSupport
import Testing

/// The sanitizer run's sampling of sweeps (``TestIterations/sample(_:offset:divisor:)``): every
/// item without a divisor; under one, a stride whose offsets together reach every item once.
struct TestIterationsTests {
    @Test(arguments: [0, 1, 7, 8, 9, 100])
    func theOffsetsTogetherReachEveryItemOnce(_ count: Int) {
        let items = Array(0..<count)
        #expect(TestIterations.sample(items, offset: 5, divisor: 1) == items)
        var seen: [Int] = []
        for offset in 0..<8 {
            let sample = TestIterations.sample(items, offset: offset, divisor: 8)
            #expect(sample.count <= (count + 7) / 8, "offset \(offset): \(sample)")
            #expect(sample == TestIterations.sample(items, offset: offset + 8, divisor: 8))
            #expect(sample == TestIterations.sample(items, offset: offset - 8, divisor: 8))
            seen += sample
        }
        #expect(seen.sorted() == items)
    }
}
