extension DataSource {
    /// The fast path of `editOutline`: the ops as flat edits of the preorder
    /// rows (`OutlineRunEdit`), the outline changed in place, the visible
    /// rows and their diff derived from the ops (`OutlineVisibleEdit`). nil
    /// when it does not apply: an op it does not take (`deleteAllItems`), a
    /// source that is or becomes flat; the caller then runs the general
    /// path. During a search, or when the section list changed, the
    /// new rows go in through `commit` (`commitFindingRows`). An op that
    /// fails throws the general path's error for it. In both cases nothing
    /// has changed (the index built on the way is kept).
    ///
    /// `asked` counts the calls of `shouldStop`, one before each op; a stop
    /// throws `stopped` with nothing changed. An edit whose ops together
    /// walk more ancestors than a quarter of the items (thousands of ops
    /// thousands of levels deep) gives up for the general path, which costs
    /// O(n) whatever the depth.
    /// - Complexity: the ops' costs (see `OutlineRunEdit`), plus the
    ///   derivation's (see `OutlineVisibleEdit.derive`), plus O(n) for the
    ///   first edit after the snapshot was replaced another way (to chunk
    ///   and index it, see `OutlineEditIndex`), plus selection bookkeeping
    ///   when items are selected (as `edit`).
    mutating func editOutlineByRuns(_ ops: [OutlineEditOperation], shouldStop: () -> Bool,
                                    asked: inout Int) throws(EditError) -> Update? {
        guard !outline.isEmpty, ops.allSatisfy(OutlineRunEdit.handles) else { return nil }
        var index: OutlineEditIndex
        if let kept = outlineEditIndex {
            index = kept
        } else {
            // Same items in chunks: nothing changes for the frontend.
            snapshot.chunkify()
            index = OutlineEditIndex(snapshot, outline)
        }
        outlineEditIndex = nil
        var run = OutlineRunEdit(workspace: EditWorkspace(snapshot, index: index.edit),
                                 draft: OutlineDraft(base: outline, descendants: index.descendants))
        // Each op pays the depth where it works; many ops deep down (a chain
        // of thousands of levels built in one edit) would pay more than
        // taking the source apart once: past that, the general path runs.
        let depthBudget = max(snapshot.itemCount / 4, 50_000)
        for (i, op) in ops.enumerated() {
            asked += 1
            if shouldStop() {
                outlineEditIndex = index
                throw EditError(op: i, opName: op.name, reason: .stopped, ids: [])
            }
            do throws(OutlineRunEdit.Refusal) {
                try run.apply(op)
            } catch {
                outlineEditIndex = index
                guard case .failed(let failure) = error else { return nil }
                throw EditError(op: i, opName: op.name, reason: failure.reason, ids: failure.ids,
                                transformFailure: failure.transformFailure)
            }
            if run.draft.ancestorSteps > depthBudget {
                outlineEditIndex = index
                return nil
            }
        }
        let full = run.workspace.changeset()
        guard !run.draft.isEmpty else {
            outlineEditIndex = index
            return nil
        }
        if (search?.isActive ?? false) || searchCache.deferred != nil || run.sectionsChanged {
            return commitFindingRows(&run, full: full, index: &index)
        }
        guard let result = OutlineVisibleEdit.derive(old: snapshot, oldVisible: visible,
                                                     rowSources: searchCache.rowSources, full: full, run: &run) else {
            outlineEditIndex = index
            return nil
        }

        let newSnapshot = mergeRun(&run, into: &index, keepingOldOutline: false).snapshot
        let oldVisible = visible
        snapshot = newSnapshot
        visible = result.visible
        editIndex = nil
        editPrebuild = nil
        // The search index and the flat positions were of the old rows.
        let pool = searchCache.pool
        searchCache = SearchCache()
        searchCache.pool = pool
        searchCache.rowSources = result.rowSources
        prebuildSearchIndexIfIdle()
        let reconciled = selection.reconcile(with: snapshot, visible: visible)
        version += 1
        outlineEditIndex = index
        let windowUpdate = windowAfter(changeset: result.changeset, oldVisible: oldVisible, mayScan: true)
        return Update(changeset: result.changeset, oldVisible: oldVisible, newVisible: visible,
                      selection: reconciled, window: windowUpdate)
    }

    /// Commits a fast edit whose visible rows are found again rather than
    /// derived from its ops: one made while a search is active, or one that
    /// changed the section list. The new rows and
    /// outline go in as any edit's do (`commit`): the search is carried
    /// through the rows' diff (its index spliced), the visible rows are
    /// found on the new tree (parents from the kept subtree sizes) and
    /// diffed with the old ones, and only the rows the ops moved, added,
    /// expanded or collapsed, and parents that gained or lost children, are
    /// checked for outline redraws.
    /// - Complexity: the search's answer, as after a flat edit (see
    ///   `replaceSnapshot`), or O(n) integer steps with one lookup per row
    ///   to find the expanded rows; plus O(visible rows) for the diff; plus
    ///   a copy of the outline's tables (the old outline is read for the
    ///   redraws while the new one is written).
    private mutating func commitFindingRows(_ run: inout OutlineRunEdit, full: Changeset,
                                          index: inout OutlineEditIndex) -> Update {
        let redrawn = run.suspects.union(run.moved)
        let (newSnapshot, oldOutline) = mergeRun(&run, into: &index, keepingOldOutline: true)
        let kept = index
        index = OutlineEditIndex(Snapshot(), Outline())
        return commit(newSnapshot, fullChangeset: full, oldOutline: oldOutline, outlineIndex: kept,
                      outlineRedraws: redrawn)
    }

    /// Writes a finished run into `index` and the source's outline, and
    /// answers its rows (and the old outline when `keepingOldOutline`, which
    /// copies the outline's tables). The workspace and the draft hold the
    /// old index and outline: they are let go of first, so both are updated
    /// in place.
    /// - Complexity: O(changed entries), plus the copy when kept.
    private mutating func mergeRun(_ run: inout OutlineRunEdit, into index: inout OutlineEditIndex,
                                   keepingOldOutline: Bool) -> (snapshot: Snapshot, oldOutline: Outline?) {
        let newSnapshot = Snapshot(sections: run.workspace.sections)
        let overlay = run.workspace.overlay
        let positions = run.sectionsChanged ? run.workspace.positions : nil
        var draft = run.draft
        run = OutlineRunEdit(workspace: EditWorkspace(Snapshot(), index: EditIndex(Snapshot())),
                             draft: OutlineDraft(base: Outline(), descendants: [:]))
        draft.base = Outline()
        draft.baseDescendants = [:]
        EditWorkspace.merge(overlay, positions: positions, into: &index.edit)
        let oldOutline = keepingOldOutline ? outline : nil
        draft.merge(into: &outline, descendants: &index.descendants)
        return (newSnapshot, oldOutline)
    }
}
