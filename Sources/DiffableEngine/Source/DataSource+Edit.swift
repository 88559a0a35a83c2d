extension DataSource {
    /// Applies edit ops to the snapshot, atomically; bumps the version. The
    /// diff comes from the ops (see `Snapshot.applyingEdits`).
    ///
    /// The source keeps an `EditIndex` of its snapshot between edits (built
    /// on the first edit after the snapshot was replaced some other way, in
    /// O(n), after splitting its large sections into chunks, see
    /// `Snapshot.chunkify()`), so an edit costs what its ops touch, not the
    /// size of the source or of the sections it touches.
    ///
    /// - Throws: `EditError`; the source is untouched (same version).
    /// - Complexity: see `Snapshot.applyingEdits(_:index:)`; O(n) once per
    ///   `apply`, to build the index. Selection bookkeeping
    ///   (`SelectionState.reconcile`) adds its own cost when items are selected.
    public mutating func edit(_ ops: [EditOperation]) throws(EditError) -> Update {
        // On a tree, items move and go with their subtrees.
        guard outline.isEmpty else { return try editOutline(ops.map { .op($0) }) }
        var index = takeEditIndex()
        let result: (snapshot: Snapshot, changeset: Changeset)
        do throws(EditError) {
            result = try snapshot.applyingEdits(ops, index: &index)
        } catch {
            editIndex = index
            throw error
        }
        let update = commit(result.snapshot, fullChangeset: result.changeset)
        editIndex = index
        return update
    }
}

/// A snapshot split into chunks and its edit index, built together in the
/// background (see `DataSource.prebuildEditIndexIfInteractive`).
struct PrebuiltEditIndex: Sendable {
    var snapshot: Snapshot
    var index: EditIndex
}

extension DataSource {
    /// After an `apply` of a large flat source that a frontend shows
    /// through a viewport (an interactive list: a picker, an editor
    /// buffer), builds the edit index in the background, so the first edit
    /// (the first Enter) does not build it (O(n), far over a frame at a
    /// million items). Sources
    /// without a viewport (batch clients that apply again and again) start
    /// no background work.
    mutating func prebuildEditIndexIfInteractive() {
        guard window != nil, outline.isEmpty, editIndex == nil,
              snapshot.itemCount >= BackgroundBuilds.minimumItems else { return }
        let snapshot = snapshot
        editPrebuild = BackgroundBuild {
            var chunked = snapshot
            chunked.chunkify()
            return PrebuiltEditIndex(snapshot: chunked, index: EditIndex(chunked))
        }
    }

    /// The edit index of the snapshot, taken out of the source so it is
    /// uniquely referenced while an edit updates it: the kept one, the one
    /// built in the background since the apply (over the same items chunked
    /// the same way), or one built now over the snapshot chunked (same
    /// items, so nothing changes for the frontend).
    /// - Complexity: O(1) when kept or prebuilt, else O(n).
    mutating func takeEditIndex() -> EditIndex {
        let index: EditIndex
        if let kept = editIndex {
            index = kept
        } else if let prebuilt = editPrebuild?.value() {
            snapshot = prebuilt.snapshot
            index = prebuilt.index
        } else {
            snapshot.chunkify()
            index = EditIndex(snapshot)
        }
        editIndex = nil
        editPrebuild = nil
        return index
    }
}
