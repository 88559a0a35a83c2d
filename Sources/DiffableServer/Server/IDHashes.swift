import DiffableEngine

/// A quick proof that a large snapshot has no duplicate item ids, from
/// 64-bit hashes of the ids' bytes gathered while decoding.
///
/// Only byte-for-byte equal ids are equal for ASCII, so the hashes are kept
/// only while every id is ASCII (Swift compares other strings by canonical
/// equivalence). Distinct hashes prove there is no duplicate; a repeated hash
/// (a duplicate, or very rarely a collision) sends the caller to
/// `Snapshot.validationIssues()`, which reports the exact problems.
struct IDHashes {
    /// nil once a non-ASCII id was seen.
    private(set) var hashes: [UInt64]? = []

    /// Records the id spelled by `bytes` (its UTF-8).
    @inline(__always) mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard hashes != nil else { return }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        var high: UInt8 = 0
        for b in bytes {
            high |= b
            hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3
        }
        if high >= 0x80 {
            hashes = nil
        } else {
            hashes?.append(hash)
        }
    }

    /// How many ids were added (0 once unknown).
    var count: Int { hashes?.count ?? 0 }

    /// Forgets the ids added after the first `count`.
    mutating func truncate(to count: Int) {
        guard let current = hashes?.count, current > count else { return }
        hashes?.removeSubrange(count...)
    }

    mutating func add(_ id: String) {
        var id = id
        id.withUTF8 { add($0) }
    }

    /// True when the ids are proven distinct; false when unknown.
    /// - Complexity: O(n), a radix sort of the hashes.
    func provesDistinct() -> Bool {
        guard var values = hashes else { return false }
        if values.count < 2 { return true }
        Self.radixSort(&values)
        for i in 1..<values.count where values[i] == values[i - 1] {
            return false
        }
        return true
    }

    /// Least-significant-digit radix sort, 8 bits per pass; one counting
    /// pass for all eight digits.
    static func radixSort(_ values: inout [UInt64]) {
        let n = values.count
        var scratch = [UInt64](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 8 * 256)
        values.withUnsafeMutableBufferPointer { a in
            scratch.withUnsafeMutableBufferPointer { b in
                counts.withUnsafeMutableBufferPointer { c in
                    for v in a {
                        for d in 0..<8 { c[d << 8 | Int((v >> UInt64(d << 3)) & 0xFF)] += 1 }
                    }
                    var source = a, target = b
                    for d in 0..<8 {
                        var total = 0
                        for i in 0..<256 {
                            let count = c[d << 8 | i]
                            c[d << 8 | i] = total
                            total += count
                        }
                        let shift = UInt64(d << 3)
                        for v in source {
                            let slot = d << 8 | Int((v >> shift) & 0xFF)
                            target[c[slot]] = v
                            c[slot] += 1
                        }
                        swap(&source, &target)
                    }
                }
            }
        }
        // Eight passes: the sorted values are back in `values`.
    }
}

extension SnapshotCodec {
    /// `validated(_:path:)`, skipping the full item-id check when `ids`
    /// proves the item ids distinct. Same result, same errors.
    static func validated(_ sections: [Section], ids: IDHashes, path: String) throws(RPCError) -> Snapshot {
        guard ids.provesDistinct() else { return try validated(sections, path: path) }
        var sectionIDs = Set<String>(minimumCapacity: sections.count)
        for section in sections where !sectionIDs.insert(section.id).inserted {
            return try validated(sections, path: path)
        }
        return Snapshot(sections: sections)
    }
}
