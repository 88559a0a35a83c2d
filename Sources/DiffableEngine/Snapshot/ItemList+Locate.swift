/// Finding items in a chunk (see `EditIndex`, which records each item's
/// chunk and its offset in that chunk as a hint).
///
/// An item's offset in its chunk changes only when rows are inserted or
/// removed before it in the same chunk, or when its chunk is split or
/// merged; a content change moves nothing. So a hint kept from the last
/// time the item was found is right after any number of content-only
/// edits, and checking it costs one comparison of the stored id hashes
/// and one of the ids' bytes. A stale hint costs a scan of the chunk that
/// compares the items' stored id hashes (`Item.idHash`) and reads an id's
/// bytes only when its hash matches.
extension ItemList {
    /// Calls `body` with the items of the chunk `chunkID` and the row of its
    /// first item; nil when the list has no such chunk. A mapped list is
    /// one chunk (`flatChunkID`), copied out first.
    /// - Complexity: O(chunks) to find the chunk (O(count) for a mapped list).
    func withChunk<R>(_ chunkID: Int, _ body: (UnsafeBufferPointer<Item>, Int) -> R) -> R? {
        if mapping != nil {
            guard chunkID == Self.flatChunkID else { return nil }
            return Array(self).withUnsafeBufferPointer { body($0, 0) }
        }
        if isChunked {
            guard let k = chunkIDs.firstIndex(of: chunkID) else { return nil }
            return chunks[k].withUnsafeBufferPointer { body($0, starts[k]) }
        }
        guard chunkID == Self.flatChunkID else { return nil }
        return flat.withUnsafeBufferPointer { body($0, 0) }
    }

    /// Whether the item at `offset` of `items` has the id spelled by `id`
    /// (whose `Item.hash` is `hash`).
    @inline(__always)
    private static func has(_ items: UnsafeBufferPointer<Item>, _ offset: Int, _ id: UnsafeRawBufferPointer, _ hash: UInt32) -> Bool {
        guard offset >= 0, offset < items.count, let base = items.baseAddress else { return false }
        let item = base + offset
        return item.pointee.idHash == hash && item.pointee.hasID(bytes: id)
    }

    /// The row of the item spelled by `id` (UTF-8; `Item.hash` of it is
    /// `hash`) in chunk `chunkID`, and its offset in that chunk. The item
    /// at offset `hint` is checked first.
    /// - Complexity: O(chunks) to find the chunk, plus O(1) when the hint is
    ///   right, else O(chunk size) hash comparisons.
    func find(_ id: UnsafeRawBufferPointer, hash: UInt32, inChunk chunkID: Int, hint: Int?) -> (row: Int, offset: Int)? {
        let found: (row: Int, offset: Int)?? = withChunk(chunkID) { items, start in
            if let hint, Self.has(items, hint, id, hash) { return (start + hint, hint) }
            for offset in items.indices where Self.has(items, offset, id, hash) { return (start + offset, offset) }
            return nil
        }
        return found ?? nil
    }

    /// `find` of an `ItemID`.
    func find(_ id: ItemID, inChunk chunkID: Int, hint: Int?) -> (row: Int, offset: Int)? {
        let hash = Item.hash(id)
        return id.withUnsafeBytes { find($0, hash: hash, inChunk: chunkID, hint: hint) }
    }

    /// The row of the item `id` when it is at `offset` of chunk `chunkID`;
    /// nil otherwise (no scan).
    /// - Complexity: O(chunks) to find the chunk, plus O(length of the id).
    func row(of id: ItemID, inChunk chunkID: Int, atOffset offset: Int) -> Int? {
        let hash = Item.hash(id)
        let found: Int?? = id.withUnsafeBytes { bytes in
            withChunk(chunkID) { items, start in Self.has(items, offset, bytes, hash) ? start + offset : nil }
        }
        return found ?? nil
    }

    /// The row of the item `id` if it is in chunk `chunkID`.
    /// - Complexity: O(chunks + chunk size) (O(count) in flat form).
    public func row(of id: String, inChunk chunkID: Int) -> Int? {
        find(ItemID(id), inChunk: chunkID, hint: nil)?.row
    }

    /// The rows (and offsets in the chunk) of those of `ids` that are in
    /// chunk `chunkID`, scanning the chunk once and comparing the items'
    /// stored id hashes with those of `ids` (an id's bytes are read only
    /// when its hash matches).
    /// - Complexity: O(chunks + chunk size × (1 + ids ≤ 8 ? ids : 1)) expected
    ///   (O(count) in flat or mapped form).
    func rows(of ids: [ItemID], inChunk chunkID: Int) -> [(id: ItemID, row: Int, offset: Int)] {
        guard !ids.isEmpty else { return [] }
        var byHash: [UInt32: [ItemID]] = [:]
        var hashes: [UInt32] = []
        for id in ids {
            let hash = Item.hash(id)
            if byHash[hash] == nil { hashes.append(hash) }
            byHash[hash, default: []].append(id)
        }
        // A few ids are compared in a loop; more through a set.
        let small = hashes.count <= 8
        let hashSet: Set<UInt32> = small ? [] : Set(hashes)
        let found: [(id: ItemID, row: Int, offset: Int)]? = withChunk(chunkID) { items, start in
            var found: [(id: ItemID, row: Int, offset: Int)] = []
            guard let base = items.baseAddress else { return found }
            found.reserveCapacity(ids.count)
            for offset in items.indices {
                let item = base + offset
                let hash = item.pointee.idHash
                guard small ? hashes.contains(hash) : hashSet.contains(hash), let candidates = byHash[hash] else { continue }
                for id in candidates {
                    let matches = id.withUnsafeBytes { item.pointee.hasID(bytes: $0) }
                    if matches {
                        found.append((id, start + offset, offset))
                        break
                    }
                }
                if found.count == ids.count { break }
            }
            return found
        }
        return found ?? []
    }
}
