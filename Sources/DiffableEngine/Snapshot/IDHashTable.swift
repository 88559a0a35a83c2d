/// An open-addressing hash table from item ids to non-negative `Int32`
/// values (flat item positions), for finding duplicate ids in
/// `validationIssues()` (the diff has its own table, `IDTable`, on the
/// hashes items carry). Its seeded hash is also the engine's id hash
/// (`Item.idHash`, `IDHash`).
///
/// It does not store the ids: the caller owns them and passes `key`, which
/// returns the id stored under a value; ids are compared only when the
/// 31-bit fingerprints agree. Compared with `[String: Int32]` this hashes
/// each id once with a cheap seeded hash (wyhash-style folded multiply)
/// instead of SipHash, and probes a single `[UInt64]` (8 bytes per slot,
/// load factor ≤ 1/2) instead of separate key and value arrays.
///
/// The seed is random per process, so the table layout is unpredictable
/// from outside; nothing observable depends on it (the table is never
/// iterated).
struct IDHashTable {
    /// 0 = empty; otherwise `fingerprint << 32 | value`, with the
    /// fingerprint's top bit set so that no occupied slot is 0.
    private var slots: [UInt64]
    private var mask: Int
    private(set) var count = 0

    private static let seed: UInt64 = UInt64.random(in: .min ... .max)

    /// A table sized for `expected` ids (it grows if more are inserted).
    init(expected: Int) {
        var capacity = 16
        while capacity < expected * 2 { capacity <<= 1 }
        slots = [UInt64](repeating: 0, count: capacity)
        mask = capacity - 1
    }

    // MARK: Hashing

    @inline(__always) private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let r = a.multipliedFullWidth(by: b)
        return r.high ^ r.low
    }

    @inline(__always) private static func load64(_ p: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always) private static func load32(_ p: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    /// 64-bit hash of UTF-8 bytes.
    @inline(__always) static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let s0: UInt64 = 0xA076_1D64_78BD_642F, s1: UInt64 = 0xE703_7ED1_A0B4_28DB, s2: UInt64 = 0x8EBC_6AF0_9C88_C6E3
        let n = bytes.count
        var h = seed ^ mix(seed ^ s0, UInt64(truncatingIfNeeded: n) ^ s1)
        guard n > 0, let p = bytes.baseAddress else { return mix(h, s2) }
        var a: UInt64, b: UInt64
        if n <= 16 {
            if n >= 8 {
                a = load64(p, 0); b = load64(p, n - 8)
            } else if n >= 4 {
                a = load32(p, 0); b = load32(p, n - 4)
            } else {
                let bytes = p.assumingMemoryBound(to: UInt8.self)
                a = UInt64(bytes[0]) << 16 | UInt64(bytes[n >> 1]) << 8 | UInt64(bytes[n - 1])
                b = 0
            }
        } else {
            var i = 0
            while n - i > 16 {
                h = mix(load64(p, i) ^ s1, load64(p, i + 8) ^ h)
                i += 16
            }
            a = load64(p, n - 16); b = load64(p, n - 8)
        }
        h = mix(a ^ s1, b ^ h)
        return mix(h ^ s2, UInt64(truncatingIfNeeded: n) ^ s1)
    }

    @inline(__always) static func hash(_ id: ItemID) -> UInt64 {
        id.withUnsafeBytes { hash($0) }
    }

    @inline(__always) static func hash(_ id: String) -> UInt64 {
        if let h = id.utf8.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return h }
        var copy = id
        return copy.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    // MARK: Bulk operations (memory-level parallelism)

    /// Ids are processed in batches: first every id of the batch is hashed
    /// and its home slot read (independent loads the CPU overlaps), then the
    /// batch is probed. On tables larger than the caches this hides most of
    /// the memory latency that dominates one-at-a-time hashing.
    static let batchSize = 16

    /// A table of `keys`, each stored under its index; when an id repeats,
    /// the last index wins (as with a dictionary), or the first one when
    /// `keepFirst`. `duplicate(stored, k)` is called for every repeated id
    /// `keys[k]`, in ascending `k`, with the index stored before it.
    init(keys: [ItemID], keepFirst: Bool = false, duplicate: ((Int32, Int32) -> Void)? = nil) {
        self.init(expected: keys.count)
        keys.withUnsafeBufferPointer { ids in
            var hashes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0),
                          UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            var sink: UInt64 = 0
            var start = 0
            while start < ids.count {
                let end = Swift.min(start + Self.batchSize, ids.count)
                withUnsafeMutableBytes(of: &hashes) { raw in
                    let h = raw.bindMemory(to: UInt64.self)
                    for k in start..<end {
                        h[k - start] = Self.hash(ids[k])
                        sink ^= slots[Int(truncatingIfNeeded: h[k - start]) & mask]
                    }
                    for k in start..<end {
                        let value = Int32(truncatingIfNeeded: k)
                        if let stored = insert(ids[k], hash: h[k - start], value: value, replace: !keepFirst, key: { ids[Int($0)] }) {
                            duplicate?(stored, value)
                        }
                    }
                }
                start = end
            }
            Self.consume(sink)
        }
    }

    @inline(never) private static func consume(_ value: UInt64) {
        if value == 0x5EED_5EED_5EED_5EED { sinkHits &+= 1 }
    }

    nonisolated(unsafe) private static var sinkHits = 0

    // MARK: Operations

    /// Stores `value` for `id` unless `id` is already present. Returns the
    /// value already stored (then, when `replace` is true, `value` replaces
    /// it), or nil when `id` was new.
    /// - Precondition: `value >= 0`.
    @inline(__always) mutating func insert(
        _ id: ItemID, hash h: UInt64, value: Int32, replace: Bool = false, key: (Int32) -> ItemID
    ) -> Int32? {
        if (count + 1) * 2 > slots.count { grow(key: key) }
        let tag = (h >> 32 | 0x8000_0000) << 32
        let entry = tag | UInt64(UInt32(bitPattern: value))
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let slot = slots[i]
            if slot == 0 {
                slots[i] = entry
                count += 1
                return nil
            }
            if slot & 0xFFFF_FFFF_0000_0000 == tag {
                let existing = Int32(truncatingIfNeeded: slot & 0xFFFF_FFFF)
                if key(existing) == id {
                    if replace { slots[i] = entry }
                    return existing
                }
            }
            i = (i + 1) & mask
        }
    }

    private mutating func grow(key: (Int32) -> ItemID) {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        mask = slots.count - 1
        for slot in old where slot != 0 {
            let value = Int32(truncatingIfNeeded: slot & 0xFFFF_FFFF)
            var i = Int(truncatingIfNeeded: Self.hash(key(value))) & mask
            while slots[i] != 0 { i = (i + 1) & mask }
            slots[i] = slot
        }
    }
}

/// The engine's id hash (`IDHashTable.hash`: seeded per process, about one
/// multiply per 16 bytes), for the layers that hash ids while decoding them.
public enum IDHash {
    /// 64-bit hash of an id's UTF-8 bytes.
    public static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 { IDHashTable.hash(bytes) }
}
