import Foundation

/// Reusing the items of a previous list while a new one is decoded.
///
/// A client that re-sends its whole state with `apply` sends mostly the
/// items the source already holds, in the same order. Decoding each of them
/// anew allocates an id string and a content buffer per item, and dropping
/// the previous snapshot afterwards frees as many: at a million items that
/// is most of an apply's memory traffic. A recycler follows the decoder
/// along the previous list and hands back the stored item whenever the
/// incoming id and content bytes are the ones it holds, so the new snapshot
/// shares storage with the old one (the diff then also finds equal ids and
/// contents by identity, without comparing their bytes).
///
/// The caller must derive an item's search text from its content alone (as
/// the protocol layer does), so equal content means an equal item.
///
/// Matching follows a cursor: the expected row is the one after the last
/// match; a miss looks `lookAhead` rows further (a deleted run), and after
/// a few misses in a row (a longer deleted run, a part of a request that
/// started elsewhere than estimated) a window of `wideWindow` rows around
/// the cursor. When that finds nothing either (a long deleted run, a
/// reordered list), the recycler hashes every id of the previous list once
/// and looks every later miss up.
/// - Complexity: O(1) id comparisons per item while the lists agree; one
///   wide search, O(`wideWindow`); then at most one O(n) table build and
///   O(1) expected per item.
public struct ItemRecycler {
    let reader: ItemList.Reader
    /// The row of the previous list expected next.
    var cursor: Int
    /// Misses since the last match, and how many trigger the wide search.
    var misses = 0
    var missesBeforeWideSearch: Int
    /// Every row under its id's hash (`idHash << 32 | row + 1`, 0 = empty),
    /// built when the wide search fails; empty before.
    var table: [UInt64] = []

    static let lookAhead = 32
    static let wideWindow = 4096
    static let missesBeforeFirstWideSearch = 8

    /// `near`: the row of the previous list expected first (a part of a
    /// request read from its middle starts there); a first miss searches
    /// around it at once.
    init(_ reader: ItemList.Reader, near: Int) {
        self.reader = reader
        cursor = min(max(0, near), reader.count)
        missesBeforeWideSearch = near > 0 ? 1 : Self.missesBeforeFirstWideSearch
    }

    /// The previous list's item with exactly this id and content (`nil`
    /// content: an item without content), or nil. Advances the cursor past
    /// an item with this id even when its content changed.
    public mutating func take(id: UnsafeBufferPointer<UInt8>, content: UnsafeBufferPointer<UInt8>?) -> Item? {
        guard reader.count > 0, let row = find(id) else { return nil }
        cursor = row + 1
        misses = 0
        let item = reader[row]
        guard let content else { return item.content == nil ? item : nil }
        guard let stored = item.content, stored.byteCount == content.count else { return nil }
        let equal = stored.withUnsafeBytes { Self.equal($0.bindMemory(to: UInt8.self), content) }
        return equal ? item : nil
    }

    /// The item expected next: the previous list's row after the last
    /// match (a decoder can check the incoming bytes against it before
    /// reading them; see `advance()`).
    public var next: Item? {
        cursor < reader.count ? reader[cursor] : nil
    }

    /// Records that `next` arrived unchanged.
    public mutating func advance() {
        cursor += 1
        misses = 0
    }

    private mutating func find(_ id: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = reader.count
        var row = cursor
        while row < min(count, cursor + 1 + Self.lookAhead) {
            if has(id, at: row) { return row }
            row += 1
        }
        if !table.isEmpty { return lookUp(id) }
        misses += 1
        guard misses >= missesBeforeWideSearch, count > 0 else { return nil }
        // Outward from the cursor, so the nearest occurrence wins.
        for distance in 1...Self.wideWindow {
            let before = cursor - distance, after = cursor + Self.lookAhead + distance
            if before < 0 && after >= count { return nil }
            if before >= 0, has(id, at: before) { return before }
            if after < count, has(id, at: after) { return after }
        }
        buildTable()
        return lookUp(id)
    }

    // MARK: The table of every row

    /// `Item.idHash` of the id spelled by `bytes`.
    private static func idHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        UInt32(truncatingIfNeeded: IDHashTable.hash(UnsafeRawBufferPointer(bytes)))
    }

    /// - Complexity: O(rows of the previous list), reading the hashes the
    ///   items carry, not their ids.
    private mutating func buildTable() {
        var capacity = 16
        while capacity < reader.count * 2 { capacity <<= 1 }
        var slots = [UInt64](repeating: 0, count: capacity)
        let mask = capacity - 1
        for row in 0..<reader.count {
            let hash = reader.address(row).pointee.idHash
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt64(hash) << 32 | UInt64(row + 1)
        }
        table = slots
    }

    /// The row holding `id` (the first one, should the list repeat an id).
    private func lookUp(_ id: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = Self.idHash(id), mask = table.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        var found: Int?
        while table[slot] != 0 {
            if UInt32(truncatingIfNeeded: table[slot] >> 32) == hash {
                let row = Int(table[slot] & 0xFFFF_FFFF) - 1
                if has(id, at: row), row < found ?? .max { found = row }
            }
            slot = (slot + 1) & mask
        }
        return found
    }

    @inline(__always)
    private func has(_ id: UnsafeBufferPointer<UInt8>, at row: Int) -> Bool {
        let stored = reader.address(row)
        guard stored.pointee.idCount == id.count else { return false }
        return stored.pointee.withIDBytes { Self.equal($0.bindMemory(to: UInt8.self), id) }
    }

    @inline(__always)
    private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0, let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }
}

extension ItemList {
    /// Calls `body` with a recycler of this list's items, expecting the
    /// first item near row `near` (see `ItemRecycler`).
    public func withRecycler<R>(near: Int = 0, _ body: (inout ItemRecycler) throws -> R) rethrows -> R {
        try withReader { reader in
            var recycler = ItemRecycler(reader, near: near)
            return try body(&recycler)
        }
    }
}

extension ItemRecycler {
    /// A recycler of the same list expecting its first item near row `near`
    /// (one per part of a request read in parts). Valid as long as this one.
    public func starting(near: Int) -> ItemRecycler {
        ItemRecycler(reader, near: near)
    }

    /// Rows in the previous list.
    public var count: Int { reader.count }
}
