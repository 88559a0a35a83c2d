import Synchronization

/// Item id → location in the snapshot: the map an `EditIndex` keeps of a
/// million items, built once and updated by every edit.
///
/// A `Dictionary` of `ItemID` keys compares id bytes at every occupied
/// bucket a probe passes and hashes every id again when it grows, which an
/// append of ten thousand ids to a million pays for on every batch. Here
/// entries are stored densely (id, location), and a separate slot array of
/// `UInt64` holds each entry's position and the high 32 bits of its id's
/// hash, which also choose its home slot: a probe compares those bits in
/// that compact array and reads an id only when they match, and growing
/// re-places the slots by them alone. Removing an entry moves the last one
/// into its place. At a million items it takes about two thirds of the
/// dictionary's memory.
///
/// Ids are hashed with the standard library's seeded hasher, so no input
/// can force long probe sequences.
struct ItemLocationTable: Sendable {
    typealias Location = EditIndex.Location

    private var ids: [ItemID] = []
    private var locations: [Location] = []
    /// Per slot: 0 (empty), `tombstone` (an entry was removed; probes go
    /// on), or the entry's tag (its hash's high 32 bits) and `position + 1`.
    private var slots: [UInt64]
    private var tombstones = 0

    private static let positionMask: UInt64 = 0xFFFF_FFFF
    private static let tombstone: UInt64 = 0xFFFF_FFFF

    /// An empty table with room for `minimumCapacity` entries before it
    /// grows. The entry arrays get room for as many as the slots take
    /// before they double (address space: untouched pages cost no
    /// memory), so the first items added after a table built for a whole
    /// snapshot do not copy every entry.
    init(minimumCapacity: Int = 0) {
        slots = [UInt64](repeating: 0, count: Self.slotCount(for: minimumCapacity))
        let room = Swift.max(minimumCapacity, slots.count * 3 / 4)
        ids.reserveCapacity(room)
        locations.reserveCapacity(room)
    }

    /// Slots for `entries` at a load of at most 1/2 (a power of two).
    private static func slotCount(for entries: Int) -> Int {
        var size = 16
        while size < entries * 2 { size <<= 1 }
        return size
    }

    /// Number of entries.
    var count: Int { ids.count }

