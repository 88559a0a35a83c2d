extension EditWorkspace {
    /// The diff from the old snapshot to the edited one, derived from the
    /// bookkeeping of touched ids (not by comparing the snapshots).
    ///
    /// Identity is by id: a section or item present before and after the edit
    /// is the same element, even if the edit deleted it and inserted it again
    /// (it is then reported as moved). Untouched elements keep their section
    /// and relative order (only moves reorder), so the batch rules hold:
    /// - sections: original ids gone → delete (old index); new ids → insert
    ///   (new index); moved → move (`headerChanged` when the header differs or
    ///   a reload was asked); others → reload when the header differs or a
    ///   reload was asked;
    /// - items whose old section is deleted, or whose new section is
    ///   inserted, are implied by the section operation on that side; an item
    ///   moved between such a section and a surviving one becomes an insert or
    ///   a delete;
    /// - a moved item is a move (`contentChanged` when its content differs or a
    ///   reload/reconfigure was asked); a staying item is a reload when asked or
    ///   when its content differs (a reconfigure when the change came from a
    ///   `setContent` with style `reconfigure`), else a reconfigure when asked.
    ///
    /// - Complexity: O(t × chunks of a section + k log k), t = touched ids,
    ///   k = reported changes, when the index's offset hints are right (a
    ///   content-only edit); each chunk holding a touched item whose hint
    ///   was stale is scanned once on each side (its rows' stored id
    ///   hashes).
    mutating func changeset() -> Changeset {
        var c = Changeset()
        _ = position(ofSection: "")  // refresh positions

        for (id, marks) in sectionMarks {
            let old = base.sectionPosition[id]
            let new = positions[id]
            switch (old, new) {
            case let (o?, nil):
                c.sectionDeletes.append(o)
            case let (nil, n?):
                c.sectionInserts.append(n)
            case let (o?, n?):
                let headerChanged = marks.contains(.reload) || oldSections[o].header != sections[n].header
                if marks.contains(.moved) {
                    c.sectionMoves.append(.init(from: o, to: n, headerChanged: headerChanged))
                } else if headerChanged {
                    c.sectionReloads.append(.init(old: o, new: n))
                }
            case (nil, nil):
                break
            }
        }

        // Which touched items need their old row, their new row, or both.
        struct Plan {
            var id: ItemID
            var marks: ItemMarks
            var oldSection: Int?
            var newSection: Int?
            var oldRow: Int?
            var newRow: Int?
        }
        var plans: [Plan] = []
        plans.reserveCapacity(itemMarks.count)
        // Rows are found through the offsets the index keeps as hints
        // (right for every item a content-only edit touched); the others
        // are looked up chunk by chunk, each chunk scanned once.
        var oldWanted: [ChunkKey: [ItemID]] = [:]
        var newWanted: [ChunkKey: [ItemID]] = [:]
        // Most touched items share a section: its positions are looked up once.
        var memo: (name: String, old: Int?, new: Int?)?
        func sectionIndices(_ section: String) -> (old: Int?, new: Int?) {
            if let memo, memo.name == section { return (memo.old, memo.new) }
            let found = (base.sectionPosition[section], positions[section])
            memo = (section, found.0, found.1)
            return found
        }
        for (id, marks) in itemMarks {
            var plan = Plan(id: id, marks: marks)
            let old = base.locationOfItem[id]
            // Old section index, when that section survives.
            if let old, case let (o?, _?) = sectionIndices(old.section) {
                plan.oldSection = o
                if let offset = old.offset, oldSections.indices.contains(o),
                   let row = oldSections[o].items.row(of: id, inChunk: old.chunk, atOffset: offset) {
                    plan.oldRow = row
                } else {
                    oldWanted[ChunkKey(section: o, chunk: old.chunk), default: []].append(id)
                }
            }
            // New section index, when that section is not an inserted one.
            let new = overlay.isEmpty ? old : (overlay[id] ?? old)
            if let new, case let (_?, n?) = sectionIndices(new.section) {
                plan.newSection = n
                if let offset = new.offset, sections.indices.contains(n),
                   let row = sections[n].items.row(of: id, inChunk: new.chunk, atOffset: offset) {
                    plan.newRow = row
                } else {
                    newWanted[ChunkKey(section: n, chunk: new.chunk), default: []].append(id)
                }
            }
            if plan.oldSection != nil || plan.newSection != nil { plans.append(plan) }
        }
        if !oldWanted.isEmpty || !newWanted.isEmpty {
            var oldRows: [ItemID: Int] = [:], newRows: [ItemID: Int] = [:]
            for (id, row, _) in Self.rows(of: oldWanted, in: oldSections) { oldRows[id] = row }
            for (id, row, offset) in Self.rows(of: newWanted, in: sections) {
                newRows[id] = row
                // Kept as the hint of the next lookup.
                if let location = location(ofItem: id) {
                    overlay[id] = .some(EditIndex.Location(section: location.section, chunk: location.chunk, offset: offset))
                }
            }
            for k in plans.indices {
                if plans[k].oldSection != nil, plans[k].oldRow == nil { plans[k].oldRow = oldRows[plans[k].id] }
                if plans[k].newSection != nil, plans[k].newRow == nil { plans[k].newRow = newRows[plans[k].id] }
            }
        }

        for plan in plans {
            let oldPath = plan.oldSection.flatMap { s in plan.oldRow.map { ItemPath(section: s, row: $0) } }
            let newPath = plan.newSection.flatMap { s in plan.newRow.map { ItemPath(section: s, row: $0) } }
            switch (oldPath, newPath) {
            case let (from?, nil):
                c.itemDeletes.append(from)
            case let (nil, to?):
                c.itemInserts.append(to)
            case let (from?, to?):
                let oldItem = oldSections[from.section].items[from.row]
                let newItem = sections[to.section].items[to.row]
                let changed = oldItem.content != newItem.content
                let moved = plan.marks.contains(.moved)
                    || oldSections[from.section].id != sections[to.section].id
                if moved {
                    let redraw = changed || !plan.marks.isDisjoint(with: [.reload, .reconfigure])
                    c.itemMoves.append(.init(from: from, to: to, contentChanged: redraw))
                } else if plan.marks.contains(.reload) {
                    c.itemReloads.append(.init(old: from, new: to))
                } else if changed {
                    if plan.marks.contains(.contentAsReconfigure) {
                        c.itemReconfigures.append(.init(old: from, new: to))
                    } else {
                        c.itemReloads.append(.init(old: from, new: to))
                    }
                } else if plan.marks.contains(.reconfigure) {
                    c.itemReconfigures.append(.init(old: from, new: to))
                }
            case (nil, nil):
                break
            }
        }

        c.sectionDeletes.sort()
        c.sectionInserts.sort()
        c.sectionMoves.sort { $0.to < $1.to }
        c.sectionReloads.sort { $0.old < $1.old }
        c.itemDeletes.sort()
        c.itemInserts.sort()
        c.itemMoves.sort { $0.to < $1.to }
        c.itemReloads.sort { $0.old < $1.old }
        c.itemReconfigures.sort { $0.old < $1.old }
        return c
    }

    /// A chunk of a section (section index, chunk id).
    struct ChunkKey: Hashable {
        var section: Int
        var chunk: Int
    }

    /// Row (and offset in its chunk) of each wanted id, scanning each
    /// named chunk once.
    /// - Complexity: O(wanted ids + Σ over named chunks of (chunk size +
    ///   chunks of its section)).
    private static func rows(of wanted: [ChunkKey: [ItemID]], in sections: [Section]) -> [(id: ItemID, row: Int, offset: Int)] {
        var rows: [(id: ItemID, row: Int, offset: Int)] = []
        for (key, ids) in wanted where sections.indices.contains(key.section) {
            rows += sections[key.section].items.rows(of: ids, inChunk: key.chunk)
        }
        return rows
    }

    /// Updates `index` (the base index) to describe the edited snapshot.
    /// `positions` is the new section index when the section list changed.
    /// - Complexity: O(overlay + sections when the section list changed).
    static func merge(
        _ overlay: [ItemID: EditIndex.Location?], positions: [String: Int]?, into index: inout EditIndex
    ) {
        for (id, location) in overlay {
            if let location {
                index.locationOfItem[id] = location
            } else {
                index.locationOfItem.removeValue(forKey: id)
            }
        }
        if let positions { index.sectionPosition = positions }
    }
}
