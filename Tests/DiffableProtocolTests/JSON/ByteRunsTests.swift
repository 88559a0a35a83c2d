import DiffableEngine
import Testing
import DiffableTestSupport
@testable import DiffableProtocol

/// The word-at-a-time searches must answer exactly what the plain byte loops
/// answer, wherever the special byte falls relative to an 8-byte word.
@Suite struct ByteRunsTests {
    private static func plainRunEnd(_ bytes: [UInt8], from: Int, end: Int) -> Int {
        var i = from
        while i < end {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { return i }
            i += 1
        }
        return end
    }

    @Test func plainStringRunEndMatchesTheByteLoop() {
        var rng = SplitMix64(seed: 0xB1735)
        // Bytes that stop a run, bytes next to them (borrow edge cases), plain ones.
        let alphabet: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x1F, 0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xC3, 0xFF,
                                 0x61, 0x41, 0x30, 0x2D]
        for _ in 0..<4000 {
            let length = Int.random(in: 0...40, using: &rng)
            var bytes = (0..<length).map { _ in UInt8(ascii: "a") + UInt8.random(in: 0...25, using: &rng) }
            for _ in 0..<Int.random(in: 0...2, using: &rng) where length > 0 {
                bytes[Int.random(in: 0..<length, using: &rng)] = alphabet.randomElement(using: &rng) ?? 0
            }
            let from = Int.random(in: 0...length, using: &rng)
            let end = Int.random(in: from...length, using: &rng)
            let fast = bytes.withUnsafeBufferPointer { ByteRuns.plainStringRunEnd($0, from: from, end: end) }
            #expect(fast == Self.plainRunEnd(bytes, from: from, end: end), "\(bytes) \(from)..<\(end)")
        }
    }

    @Test func escapeFreeRunEndMatchesTheByteLoop() {
        var rng = SplitMix64(seed: 0xE5C)
        let alphabet: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x1F, 0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0x9F, 0xA0, 0xC3, 0xFF]
        for _ in 0..<4000 {
            let length = Int.random(in: 0...40, using: &rng)
            var bytes = (0..<length).map { _ in UInt8(ascii: "a") + UInt8.random(in: 0...25, using: &rng) }
            for _ in 0..<Int.random(in: 0...3, using: &rng) where length > 0 {
                bytes[Int.random(in: 0..<length, using: &rng)] = alphabet.randomElement(using: &rng) ?? 0
            }
            let from = Int.random(in: 0...length, using: &rng)
            let end = Int.random(in: from...length, using: &rng)
            let fast = bytes.withUnsafeBufferPointer { ByteRuns.escapeFreeRunEnd($0, from: from, end: end) }
            let slow = bytes[from..<end].firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 } ?? end
            #expect(fast == slow, "\(bytes) \(from)..<\(end)")
        }
    }

    @Test func firstIndexMatchesTheByteLoop() {
        var rng = SplitMix64(seed: 0x0A0A)
        for _ in 0..<4000 {
            let length = Int.random(in: 0...40, using: &rng)
            let bytes = (0..<length).map { _ in [0x0A, 0x0B, 0x09, 0x8A, 0x61, 0x00].randomElement(using: &rng) ?? 0 } as [UInt8]
            let from = Int.random(in: 0...length, using: &rng)
            let fast = bytes.withUnsafeBufferPointer { ByteRuns.firstIndex(of: 0x0A, in: $0, from: from, end: length) }
            #expect(fast == bytes[from...].firstIndex(of: 0x0A), "\(bytes) from \(from)")
        }
    }

    @Test func idHashesProveDistinctOnlyWhenTheyAre() {
        var rng = SplitMix64(seed: 0x1D5)
        for size in [0, 1, 2, 3, 300, 1025, 5000, 70_000, 300_000] {
            let ids = (0..<size).map { "id-\($0)-\(UInt32.random(in: 0...UInt32.max, using: &rng))" }
            let distinct = IDHashes(itemsOf: [Section(id: "s", items: ids.map { Item(id: $0) })])
            #expect(distinct.provesDistinct(), "\(size) distinct ids")
            guard size >= 2 else { continue }
            let copied = Int.random(in: 0..<size, using: &rng)
            let repeated = IDHashes(itemsOf: [Section(id: "s", items: (ids + [ids[copied]]).map { Item(id: $0) })])
            #expect(!repeated.provesDistinct(), "\(size) ids with id \(copied) twice")
        }
        // Hash values the table keeps apart (0 and all ones), in and out of
        // large buckets.
        for extra in [[0, 0], [UInt64.max, UInt64.max], [0, UInt64.max], [1, 0, UInt64.max - 1]] as [[UInt64]] {
            let base = (0..<3000).map { _ in UInt64.random(in: 1...(UInt64.max - 2), using: &rng) }
            let hashes = IDHashes(hashes: base + extra)
            #expect(hashes.provesDistinct() == (Set(base + extra).count == base.count + extra.count), "\(extra)")
        }
        // Ids are their bytes: two spellings of "é" are two ids.
        let spellings = IDHashes(itemsOf: [Section(id: "s", items: [Item(id: "é"), Item(id: "e\u{301}")])])
        #expect(spellings.provesDistinct())
        let twice = IDHashes(itemsOf: [Section(id: "s", items: [Item(id: "é"), Item(id: "é")])])
        #expect(!twice.provesDistinct())
    }
}
