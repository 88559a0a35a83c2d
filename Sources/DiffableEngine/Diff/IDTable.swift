/// A flat open-addressing table from a 64-bit id hash to an index.
///
/// Each slot is one `UInt64`: the hash's high 32 bits (a tag) and `index + 1`
/// (0 marks an empty slot). Keys are not stored, so a probe sequence runs
/// over a compact array and touches no string until a tag matches; the
/// caller then says whether the entry is really its id (ids are hashed to
/// 32 bits, `Item.idHash`, so two ids of a large diff do share a hash now
/// and then).
struct IDTable {
    private var slots: [UInt64]
    private let mask: Int

    /// A table for up to `capacity` entries (load factor at most 1/2).
    /// - Complexity: O(capacity).
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
    }

    @inline(__always)
    private static func tag(_ hash: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: hash) & 0xFFFF_FFFF_0000_0000
    }

    /// Adds `index` (0 ..< 2^32 - 2) under `hash`.
    /// - Complexity: O(1) expected.
    mutating func insert(hash: Int, index: Int32) {
        let entry = Self.tag(hash) | UInt64(UInt32(bitPattern: index) &+ 1)
        var slot = hash & mask
        while slots[slot] != 0 { slot = (slot &+ 1) & mask }
        slots[slot] = entry
    }

    /// Takes the first entry whose tag matches `hash` and whose index
    /// `matches` accepts, and returns its index, or nil. A taken entry is
    /// not returned again (it stays as a tombstone so probe sequences are
    /// unchanged), so every index is returned at most once.
    /// - Complexity: O(1) expected.
    mutating func take(hash: Int, where matches: (Int32) -> Bool) -> Int32? {
        let tag = Self.tag(hash)
        var slot = hash & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if entry & 0xFFFF_FFFF_0000_0000 == tag, entry & 0xFFFF_FFFF != Self.taken {
                let index = Int32(bitPattern: UInt32(truncatingIfNeeded: entry) &- 1)
                if matches(index) {
                    slots[slot] = tag | Self.taken
                    return index
                }
            }
            slot = (slot &+ 1) & mask
        }
    }

    private static let taken: UInt64 = 0xFFFF_FFFF
}
