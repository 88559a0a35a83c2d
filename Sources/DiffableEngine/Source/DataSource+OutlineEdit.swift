extension DataSource {
    /// Applies edit ops to a source with nested items (or ops that nest
    /// items), atomically; see `OutlineEditOperation` for how each op reads
    /// on the tree. The diff is of the visible rows: moved subtrees move,
    /// re-parented rows are redrawn (their level and parent changed),
    /// revealed and hidden rows come and go.
    ///
    /// - Throws: `EditError`; the source is untouched (same version).
    /// - Complexity: O(n) per op plus O(n) to diff the visible rows, in this
    ///   version (a flat source's `edit` costs what its ops touch).
    public mutating func editOutline(_ ops: [OutlineEditOperation]) throws(EditError) -> Update {
        var forest = OutlineForest(snapshot, outline)
        for (index, op) in ops.enumerated() {
            do throws(EditFailure) {
                try forest.apply(op)
            } catch {
                throw EditError(op: index, opName: op.name, reason: error.reason, ids: error.ids)
            }
        }
        let (newSnapshot, newOutline) = forest.flattened()
        let oldOutline = outline
        outline = newOutline
        return commit(newSnapshot, fullChangeset: nil, oldOutline: oldOutline, redraws: forest.requests)
    }
}
