/// An edit that only appends items: a list streaming in (the output of
/// `fd` or `rg` sent in batches while a picker is open).
///
/// `applyingEdits(_:index:)` keeps, for every id an edit touches, marks,
/// an overlay location and then its rows on both sides, so that any mix of
/// ops gives the right diff: a few dictionary operations and allocations
/// per id. Appends need none of it: every appended id is new (checked
/// against the index), its rows are the section's last ones, and the diff
/// is those rows inserted. This path gives exactly what the general one
/// gives (the same snapshot, changeset, index and errors; the tests compare
/// both) with one index operation per id: its insertion, which finds an
/// id already there or listed twice; its chunk, once placed, is written at
/// its entry directly.
extension Snapshot {
    /// `applyingEdits(_:index:)` of ops that are all `appendItems`; nil
    /// for any other ops (the caller takes the general path).
    ///
    /// - Throws: the `EditError` the general path throws; `index` and this
    ///   snapshot are then untouched.
    /// - Complexity: O(appended items + chunks of the sections appended
    ///   to), expected.
    func appendingItems(_ ops: [EditOperation], index: inout EditIndex) throws(EditError) -> (snapshot: Snapshot, changeset: Changeset)? {
        guard !ops.isEmpty, ops.allSatisfy({ if case .appendItems = $0 { true } else { false } }) else { return nil }
        var sections = self.sections
        var insertedIDs: [ItemID] = []
        // Where each appended item's entry is in the index, by where its id
        // bytes are (no two items of a valid edit share them): placing it
        // then hashes no id again.
        var entries = AppendedEntries()
        var landed: [(section: String, placements: [ItemList.Placement])] = []
        for (number, op) in ops.enumerated() {
            guard case .appendItems(let items, let sectionID) = op else { return nil }
            func failure(_ reason: EditError.Reason, _ ids: [String]) -> EditError {
                EditError(op: number, opName: op.name, reason: reason, ids: ids)
            }
            func undoInsertions() { for id in insertedIDs { index.locationOfItem[id] = nil } }
            let s: Int
            if let sectionID {
                guard let found = index.sectionPosition[sectionID] else {
                    undoInsertions()
                    throw failure(.unknownSection, [sectionID])
                }
                s = found
            } else {
                guard !sections.isEmpty else {
                    undoInsertions()
                    throw failure(.noSection, [])
                }
                s = sections.count - 1
            }
            // One insertion per id, which also finds the ids already in the
            // source, appended by an earlier op, or listed twice. On such an
            // id the index is put back as it was, and the error names them
            // as the general path does.
            let provisional = EditIndex.Location(section: sections[s].id, chunk: 0)
            let earlierOps = insertedIDs.count
            // Hashed first and their slots read ahead (`prefetchSlots`): a
            // batch of inserts into a table of a million waits on memory
            // once, not once per id.
            let hashes = items.map(\.itemID.hashValue)
            index.locationOfItem.reserveCapacity(index.locationOfItem.count + items.count)
            index.locationOfItem.prefetchSlots(hashes)
            for (item, hash) in zip(items, hashes) {
                if let before = index.locationOfItem.updateValue(provisional, forKey: item.itemID, hash: hash) {
                    index.locationOfItem[item.itemID] = before
                    let added = Set(insertedIDs[..<earlierOps])
                    undoInsertions()
                    throw failure(.duplicateItem, Self.conflictingIDs(items, added: added, index: index))
                }
                insertedIDs.append(item.itemID)
                entries.add(item.itemID, entry: index.locationOfItem.count - 1)
            }

            var placements: [ItemList.Placement]? = []
            let end = sections[s].items.count
            sections[s].items.replace(end..<end, with: items, report: &placements)
            landed.append((sections[s].id, placements ?? []))
        }

        // Every original item stays in its row; each section ends with its
        // appended rows, in the order they were appended.
        var changeset = Changeset()
        for (s, section) in sections.enumerated() where section.items.count > self.sections[s].items.count {
            for row in self.sections[s].items.count..<section.items.count {
                changeset.itemInserts.append(ItemPath(section: s, row: row))
            }
        }
        // Appended items, and items a chunk split moved to another chunk.
        for (section, placements) in landed {
            for placement in placements {
                let location = EditIndex.Location(section: section, chunk: placement.chunk)
                if let entry = entries.entry(of: placement.id) {
                    index.locationOfItem.setLocation(location, ofEntryAt: entry)
                } else {
                    index.locationOfItem[placement.id] = location
                }
            }
        }
        return (Snapshot(sections: sections), changeset)
    }

