/// What a fast tree edit needs to find rows without scanning, kept by the
/// source between edits like the flat `EditIndex` (dropped by every other
/// change of the snapshot, see `DataSource.commit`): where every item is
/// (its section and chunk) and how many descendants each item with
/// children has, so the run of preorder rows of a subtree is the item's row
/// and the `descendants[id]` rows after it.
struct OutlineEditIndex: Sendable {
    var edit: EditIndex
    /// The number of descendants of every item with children.
    var descendants: [ItemID: Int]

    /// Indexes a chunkified preorder snapshot (`Snapshot.chunkify()`) and its outline.
    /// - Complexity: O(n), with a stack as deep as the tree (no recursion).
    init(_ snapshot: Snapshot, _ outline: Outline) {
        edit = EditIndex(snapshot)
        descendants = [ItemID: Int](minimumCapacity: outline.childCounts.count)
        for section in snapshot.sections {
            // The open ancestors of the current row and their rows: an item's
            // subtree ends at the first later row that is not under it.
            var open: [(id: ItemID, row: Int)] = []
            var row = 0
            for item in section.items {
                let id = item.itemID
                let parent = outline.parents[id]
                while let last = open.last, last.id != parent {
                    descendants[last.id] = row - last.row - 1
                    open.removeLast()
                }
                if outline.childCounts[id] != nil { open.append((id, row)) }
                row += 1
            }
            while let last = open.popLast() { descendants[last.id] = row - last.row - 1 }
        }
    }
}
