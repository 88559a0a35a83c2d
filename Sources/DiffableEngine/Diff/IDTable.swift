/// A flat open-addressing table from a 64-bit id hash to an index.
///
/// Each slot is one `UInt64`: the hash's high 32 bits (a tag) and `index + 1`
/// (0 marks an empty slot). Keys are not stored, so a lookup is one probe
/// sequence over a compact array and never touches the strings; a hit is a
/// *candidate* the caller must confirm by comparing ids (the diff confirms all
/// of them in one sequential pass, and falls back to a `Dictionary` if any
/// candidate is wrong).
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

    /// Takes the first entry whose tag matches `hash` and returns its index,
    /// or nil. A taken entry is not returned again (it stays as a tombstone so
    /// probe sequences are unchanged), so every index is returned at most once.
    /// - Complexity: O(1) expected.
    mutating func take(hash: Int) -> Int32? {
        let tag = Self.tag(hash)
        var slot = hash & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if entry & 0xFFFF_FFFF_0000_0000 == tag, entry & 0xFFFF_FFFF != Self.taken {
                slots[slot] = tag | Self.taken
                return Int32(bitPattern: UInt32(truncatingIfNeeded: entry) &- 1)
            }
            slot = (slot &+ 1) & mask
        }
    }

    private static let taken: UInt64 = 0xFFFF_FFFF
}
