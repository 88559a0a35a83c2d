extension Changeset {
    /// Marks for redrawing the surviving rows whose place in the outline
    /// (level, parent, disclosure: has children, expanded) changed: the diff
    /// compares content only, but an indented row re-parented one level up
    /// must be drawn again. A moved row says `contentChanged`; a row that
    /// stayed gets a reload.
    /// - Complexity: O(n) for the rows of both snapshots.
    mutating func redrawOutlineRows(old: Snapshot, oldOutline: Outline, new: Snapshot, newOutline: Outline,
                                    only ids: Set<ItemID>? = nil, placeholder: String? = nil) {
        // The search placeholder is the daemon's row: it is drawn without
        // outline members, so nesting never changes it.
        let placeholderID = placeholder.map(ItemID.init)
        var oldPath: [ItemID: ItemPath] = [:]
        for (s, section) in old.sections.enumerated() {
            for (r, item) in section.items.enumerated() where ids?.contains(item.itemID) ?? true {
                oldPath[item.itemID] = ItemPath(section: s, row: r)
            }
        }
        let inserted = Set(itemInserts)
        var moveAt: [ItemPath: Int] = [:]
        for (i, move) in itemMoves.enumerated() { moveAt[move.to] = i }
        let reloaded = Set(itemReloads.map(\.new)).union(itemReconfigures.map(\.new))
        let insertedSections = Set(sectionInserts)
        var added = false
        for (s, section) in new.sections.enumerated() where !insertedSections.contains(s) {
            for (r, item) in section.items.enumerated() where ids?.contains(item.itemID) ?? true {
                let path = ItemPath(section: s, row: r)
                guard !inserted.contains(path), !reloaded.contains(path), item.itemID != placeholderID,
                      let from = oldPath[item.itemID],
                      drawn(oldOutline, item.itemID) != drawn(newOutline, item.itemID) else { continue }
                if let m = moveAt[path] {
                    itemMoves[m].contentChanged = true
                } else {
                    itemReloads.append(ItemUpdate(old: from, new: path))
                    added = true
                }
            }
        }
        if added { itemReloads.sort { $0.old < $1.old } }
    }

    /// What a row shows of the outline: nothing in a flat source (rows carry
    /// no outline members there), so a source that becomes flat or nested
    /// redraws every row.
    private func drawn(_ outline: Outline, _ id: ItemID) -> OutlineRow? {
        outline.isEmpty ? nil : outline.row(of: id)
    }
}

extension Changeset {
    /// Adds the redraws an edit asked for (see `RedrawRequests`): rows that
    /// were not inserted get a reload or a reconfigure (a moved row says
    /// `contentChanged`; a reload a `reconfigure` asked for becomes one);
    /// sections that stayed get a header reload.
    /// - Complexity: O(n) for the rows of both snapshots.
    mutating func addRedraws(_ requests: RedrawRequests, old: Snapshot, new: Snapshot) {
        guard !requests.isEmpty else { return }
        var oldPath: [ItemID: ItemPath] = [:]
        for (s, section) in old.sections.enumerated() {
            for (r, item) in section.items.enumerated()
            where requests.reloadItems.contains(item.itemID) || requests.reconfigureItems.contains(item.itemID) {
                oldPath[item.itemID] = ItemPath(section: s, row: r)
            }
        }
        let inserted = Set(itemInserts)
        var moveAt: [ItemPath: Int] = [:]
        for (i, move) in itemMoves.enumerated() { moveAt[move.to] = i }
        let insertedSections = Set(sectionInserts)
        for (s, section) in new.sections.enumerated() where !insertedSections.contains(s) {
            for (r, item) in section.items.enumerated() {
                let reconfigure = requests.reconfigureItems.contains(item.itemID)
                guard reconfigure || requests.reloadItems.contains(item.itemID), let from = oldPath[item.itemID] else { continue }
                let path = ItemPath(section: s, row: r)
                if inserted.contains(path) { continue }
                if let m = moveAt[path] {
                    itemMoves[m].contentChanged = true
                    continue
                }
                let update = ItemUpdate(old: from, new: path)
                itemReloads.removeAll { $0.new == path }
                itemReconfigures.removeAll { $0.new == path }
                if reconfigure { itemReconfigures.append(update) } else { itemReloads.append(update) }
            }
        }
        itemReloads.sort { $0.old < $1.old }
        itemReconfigures.sort { $0.old < $1.old }
        for id in requests.reloadSections {
            guard let s = new.sections.firstIndex(where: { $0.id == id }), !insertedSections.contains(s),
                  let from = old.sections.firstIndex(where: { $0.id == id }) else { continue }
            if let m = sectionMoves.firstIndex(where: { $0.to == s }) {
                sectionMoves[m].headerChanged = true
            } else if !sectionReloads.contains(where: { $0.new == s }) {
                sectionReloads.append(SectionUpdate(old: from, new: s))
            }
        }
        sectionReloads.sort { $0.old < $1.old }
    }
}
