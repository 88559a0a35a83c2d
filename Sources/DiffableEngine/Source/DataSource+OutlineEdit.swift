extension DataSource {
    /// Applies edit ops to a source with nested items (or ops that nest
    /// items), atomically; see `OutlineEditOperation` for how each op reads
    /// on the tree and `OutlineForest` for how ops see each other. The diff
    /// is of the visible rows: moved subtrees move, re-parented rows are
    /// redrawn (their level and parent changed), revealed and hidden rows
    /// come and go. A source whose last nesting goes is flat again.
    ///
    /// `shouldStop` is asked before each op: a long edit stops there
    /// (`EditError.Reason.stopped`) with nothing changed.
    /// - Throws: `EditError`; the source is untouched (same version).
    /// - Complexity: O(n) to take the source apart and put it together, plus
    ///   per op O(ids + siblings + depth) (and the subtrees it deletes or
    ///   walks), plus O(n) to diff the visible rows.
    public mutating func editOutline(_ ops: [OutlineEditOperation],
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
