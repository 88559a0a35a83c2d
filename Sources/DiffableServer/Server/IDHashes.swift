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
        if Self.isASCII(bytes) {
            hashes?.append(IDHash.of(UnsafeRawBufferPointer(bytes)))
        } else {
            hashes = nil
        }
    }

    /// Whether every byte is below 0x80 (eight bytes per step).
    @inline(__always) static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var high: UInt64 = 0
        var i = 0
        while i + 8 <= bytes.count {
            high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < bytes.count {
            high |= UInt64(bytes[i])
            i += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
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
    /// - Complexity: O(n): the hashes are bucketed by their top bits (one
    ///   counting pass, one scatter), then each small bucket is sorted and
    ///   checked for a repeated hash.
    func provesDistinct() -> Bool {
        guard let values = hashes else { return false }
        let n = values.count
        if n < 2 { return true }
        var bits = 8
        while bits < 22, 1 << bits < n { bits += 1 }
        let shift = UInt64(64 - bits)
        var starts = [Int](repeating: 0, count: (1 << bits) + 1)
        var scattered = [UInt64](repeating: 0, count: n)
        return starts.withUnsafeMutableBufferPointer { starts in
            scattered.withUnsafeMutableBufferPointer { scattered in
                for v in values { starts[Int(truncatingIfNeeded: v >> shift) + 1] += 1 }
                for b in 1..<starts.count { starts[b] += starts[b - 1] }
                var next = Array(starts.dropLast())
                for v in values {
                    let b = Int(truncatingIfNeeded: v >> shift)
                    scattered[next[b]] = v
                    next[b] += 1
                }
                for b in 0..<(starts.count - 1) where starts[b + 1] - starts[b] > 1 {
                    var bucket = UnsafeMutableBufferPointer(rebasing: scattered[starts[b]..<starts[b + 1]])
                    bucket.sort()
                    for i in 1..<bucket.count where bucket[i] == bucket[i - 1] { return false }
                }
                return true
            }
        }
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