    @inline(__always) private static func tag(_ hash: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: hash) & ~positionMask
    }

    /// The first slot to probe for a tag (or a slot entry).
    @inline(__always) private func home(_ tagged: UInt64) -> Int {
        Int(truncatingIfNeeded: tagged >> 32) & (slots.count - 1)
    }

    /// The slot holding `id`'s entry, or nil.
    /// - Complexity: O(1) expected.
    private func slot(of id: ItemID, hash: Int) -> Int? {
        let mask = slots.count - 1
        let tag = Self.tag(hash)
        var slot = home(tag)
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if entry != Self.tombstone, entry & ~Self.positionMask == tag {
                let position = Int(entry & Self.positionMask) - 1
                if ids[position] == id { return slot }
            }
            slot = (slot &+ 1) & mask
        }
    }

    /// Writes a slot `entry` (tag and position) in the first free slot of
    /// its probe sequence.
    private mutating func place(_ entry: UInt64) {
        let mask = slots.count - 1
        var slot = home(entry)
        while slots[slot] != 0 && slots[slot] != Self.tombstone { slot = (slot &+ 1) & mask }
        if slots[slot] == Self.tombstone { tombstones -= 1 }
        slots[slot] = entry
    }

    /// Re-places every entry in `size` slots (a power of two).
    /// - Complexity: O(count + size), no id hashed again.
    private mutating func rebuildSlots(size: Int) {
        let old = slots
        slots = [UInt64](repeating: 0, count: size)
        tombstones = 0
        for entry in old where entry != 0 && entry != Self.tombstone { place(entry) }
    }

    /// The location of `id`; setting nil removes it.
    /// - Complexity: O(1) expected (amortized when it grows).
    subscript(id: ItemID) -> Location? {
        get {
            let hash = id.hashValue
            return slot(of: id, hash: hash).map { locations[Int(slots[$0] & Self.positionMask) - 1] }
        }
        set {
            if let newValue { updateValue(newValue, forKey: id) } else { removeValue(forKey: id) }
        }
    }

    /// Sets `id`'s location; returns the one it replaced, if any.
    /// - Complexity: O(1) expected (amortized when it grows).
    @discardableResult
    mutating func updateValue(_ location: Location, forKey id: ItemID) -> Location? {
        updateValue(location, forKey: id, hash: id.hashValue)
    }

    /// Makes room for `count` entries in all, so that adding up to that many
    /// neither grows nor rebuilds the slots.
    /// - Complexity: amortized O(1) per entry added.
    mutating func reserveCapacity(_ count: Int) {
        if (count + tombstones) * 4 > slots.count * 3 {
            var size = slots.count
            while count * 2 > size { size <<= 1 }
            rebuildSlots(size: size)
        }
        // At least doubling, as appending would (an exact reserve would
        // copy every entry on every batch).
        if count > ids.capacity { ids.reserveCapacity(Swift.max(count, 2 * ids.capacity)) }
        if count > locations.capacity { locations.reserveCapacity(Swift.max(count, 2 * locations.capacity)) }
    }

    /// Reads the first slot each of `hashes` probes, so that the inserts
    /// that follow find those slots in the cache. At a million entries the
    /// slots span megabytes, and an insert waits for its slot before it can
    /// go on; these loads depend on nothing, so the processor overlaps
    /// them, and a batch of inserts waits for memory about once instead of
    /// once per id.
    /// - Complexity: O(hashes)
    func prefetchSlots(_ hashes: [Int]) {
        var seen: UInt64 = 0
        slots.withUnsafeBufferPointer { slots in
            for hash in hashes { seen ^= slots[home(Self.tag(hash))] }
        }
        // Stored where the optimizer cannot see it unused, so the loads stay.
        Self.prefetched.store(seen, ordering: .relaxed)
    }

    private static let prefetched = Atomic<UInt64>(0)

    /// `updateValue(_:forKey:)` with `id`'s hash already computed.
    /// - Complexity: O(1) expected (amortized when it grows).
    @discardableResult
    mutating func updateValue(_ location: Location, forKey id: ItemID, hash: Int) -> Location? {
        let tag = Self.tag(hash)
        // One probe finds the id's slot, or else the first slot an insertion
        // may take (the first removed one passed, or the empty one that
        // ends the probe).
        let mask = slots.count - 1
        var slot = home(tag)
        var free: Int?
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if entry == Self.tombstone {
                if free == nil { free = slot }
            } else if entry & ~Self.positionMask == tag {
                let position = Int(entry & Self.positionMask) - 1
                if ids[position] == id {
                    let old = locations[position]
                    locations[position] = location
                    return old
                }
            }
            slot = (slot &+ 1) & mask
        }
        ids.append(id)
        locations.append(location)
        let entry = tag | UInt64(ids.count)
        // Used and removed slots together stay at most 3/4 of the table, so
        // every probe sequence reaches an empty slot: past that, the table
        // doubles, or (when removals left most of those slots) is rebuilt
        // at its size, and the entry is placed anew.
        if (count + tombstones) * 4 > slots.count * 3 {
            rebuildSlots(size: count * 2 > slots.count ? slots.count * 2 : slots.count)
            place(entry)
            return nil
        }
        let target = free ?? slot
        if slots[target] == Self.tombstone { tombstones -= 1 }
        slots[target] = entry
        return nil
    }

    /// `id`'s entry: its position (see `setLocation(_:ofEntryAt:)`) and
    /// location.
    /// - Complexity: O(1) expected.
    func entry(of id: ItemID) -> (position: Int, location: Location)? {
        guard let slot = slot(of: id, hash: id.hashValue) else { return nil }
        let position = Int(slots[slot] & Self.positionMask) - 1
        return (position, locations[position])
    }

    /// Makes the entry at `position` keep `id`, the same bytes as its key
    /// in other storage: a row rewritten into storage of its own then
    /// lets go of the storage it was read into (an `ItemID` keeps its
    /// bytes' whole arena alive).
    /// - Complexity: O(1)
    mutating func setKey(_ id: ItemID, ofEntryAt position: Int) {
        assert(ids[position] == id, "an entry's key keeps its bytes")
        ids[position] = id
    }

    /// Sets the location of the entry at `position`: the order in which
    /// `updateValue` added entries (the last one added is at `count - 1`),
    /// which holds until an entry is removed.
    /// - Complexity: O(1)
    mutating func setLocation(_ location: Location, ofEntryAt position: Int) {
        locations[position] = location
    }

    /// Removes `id`'s entry; returns its location, if it had one.
    /// - Complexity: O(1) expected.
    @discardableResult
    mutating func removeValue(forKey id: ItemID) -> Location? {
        let hash = id.hashValue
        guard let slot = slot(of: id, hash: hash) else { return nil }
        let position = Int(slots[slot] & Self.positionMask) - 1
        let removed = locations[position]
        slots[slot] = Self.tombstone
        tombstones += 1
        let last = ids.count - 1
        if position != last, let lastSlot = self.slot(of: ids[last], hash: ids[last].hashValue) {
            // The last entry moves into the hole; its slot follows it.
            ids[position] = ids[last]
            locations[position] = locations[last]
            slots[lastSlot] = slots[lastSlot] & ~Self.positionMask | UInt64(position + 1)
        }
        ids.removeLast()
        locations.removeLast()
        return removed
    }
}

extension ItemLocationTable: Sequence {
    typealias Element = (key: ItemID, value: Location)

    struct Iterator: IteratorProtocol {
        fileprivate let table: ItemLocationTable
        fileprivate var position = 0
        mutating func next() -> Element? {
            guard position < table.count else { return nil }
            defer { position += 1 }
            return (table.ids[position], table.locations[position])
        }
    }

    func makeIterator() -> Iterator { Iterator(table: self) }

    var underestimatedCount: Int { count }
}

extension ItemLocationTable: Equatable {
    /// The same ids at the same locations (in whatever order).
    static func == (a: ItemLocationTable, b: ItemLocationTable) -> Bool {
        guard a.count == b.count else { return false }
        for position in a.ids.indices where b[a.ids[position]] != a.locations[position] { return false }
        return true
    }
}
