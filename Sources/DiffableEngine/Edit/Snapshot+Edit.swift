extension Snapshot {
    /// Applies `ops` in order, atomically, and returns the edited snapshot
    /// with its diff from this one.
    ///
    /// The changeset is derived from the ops (which ids were deleted,
    /// inserted, moved, reloaded, reconfigured), not by comparing snapshots,
    /// and follows the same rules as `difference(to:)` (see `Changeset`).
    /// Identity is by id: an id deleted and inserted again within one call
    /// is the same element, reported as moved; an id inserted then deleted
    /// within one call is not reported at all.
    ///
    /// This snapshot must be valid (see `validationIssues()`).
    ///
    /// - Throws: `EditError` naming the first failing op, the reason and the
    ///   ids; nothing is returned, this snapshot is untouched.
    /// - Complexity: O(n) to index this snapshot (after chunking its large
    ///   sections, `chunkify()`), plus the cost of the variant taking an
    ///   `EditIndex` (use that one to edit repeatedly).
    public func applyingEdits(_ ops: [EditOperation]) throws(EditError) -> (snapshot: Snapshot, changeset: Changeset) {
        var chunked = self
        chunked.chunkify()
        var index = EditIndex(chunked)
        return try chunked.applyingEdits(ops, index: &index)
    }

    /// `applyingEdits(_:)` with an index of this snapshot; on success `index`
    /// becomes the index of the edited snapshot, on failure it is untouched.
    ///
    /// Pass an index that is not shared (e.g. moved out of its owner) so that
    /// updating it does not copy it.
    ///
    /// - Complexity: per op, O(ids named × (c + chunks of their section)),
    ///   c ≤ `ItemList.maxChunk` (2048): an item is found through the chunk
    ///   the index records for it, and inserting or removing shifts one chunk
    ///   and the chunk table of its section (see `ItemList`); plus O(c) per
    ///   chunk split or merged (its items are re-indexed). O(sections) for an
    ///   op that changes the section list, O(n) for `deleteAllItems`.
    ///   Copy-on-write copies, once per edit, the section list (O(sections)),
    ///   the chunk table of each touched section and each touched chunk; the
    ///   old snapshot keeps sharing every other chunk, so rollback is free.
    ///   A flat section (never chunked, see `ItemList.chunkify()`) longer
    ///   than 2048 items costs O(its rows) on its first edit; `DataSource`
    ///   chunks its snapshot before indexing it, so this does not happen
    ///   there.
    public func applyingEdits(
        _ ops: [EditOperation], index: inout EditIndex
    ) throws(EditError) -> (snapshot: Snapshot, changeset: Changeset) {
        if let appended = try appendingItems(ops, index: &index) { return appended }
        return try applyingEditsInGeneral(ops, index: &index)
    }

    /// `applyingEdits(_:index:)` through an `EditWorkspace`: any mix of ops.
    func applyingEditsInGeneral(
        _ ops: [EditOperation], index: inout EditIndex
    ) throws(EditError) -> (snapshot: Snapshot, changeset: Changeset) {
        var workspace = EditWorkspace(self, index: index)
        for (number, op) in ops.enumerated() {
            do throws(EditFailure) {
                try workspace.apply(op)
            } catch {
                throw EditError(op: number, opName: op.name, reason: error.reason, ids: error.ids, transformFailure: error.transformFailure)
            }
        }
        let changeset = workspace.changeset()
        let edited = Snapshot(sections: workspace.sections)
        let overlay = workspace.overlay
        let positions = workspace.sectionStructureChanged ? workspace.positions : nil
        // Drop the workspace's reference to `index` so updating it does not copy it.
        workspace = EditWorkspace(Snapshot(), index: EditIndex(Snapshot()))
        EditWorkspace.merge(overlay, positions: positions, into: &index)
        return (edited, changeset)
    }
}