    /// The ids an `appendItems` op may not add, as the general path names
    /// them: those already in the source or added by an earlier op (`added`),
    /// in the op's order; else those it lists twice, each once.
    /// - Complexity: O(items), expected.
    private static func conflictingIDs(_ items: [Item], added: Set<ItemID>, index: EditIndex) -> [String] {
        let existing = items.filter { added.contains($0.itemID) || index.locationOfItem[$0.itemID] != nil }
        if !existing.isEmpty { return existing.map(\.id) }
        var seen = Set<ItemID>(minimumCapacity: items.count), reported = Set<ItemID>()
        var repeated: [String] = []
        for item in items where !seen.insert(item.itemID).inserted && reported.insert(item.itemID).inserted {
            repeated.append(item.id)
        }
        return repeated
    }
}

/// The index entry of each item an append adds, found by where its id's
/// bytes are (its arena and offset: no two ids of one edit share them).
///
/// Ids decoded from one request lie in one arena in the order of their
/// items, so the entries are kept as runs: an arena, the ascending offsets
/// of its ids and the entry of the first. Finding an entry is then a
/// binary search in a run, with no hashing; ids that do not continue a run
/// (ids made one by one, runs past a few) go to a dictionary.
struct AppendedEntries {
    private struct Run {
        let arena: ObjectIdentifier
        var starts: [UInt32]
        let firstEntry: Int
    }
    private var runs: [Run] = []
    private var others: [IDBytesSpot: Int] = [:]
    private static let maximumRuns = 8

    /// Records `id`'s entry. - Complexity: amortized O(1)
    mutating func add(_ id: ItemID, entry: Int) {
        guard let arena = id.arena.map({ ObjectIdentifier($0.storage) }) else {
            others[id.bytesSpot] = entry
            return
        }
        if let last = runs.indices.last, runs[last].arena == arena, let previous = runs[last].starts.last,
           id.start > previous, runs[last].firstEntry + runs[last].starts.count == entry {
            runs[last].starts.append(id.start)
        } else if runs.count < Self.maximumRuns {
            runs.append(Run(arena: arena, starts: [id.start], firstEntry: entry))
        } else {
            others[id.bytesSpot] = entry
        }
    }

    /// Where the last entry found is (run, position): placements come
    /// mostly in row order, so the next one is usually the next id.
    private var last = (run: 0, position: -1)

    /// The entry recorded for an id at the same place as `id`, if any.
    /// - Complexity: O(1) for the id after the last one found, else
    ///   O(log(ids of its run)), or O(1) expected.
    mutating func entry(of id: ItemID) -> Int? {
        guard let arena = id.arena.map({ ObjectIdentifier($0.storage) }) else {
            return others.isEmpty ? nil : others[id.bytesSpot]
        }
        if runs.indices.contains(last.run), runs[last.run].arena == arena {
            let next = last.position + 1
            if next < runs[last.run].starts.count, runs[last.run].starts[next] == id.start {
                last.position = next
                return runs[last.run].firstEntry + next
            }
        }
        for (r, run) in runs.enumerated() where run.arena == arena {
            var low = 0, high = run.starts.count
            while low < high {
                let mid = (low + high) / 2
                if run.starts[mid] < id.start { low = mid + 1 } else { high = mid }
            }
            if low < run.starts.count, run.starts[low] == id.start {
                last = (r, low)
                return run.firstEntry + low
            }
        }
        return others.isEmpty ? nil : others[id.bytesSpot]
    }
}

/// Where an id's bytes are (its arena and offset): a key that hashes two
/// words, unlike the id's bytes, and is unique among the ids of one edit
/// (ids at one place in one arena are equal).
struct IDBytesSpot: Hashable {
    let arena: ObjectIdentifier?
    let start: UInt32
}

extension ItemID {
    var bytesSpot: IDBytesSpot { IDBytesSpot(arena: arena.map { ObjectIdentifier($0.storage) }, start: start) }
}
