/// Runs of consecutive rows, for tree edits: the snapshot keeps a section's
/// items in preorder, so a subtree is a run, and a fast tree edit
/// (`OutlineRunEdit`) inserts, removes and moves runs. These change rows
/// without the flat ops' checks (the caller checks on the tree) and keep
/// the same bookkeeping, so `changeset()` and `merge` see them as they see
/// `insertItems` and `deleteItems`: an id removed and inserted again is one
/// moved item.
extension EditWorkspace {
    /// Where `id` was before the edit. - Complexity: as `locate`.
    func locateBefore(_ id: ItemID) -> ItemPath? {
        guard let location = base.locationOfItem[id], let s = base.sectionPosition[location.section],
              oldSections.indices.contains(s),
              let found = oldSections[s].items.find(id, inChunk: location.chunk, hint: location.offset) else { return nil }
        return ItemPath(section: s, row: found.row)
    }

    /// Whether `id` is an item now. - Complexity: O(1) expected.
    func contains(_ id: ItemID) -> Bool { location(ofItem: id) != nil }

    /// Removes rows `rows` of section `s` and answers their items.
    /// - Complexity: O(rows + touched chunks + chunks of the section).
    mutating func removeRun(section s: Int, rows: Range<Int>) -> [Item] {
        guard sections.indices.contains(s), rows.lowerBound >= 0, rows.upperBound <= sections[s].items.count,
              !rows.isEmpty else { return [] }
        var items: [Item] = []
        items.reserveCapacity(rows.count)
        for r in rows { items.append(sections[s].items[r]) }
        var placements: [ItemList.Placement]? = []
        sections[s].items.replace(rows, with: EmptyCollection(), report: &placements)
        // Placements may name removed items: record them first.
        record(placements, in: sections[s].id)
        for item in items {
            let id = item.itemID
            overlay[id] = .some(nil)
            if itemMarks[id] == nil { itemMarks[id] = [] }
        }
        return items
    }

    /// Inserts `items` (none of them an item now) at row `row` of section `s`.
    /// - Complexity: O(items + touched chunks + chunks of the section).
    mutating func insertRun(_ items: [Item], section s: Int, at row: Int) {
        guard sections.indices.contains(s), !items.isEmpty else { return }
        var placements: [ItemList.Placement]? = []
        sections[s].items.insert(items, at: min(max(row, 0), sections[s].items.count), report: &placements)
        record(placements, in: sections[s].id)
        for item in items {
            let id = item.itemID
            if base.locationOfItem[id] != nil {
                itemMarks[id, default: []].insert(.moved)
            } else if itemMarks[id] == nil {
                itemMarks[id] = []
            }
        }
    }
}
