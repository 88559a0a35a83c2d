/// The visible rows of an outline after a fast tree edit, and their diff,
/// derived from the diff of the full preorder rows (`EditWorkspace`'s) and
/// the outline's changes, without reading the rows the edit did not touch.
///
/// A row the edit did not touch keeps its ancestors (only moved, inserted
/// or deleted rows change ancestors), so it stays shown or hidden unless an
/// ancestor was expanded or collapsed, and untouched rows keep their order:
/// the new visible rows of a section are its old visible rows, renumbered
/// past the removed and added rows, plus the added rows that are shown;
/// then the runs under expanded or collapsed items are decided again
/// (`applyToggles`). A row's visible position is then a
/// binary search in its section's row list (`SearchCache.rowSources`).
enum OutlineVisibleEdit {
    struct Result {
        var changeset: Changeset
        var visible: Snapshot
        var rowSources: [Int: [Int]]
    }

    /// nil when the visible rows do not match what this derivation reads
    /// (the caller takes the general path).
    /// - Complexity: O(k log k + t × (c + depth) + r), k = changes of the full
    ///   rows, t = suspects, c = chunk size, r = the visible rows of the
    ///   sections whose rows changed (their row lists are rebuilt: integers,
    ///   no items) and of the sections after them (their lists shift).
    static func derive(old: Snapshot, oldVisible: Snapshot, rowSources: [Int: [Int]], full c: Changeset,
                       run: inout OutlineRunEdit) -> Result? {
        let new = Snapshot(sections: run.workspace.sections)
        let count = new.sections.count
        guard old.sections.count == count, oldVisible.sections.count == count, c.sectionInserts.isEmpty,
              c.sectionDeletes.isEmpty, c.sectionMoves.isEmpty else { return nil }
        var oldStarts: [Int] = [], newStarts: [Int] = []
        var oldTotal = 0, newTotal = 0
        for s in 0..<count {
            guard old.sections[s].id == new.sections[s].id, oldVisible.sections[s].id == new.sections[s].id,
                  oldVisible.sections[s].items.count == rowSources[s]?.count ?? old.sections[s].items.count
            else { return nil }
            oldStarts.append(oldTotal)
            newStarts.append(newTotal)
            oldTotal += old.sections[s].items.count
            newTotal += new.sections[s].items.count
        }
        guard rowSources.keys.allSatisfy({ $0 >= 0 && $0 < count }) else { return nil }

        // Rows that left (deleted, moved away) and came (inserted, moved here).
        var removed = [[Int]](repeating: [], count: count), added = [[Int]](repeating: [], count: count)
        var changed = Set<Int>()
        for d in c.itemDeletes { removed[d.section].append(d.row) }
        for i in c.itemInserts { added[i.section].append(i.row) }
        for m in c.itemMoves {
            removed[m.from.section].append(m.from.row)
            added[m.to.section].append(m.to.row)
        }
        for s in 0..<count where !removed[s].isEmpty || !added[s].isEmpty { changed.insert(s) }
        for u in c.itemReloads + c.itemReconfigures { changed.insert(u.new.section) }
        for s in changed {
            removed[s].sort()
            added[s].sort()
        }

        // Whether the children of a parent are shown now, remembered.
        var childrenShown: [ItemID: Bool] = [:]
        func isShown(_ id: ItemID) -> Bool {
            guard let parent = run.draft.parent(id) else { return true }
            var chain: [ItemID] = [], current: ItemID? = parent, shown = true
            while let next = current {
                if let known = childrenShown[next] {
                    shown = known
                    break
                }
                chain.append(next)
                current = run.draft.parent(next)
            }
            for ancestor in chain.reversed() {
                shown = shown && run.draft.isExpanded(ancestor)
                childrenShown[ancestor] = shown
            }
            return shown
        }

        var newRowSources: [Int: [Int]] = [:]
        for s in 0..<count {
            let delta = newStarts[s] - oldStarts[s]
            guard changed.contains(s) else {
                if let rows = rowSources[s] { newRowSources[s] = delta == 0 ? rows : rows.map { $0 + delta } }
                continue
            }
            let shownAdded = added[s].filter { isShown(new.sections[s].items[$0].itemID) }
            if rowSources[s] == nil && shownAdded.count == added[s].count { continue }  // all shown
            let rows = renumber(rowSources[s], start: oldStarts[s], oldCount: old.sections[s].items.count,
                                removed: removed[s], added: added[s], shownAdded: shownAdded)
            if rows.count != new.sections[s].items.count { newRowSources[s] = rows.map { $0 + newStarts[s] } }
        }
        var toggledPaths: [(id: ItemID, path: ItemPath)] = []
        for id in run.toggled {
            if let path = run.workspace.locate(id) { toggledPaths.append((id, path)) }
        }
        let toggles = applyToggles(toggledPaths, new: new, newStarts: newStarts, rowSources: &newRowSources,
                                   draft: run.draft, isShown: isShown)
        for toggle in toggles { changed.insert(toggle.section) }

        func visibleRow(_ rows: [Int]?, _ flat: Int, _ row: Int) -> Int? {
            guard let rows else { return row }
            let i = position(of: flat, in: rows)
            return i < rows.count && rows[i] == flat ? i : nil
        }
        func oldRow(_ p: ItemPath) -> ItemPath? {
            visibleRow(rowSources[p.section], oldStarts[p.section] + p.row, p.row).map { ItemPath(section: p.section, row: $0) }
        }
        func newRow(_ p: ItemPath) -> ItemPath? {
            visibleRow(newRowSources[p.section], newStarts[p.section] + p.row, p.row).map { ItemPath(section: p.section, row: $0) }
        }
        let draft = run.draft
        func redrawn(_ id: ItemID) -> Bool { draft.base.row(of: id) != draft.row(id) }

        var v = Changeset()
        v.sectionReloads = c.sectionReloads
        for d in c.itemDeletes { if let from = oldRow(d) { v.itemDeletes.append(from) } }
        for i in c.itemInserts { if let to = newRow(i) { v.itemInserts.append(to) } }
        for m in c.itemMoves {
            switch (oldRow(m.from), newRow(m.to)) {
            case let (from?, to?):
                let id = new.sections[m.to.section].items[m.to.row].itemID
                v.itemMoves.append(.init(from: from, to: to, contentChanged: m.contentChanged || redrawn(id)))
            case let (from?, nil): v.itemDeletes.append(from)
            case let (nil, to?): v.itemInserts.append(to)
            case (nil, nil): break
            }
        }
        var redrawnPaths = Set<ItemPath>()
        for u in c.itemReloads {
            guard let from = oldRow(u.old), let to = newRow(u.new) else { continue }
            v.itemReloads.append(.init(old: from, new: to))
            redrawnPaths.insert(u.new)
        }
        for u in c.itemReconfigures {
            guard let from = oldRow(u.old), let to = newRow(u.new) else { continue }
            v.itemReconfigures.append(.init(old: from, new: to))
            redrawnPaths.insert(u.new)
        }
        // Parents that gained or lost children: their disclosure is redrawn.
        for id in run.suspects where redrawn(id) {
            guard let before = run.workspace.locateBefore(id), let after = run.workspace.locate(id),
                  !redrawnPaths.contains(after), !contains(removed[before.section], before.row),
                  !contains(added[after.section], after.row),
                  let from = oldRow(before), let to = newRow(after) else { continue }
            v.itemReloads.append(.init(old: from, new: to))
        }
        // Untouched rows an expand showed or a collapse hid.
        for toggle in toggles {
            let s = toggle.section
            let hidden = Set(toggle.before).subtracting(toggle.after), shownNow = Set(toggle.after).subtracting(toggle.before)
            for flat in hidden where !contains(added[s], flat - newStarts[s]) {
                let o = Self.oldRow(ofUntouched: flat - newStarts[s], removed: removed[s], added: added[s])
                if let from = oldRow(ItemPath(section: s, row: o)) { v.itemDeletes.append(from) }
            }
            for flat in shownNow where !contains(added[s], flat - newStarts[s]) {
                if let to = newRow(ItemPath(section: s, row: flat - newStarts[s])) { v.itemInserts.append(to) }
            }
        }
        v.itemDeletes.sort()
        v.itemInserts.sort()
        v.itemMoves.sort { $0.to < $1.to }
        v.itemReloads.sort { $0.old < $1.old }
        v.itemReconfigures.sort { $0.old < $1.old }

        var sections = oldVisible.sections
        for s in 0..<count {
            sections[s].header = new.sections[s].header
            guard changed.contains(s) else { continue }
            if let rows = newRowSources[s] {
                sections[s].items = ItemList(rows: rows, offset: newStarts[s], of: new.sections[s].items)
            } else {
                sections[s].items = new.sections[s].items
            }
        }
        return Result(changeset: v, visible: Snapshot(sections: sections), rowSources: newRowSources)
    }

