extension Changeset {
    /// Where the row at `old` (old coordinates) is after the changeset, or
    /// nil when it was deleted (or its section was).
    ///
    /// Follows UIKit's batch rules: a moved row lands at its destination;
    /// other survivors keep their order and fill the rows of their (new)
    /// section that are not insert or move destinations.
    /// - Complexity: O(changes + sections).
    func newPath(ofOld old: ItemPath, oldSectionCount: Int, newSectionCount: Int) -> ItemPath? {
        if let move = itemMoves.first(where: { $0.from == old }) { return move.to }
        if itemDeletes.contains(old) { return nil }
        guard let layout = try? BatchSectionLayout(self, oldCount: oldSectionCount, newCount: newSectionCount),
              layout.oldToNew.indices.contains(old.section) else { return nil }
        let newSection = layout.oldToNew[old.section]
        guard newSection >= 0 else { return nil }
        // Survivors before it in its old section.
        var rank = old.row
        for d in itemDeletes where d.section == old.section && d.row < old.row { rank -= 1 }
        for m in itemMoves where m.from.section == old.section && m.from.row < old.row { rank -= 1 }
        // The rank-th row of the new section that is not a destination.
        var destinations: [Int] = []
        for i in itemInserts where i.section == newSection { destinations.append(i.row) }
        for m in itemMoves where m.to.section == newSection { destinations.append(m.to.row) }
        destinations.sort()
        var row = rank
        for d in destinations {
            if d <= row { row += 1 } else { break }
        }
        return ItemPath(section: newSection, row: row)
    }

    /// Where section `old` is after the changeset, or nil when deleted.
    func newSection(ofOld old: Int, oldSectionCount: Int, newSectionCount: Int) -> Int? {
        guard let layout = try? BatchSectionLayout(self, oldCount: oldSectionCount, newCount: newSectionCount),
              layout.oldToNew.indices.contains(old), layout.oldToNew[old] >= 0 else { return nil }
        return layout.oldToNew[old]
    }
}
