/// A quick proof that a snapshot has no duplicate item ids, from 64-bit
/// hashes of the ids' bytes, read from the items (the daemon checks a
/// decoded snapshot with it: `SnapshotCodec.validated`).
///
/// Ids are equal exactly when their bytes are. Distinct hashes prove there
/// is no duplicate; a repeated hash (a duplicate, or very rarely a
/// collision) sends the caller to `Snapshot.validationIssues()`, which
/// reports the exact problems.
package struct IDHashes {
    package let hashes: [UInt64]

    /// Hashes as they were gathered (tests: values the table treats apart).
    package init(hashes: [UInt64]) { self.hashes = hashes }

    /// The hashes of the ids of every item of `sections`, read from the
    /// items' own bytes (see `Item.withIDBytes`), a large list on two
    /// threads.
    /// - Complexity: O(bytes of the ids) / cores
    package init(itemsOf sections: [Section]) {
        let lists = sections.map(\.items)
        var starts = [0]
        for list in lists { starts.append(starts[starts.count - 1] + list.count) }
        let total = starts[starts.count - 1]
        let parts = total >= 100_000 ? 2 : 1
        let box = ListsBox(lists: lists, starts: starts)
        hashes = [UInt64](unsafeUninitializedCapacity: total) { buffer, count in
            let out = OutputBox(buffer.baseAddress)
            _ = Parallel.map(parts, placeholder: 0) { k in
                // Flat rows lower ..< upper, section by section.
                let lower = total * k / parts, upper = total * (k + 1) / parts
                var s = 0
                while s + 1 < box.starts.count, box.starts[s + 1] <= lower { s += 1 }
                var flat = lower
                while flat < upper, s < box.lists.count {
                    let base = box.starts[s], end = Swift.min(upper, box.starts[s + 1])
                    box.lists[s].forEachIDBytes(in: flat - base ..< end - base) { id in
                        out.pointer?[flat] = IDHash.of(id)
                        flat += 1
                    }
                    s += 1
                }
                return 0
            }
            count = total
        }
    }

    /// True when the ids are proven distinct; false when unknown.
    /// - Complexity: O(n). The hashes are scattered by their top bits into
    ///   at most 4096 buckets of about a thousand (the bucket counters stay
    ///   in cache, unlike a bucket per hash, whose random counter updates
    ///   cost a cache miss each); each bucket is then checked
    ///   in a small open-addressing table that fits in L1.
    package func provesDistinct() -> Bool {
        let values = hashes
        let n = values.count
        if n < 2 { return true }
        var bits = 0
        while bits < 12, (n >> bits) > 1024 { bits += 1 }
        let shift = UInt64(64 - max(bits, 1))
        let bucketCount = 1 << bits
        var starts = [Int](repeating: 0, count: bucketCount + 1)
        var scattered = [UInt64](repeating: 0, count: n)
        return starts.withUnsafeMutableBufferPointer { starts in
            scattered.withUnsafeMutableBufferPointer { scattered in
                @inline(__always) func bucket(_ v: UInt64) -> Int { bits == 0 ? 0 : Int(truncatingIfNeeded: v >> shift) }
                for v in values { starts[bucket(v) + 1] += 1 }
                var largest = 0
                for b in 1..<starts.count {
                    largest = max(largest, starts[b])
                    starts[b] += starts[b - 1]
                }
                var next = Array(starts.dropLast())
                for v in values {
                    let b = bucket(v)
                    scattered[next[b]] = v
                    next[b] += 1
                }
                // Slots hold hash + 1 (0 = empty; a hash of all ones wraps to
                // 0 and is tracked apart).
                var capacity = 16
                while capacity < 2 * largest { capacity <<= 1 }
                let mask = capacity - 1
                let slots = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
                defer { slots.deallocate() }
                for b in 0..<bucketCount where starts[b + 1] - starts[b] > 1 {
                    slots.initialize(repeating: 0, count: capacity)
                    var sawAllOnes = false
                    for k in starts[b]..<starts[b + 1] {
                        let v = scattered[k]
                        if v == UInt64.max {
                            if sawAllOnes { return false }
                            sawAllOnes = true
                            continue
                        }
                        let key = v &+ 1
                        // Low bits pick the slot (the top bits chose the bucket).
                        var slot = Int(truncatingIfNeeded: key) & mask
                        while slots[slot] != 0 {
                            if slots[slot] == key { return false }
                            slot = (slot &+ 1) & mask
                        }
                        slots[slot] = key
                    }
                }
                return true
            }
        }
    }
}

/// The item lists `IDHashes(itemsOf:)` reads from two threads (never written).
private struct ListsBox: @unchecked Sendable {
    let lists: [ItemList]
    let starts: [Int]
}

/// The hash array both threads fill, each its own rows.
private struct OutputBox: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<UInt64>?
    init(_ pointer: UnsafeMutablePointer<UInt64>?) { self.pointer = pointer }
}