    /// The shown rows of a section after rows left and came (section rows,
    /// ascending): the untouched shown rows (`rows`, flat, from `start`; nil:
    /// every row) take the places the added rows leave free, in order.
    /// - Complexity: O(shown rows + removed + added)
    static func renumber(_ rows: [Int]?, start: Int, oldCount: Int, removed: [Int], added: [Int],
                         shownAdded: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity((rows?.count ?? oldCount) + shownAdded.count)
        var r = 0, a = 0, shown = 0
        func keep(_ row: Int) {
            while r < removed.count, removed[r] < row { r += 1 }
            if r < removed.count, removed[r] == row { return }
            // The `untouched`-th untouched row goes to the first free new row
            // past the added rows before it.
            let untouched = row - r
            while a < added.count, added[a] <= untouched + a { a += 1 }
            let to = untouched + a
            while shown < shownAdded.count, shownAdded[shown] < to {
                result.append(shownAdded[shown])
                shown += 1
            }
            result.append(to)
        }
        if let rows {
            for flat in rows { keep(flat - start) }
        } else {
            for row in 0..<oldCount { keep(row) }
        }
        result.append(contentsOf: shownAdded[shown...])
        return result
    }

    /// The index of `value` in ascending `list` (the insertion point if absent).
    static func position(of value: Int, in list: [Int]) -> Int {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    static func contains(_ list: [Int], _ value: Int) -> Bool {
        let i = position(of: value, in: list)
        return i < list.count && list[i] == value
    }
}
