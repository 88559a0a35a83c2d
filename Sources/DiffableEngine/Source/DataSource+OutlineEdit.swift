extension DataSource {
    /// Applies edit ops to a source with nested items (or ops that nest
    /// items), atomically; see `OutlineEditOperation` for how each op reads
    /// on the tree and `OutlineForest` for how ops see each other. The diff
    /// is of the visible rows: moved subtrees move, re-parented rows are
    /// redrawn (their level and parent changed), revealed and hidden rows
    /// come and go. A source whose last nesting goes is flat again.
    ///
    /// Edits take a fast path (`editOutlineByRuns`): content ops,
    /// appending, inserting, deleting and moving items and their subtrees,
    /// `replaceChildren`, headers, expand and collapse, section ops, on a
    /// source with nested items. They cost what they touch (see
    /// `OutlineRunEdit`), and so does one that fails (it answers the general
    /// path's error); during a search, or after section ops, plus finding
    /// the visible rows again. `deleteAllItems`, an edit that leaves the
    /// source flat and a chain of deep ops past the depth budget take the
    /// general path: the source taken apart into an `OutlineForest` and put
    /// together again.
    ///
    /// `shouldStop` is asked before each op, once: a long edit stops there
    /// (`EditError.Reason.stopped`) with nothing changed.
    /// - Throws: `EditError`; the source is untouched (same version).
    /// - Complexity: fast path: see `editOutlineByRuns`. General path: O(n)
    ///   to take the source apart and put it together, plus per op O(ids +
    ///   siblings + depth) (and the subtrees it deletes or walks), plus O(n)
    ///   to diff the visible rows.
    public mutating func editOutline(_ ops: [OutlineEditOperation],
                                     shouldStop: () -> Bool = { false }) throws(EditError) -> Update {
        var asked = 0
        if let update = try editOutlineByRuns(ops, shouldStop: shouldStop, asked: &asked) { return update }
        // Ops the fast path already asked about are not asked again.
        var skipped = 0
        return try editOutlineRebuilding(ops) {
            skipped += 1
            return skipped > asked && shouldStop()
        }
    }

    /// The general path of `editOutline`: every op on an `OutlineForest` of
    /// the whole source, then the visible rows diffed.
    /// - Complexity: O(n) to take the source apart and put it together,
    ///   plus per op O(ids + siblings + depth) (and the subtrees it deletes
    ///   or walks), plus O(n) to diff the visible rows.
    mutating func editOutlineRebuilding(_ ops: [OutlineEditOperation],
                                        shouldStop: () -> Bool = { false }) throws(EditError) -> Update {
        var forest = OutlineForest(snapshot, outline)
        for (index, op) in ops.enumerated() {
            if shouldStop() { throw EditError(op: index, opName: op.name, reason: .stopped, ids: []) }
            do throws(EditFailure) {
                try forest.apply(op)
            } catch {
                throw EditError(op: index, opName: op.name, reason: error.reason, ids: error.ids, transformFailure: error.transformFailure)
            }
        }
        let (newSnapshot, newOutline) = forest.flattened()
        let oldOutline = outline
        outline = newOutline
        return commit(newSnapshot, fullChangeset: nil, oldOutline: oldOutline, redraws: forest.requests)
    }
}
