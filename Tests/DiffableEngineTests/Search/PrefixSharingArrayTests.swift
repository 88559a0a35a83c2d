import Dispatch
import Testing
@testable import DiffableEngine
import DiffableTestSupport

@Suite struct PrefixSharingArrayTests {
    /// Copies behave as values: random appends, writes, replacements and
    /// truncations on random copies of one array leave every other copy's
    /// elements as they were (checked against plain arrays after each op).
    @Test(arguments: 0..<40) func everyCopyKeepsItsElements(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 4242)
        var copies = [PrefixSharingArray<Int>()]
        var models: [[Int]] = [[]]
        var next = 0
        func fresh() -> Int { next += 1; return next }
        for step in 0..<300 {
            let c = Int.random(in: 0..<copies.count, using: &rng)
            switch Int.random(in: 0..<9, using: &rng) {
            case 0 where copies.count < 8:
                copies.append(copies[c]); models.append(models[c])
            case 1:
                let v = fresh(); copies[c].append(v); models[c].append(v)
            case 2:
                let values = (0..<Int.random(in: 0...20, using: &rng)).map { _ in fresh() }
                copies[c].append(contentsOf: values); models[c].append(contentsOf: values)
            case 3:
                // A sequence that does not know its length.
                let values = (0..<Int.random(in: 0...5, using: &rng)).map { _ in fresh() }
                copies[c].append(contentsOf: values.lazy.filter { _ in true }); models[c].append(contentsOf: values)
            case 4:
                let maximum = Int.random(in: 0...12, using: &rng)
                let written = Int.random(in: 0...maximum, using: &rng)
                let values = (0..<written).map { _ in fresh() }
                copies[c].appendUninitialized(maximum: maximum) { room in
                    for (k, v) in values.enumerated() { room[k] = v }
                    return written
                }
                models[c].append(contentsOf: values)
            case 5 where !models[c].isEmpty:
                let i = Int.random(in: 0..<models[c].count, using: &rng)
                let v = fresh(); copies[c][i] = v; models[c][i] = v
            case 6:
                let lo = Int.random(in: 0...models[c].count, using: &rng)
                let hi = Int.random(in: lo...models[c].count, using: &rng)
                let values = (0..<Int.random(in: 0...4, using: &rng)).map { _ in fresh() }
                copies[c].replaceSubrange(lo..<hi, with: values); models[c].replaceSubrange(lo..<hi, with: values)
            case 7:
                let end = Int.random(in: 0...models[c].count, using: &rng)
                copies[c].removeSubrange(end...); models[c].removeSubrange(end...)
            case 8:
                copies[c].reserveCapacity(models[c].count + Int.random(in: 0...40, using: &rng))
            default:
                break
            }
            for k in copies.indices {
                #expect(Array(copies[k]) == models[k], "seed \(seed) step \(step) copy \(k)")
                #expect(copies[k].withUnsafeBufferPointer { Array($0) } == models[k])
            }
        }
    }

    /// What the type is for: appending to an array that another value still
    /// holds writes after its end instead of copying the buffer; the held
    /// value keeps its elements. A second copy appending to the same prefix
    /// gets a buffer of its own.
    /// A buffer large enough to be asked for huge pages (an index's texts)
    /// holds what is written to it, at both ends and across the 2 MiB
    /// boundaries the hint is aligned to, and a copy grown past it too.
    @Test func aBufferAskedForHugePagesKeepsItsBytes() {
        let size = LargeBuffers.hugePageMinimum + 3 * (1 << 20) + 17
        var array = PrefixSharingArray<UInt8>()
        array.reserveCapacity(size)
        array.appendUninitialized(maximum: size) { room in
            for k in room.indices { room[k] = UInt8(truncatingIfNeeded: k &* 31 &+ k >> 20) }
            return size
        }
        var grown = array
        grown.append(contentsOf: [1, 2, 3])
        #expect(array.count == size)
        #expect(grown.count == size + 3)
        // Every 997th byte (a prime: it lands at every offset within the
        // pages) and the last ones.
        let probes = Array(stride(from: 0, to: size, by: 997)) + Array(size - 64..<size)
        let wrong = probes.first { array[$0] != UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 20) }
        #expect(wrong == nil)
        #expect(Array(grown[size...]) == [1, 2, 3])
        #expect(probes.allSatisfy { grown[$0] == array[$0] })
    }

    @Test func appendingToAHeldArrayDoesNotCopyIt() {
        var array = PrefixSharingArray<UInt8>()
        array.reserveCapacity(1000)
        array.append(contentsOf: Array(repeating: 7, count: 100))
        let held = array
        let base = array.withUnsafeBufferPointer { $0.baseAddress }
        array.append(contentsOf: Array(repeating: 8, count: 200))
        #expect(array.withUnsafeBufferPointer { $0.baseAddress } == base)
        #expect(Array(held) == Array(repeating: 7, count: 100))
        #expect(Array(array) == Array(repeating: 7, count: 100) + Array(repeating: 8, count: 200))

        var other = held
        other.append(9)
        #expect(other.withUnsafeBufferPointer { $0.baseAddress } != base)
        #expect(Array(other) == Array(repeating: 7, count: 100) + [9])
        #expect(Array(array) == Array(repeating: 7, count: 100) + Array(repeating: 8, count: 200))
    }

    /// Copies on two threads appending to the same prefix at once: one may
    /// extend the shared buffer, the other moves; both end with their own
    /// elements (repeated: which one wins depends on timing).
    @Test func copiesAppendingOnTwoThreadsKeepTheirOwnElements() {
        for round in 0..<200 {
            var shared = PrefixSharingArray<Int>()
            shared.reserveCapacity(4096)
            shared.append(contentsOf: 0..<100)
            let left = Box(shared), right = Box(shared)
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                let box = side == 0 ? left : right
                for k in 0..<50 { box.value.append(side * 1000 + k) }
            }
            #expect(Array(left.value) == Array(0..<100) + Array(0..<50), "round \(round)")
            #expect(Array(right.value) == Array(0..<100) + Array(1000..<1050), "round \(round)")
            #expect(Array(shared) == Array(0..<100))
        }
    }

    /// A search index carried by another holder (a deferred ranking, a match
    /// set) while the source's copy has texts appended: the holder reads its
    /// own texts, the appended copy reads all of them, and the appended
    /// copy's text bytes were not moved.
    @Test func aHeldSearchIndexKeepsItsTextsWhileTheOtherCopyGrows() {
        var rng = SplitMix64(seed: 31)
        let first = SearchFixtures.texts(count: 500, rng: &rng)
        let more = SearchFixtures.texts(count: 300, rng: &rng)
        var index = SearchIndex(texts: first)
        index.bytes.reserveCapacity(index.bytes.count * 4)
        let held = index
        let base = index.bytes.withUnsafeBufferPointer { $0.baseAddress }
        index.append(contentsOf: more)
        #expect(index.bytes.withUnsafeBufferPointer { $0.baseAddress } == base)
        #expect((0..<held.count).map { held.text(at: $0) } == first)
        #expect((0..<index.count).map { index.text(at: $0) } == first + more)
        let rebuilt = SearchIndex(texts: first + more)
        #expect(index.folded == rebuilt.folded && index.offsets == rebuilt.offsets
                && index.foldedOffsets == rebuilt.foldedOffsets && index.flags == rebuilt.flags
                && index.presence == rebuilt.presence && index.bonusMasks == rebuilt.bonusMasks
                && index.wordPairs == rebuilt.wordPairs)
    }
}

/// A mutable holder shared with a concurrent closure; each thread touches
/// only its own box.
private final class Box: @unchecked Sendable {
    var value: PrefixSharingArray<Int>
    init(_ value: PrefixSharingArray<Int>) { self.value = value }
}
