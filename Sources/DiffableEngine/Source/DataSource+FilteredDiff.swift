extension DataSource {
    /// The diff between two visible snapshots that filter the **same** full
    /// snapshot (a search changed, the data did not), computed from the flat
    /// index of every visible row instead of by hashing ids.
    ///
    /// `oldRows` are the row sources of `old` (see `SearchCache.rowSources`);
    /// the new ones are the cache's current ones. Returns nil when the two
    /// visible snapshots do not have the same sections (the caller then falls
    /// back to `Snapshot.difference(to:)`).
    /// - Complexity: O(r log r), r = visible rows of the sections filtered
    ///   before or after (the unfiltered side of a section counts its items).
    func filteredChangeset(oldRows: [Int: [Int]], old: Snapshot) -> Changeset? {
        let newRows = searchCache.completedRowSources
        guard old.sections.count == visible.sections.count,
              snapshot.sections.count == visible.sections.count else { return nil }
        var starts: [Int] = [0]
        starts.reserveCapacity(snapshot.sections.count + 1)
        for section in snapshot.sections { starts.append((starts.last ?? 0) + section.items.count) }

        var changeset = Changeset()
        var solver = LongestIncreasingSubsequence()
        var stays: [Bool] = []
        for s in visible.sections.indices {
            guard old.sections[s].id == visible.sections[s].id else { return nil }
            if oldRows[s] == nil && newRows[s] == nil { continue }  // unfiltered both times
            let start = starts[s], count = starts[s + 1] - starts[s]
            // A side without row sources shows every item of the section: its
            // key of row r is start + r, and nothing is materialized for it.
            let oldKeys = oldRows[s], newKeys = newRows[s]
            guard (oldKeys?.count ?? count) == old.sections[s].items.count,
                  (newKeys?.count ?? count) == visible.sections[s].items.count else { return nil }
            if oldKeys == newKeys {
                // Equal keys are equal rows of the same full snapshot, except
                // the placeholder's: its key says "the placeholder row", not
                // which placeholder, so compare the rows themselves.
                if oldKeys == [SearchCache.placeholderKey] {
                    placeholderChange(old: old.sections[s].items[0], new: visible.sections[s].items[0],
                                      section: s, into: &changeset)
                }
                continue
            }

            var oldRowOf: [Int: Int32] = [:]
            if let oldKeys {
                oldRowOf.reserveCapacity(oldKeys.count)
                for (row, key) in oldKeys.enumerated() { oldRowOf[key] = Int32(truncatingIfNeeded: row) }
            }
            func oldRow(_ key: Int) -> Int32? {
                guard oldKeys != nil else {
                    return key >= start && key < start + count ? Int32(truncatingIfNeeded: key - start) : nil
                }
                return oldRowOf[key]
            }
            let newKeySet = oldKeys == nil ? nil : newKeys.map(Set.init)
            func isShownNow(_ key: Int) -> Bool {
                newKeySet?.contains(key) ?? (key >= start && key < start + count)
            }
            func newKey(_ row: Int) -> Int { newKeys?[row] ?? start + row }
            let newCount = newKeys?.count ?? count

            // Survivors in new order, by old row; the longest increasing run stays.
            var survivorOldRows: [Int32] = []
            for row in 0..<newCount {
                if let old = oldRow(newKey(row)) { survivorOldRows.append(old) }
            }
            _ = solver.mark(survivorOldRows, into: &stays)
            if let oldKeys {
                for (row, key) in oldKeys.enumerated() where !isShownNow(key) {
                    changeset.itemDeletes.append(ItemPath(section: s, row: row))
                }
            } else if let newKeys {
                // Every item was shown: walk the rows against the sorted keys
                // still shown (no hashing over the whole section).
                let shown = newKeys.sorted()
                var next = 0
                changeset.itemDeletes.reserveCapacity(changeset.itemDeletes.count + count - newKeys.count)
                for row in 0..<count {
                    let key = start + row
                    while next < shown.count, shown[next] < key { next += 1 }
                    if next < shown.count, shown[next] == key { continue }
                    changeset.itemDeletes.append(ItemPath(section: s, row: row))
                }
            }
            var rank = 0
            for row in 0..<newCount {
                guard let oldRow = oldRow(newKey(row)) else {
                    changeset.itemInserts.append(ItemPath(section: s, row: row))
                    continue
                }
                if !stays[rank] {
                    changeset.itemMoves.append(.init(from: ItemPath(section: s, row: Int(oldRow)), to: ItemPath(section: s, row: row)))
                }
                rank += 1
            }
        }
        return changeset
    }

    /// The diff of a section whose only row is a placeholder before and after:
    /// nothing when it is the same item, a reload when only its content
    /// changed, a delete and an insert when it is another item.
    private func placeholderChange(old: Item, new: Item, section s: Int, into changeset: inout Changeset) {
        let path = ItemPath(section: s, row: 0)
        if old.id == new.id {
            // Content is compared as the diff compares it (canonical bytes).
            if old.content != new.content { changeset.itemReloads.append(.init(old: path, new: path)) }
        } else {
            changeset.itemDeletes.append(path)
            changeset.itemInserts.append(path)
        }
    }
}
