/// Where the window's top row (its **anchor**) went, found through the
/// full snapshot instead of by comparing ids down the new visible list.
///
/// A filtered list describes each visible row by its place in the full
/// snapshot (`SearchCache.rowSources`). The anchor is followed there: its
/// old place, moved through what changed the full snapshot (nothing, for a
/// search; the edit's changeset, for an edit), then looked up among the
/// new row sources. A keystroke or an append to a million-row list then
/// costs a lookup among the ranked rows, not a scan of a million ids that
/// would also rank every deferred match.
extension DataSource {
    /// Where the window's top row (row `oldStart` of `oldVisible`) is after a
    /// search changed the visible list: its flat index in the new list, or
    /// `.some(nil)` when the search hid it; nil when this cannot tell
    /// (outlines, the placeholder, a header) and the caller looks it up by id.
    /// - Complexity: O(ranked rows of its section + log matches); ranks the
    ///   deferred rows only when the row is one of them.
    func searchAnchor(old oldCache: SearchCache, oldVisible: Snapshot, oldStart: Int) -> Int?? {
        anchor(old: oldCache, oldVisible: oldVisible, oldStarts: Self.itemStarts(of: snapshot), oldStart: oldStart,
                      headers: false) { $0 }
    }

    /// Where the window's top row is after an edit (`fullChangeset`, the
    /// diff of the full snapshots `oldFull` → `snapshot`) of a flat list
    /// that a search filters: `.some(nil)` when the edit deleted it or the
    /// search now hides it; nil when this cannot tell (outlines, the
    /// placeholder, an edit of sections: the changeset reports an item
    /// moved into an inserted section as deleted).
    /// - Complexity: O(changes log changes + ranked rows of its section +
    ///   log matches); ranks the deferred rows only when the row is one of them.
    func editAnchor(old oldCache: SearchCache, oldFull: Snapshot, oldVisible: Snapshot, oldStart: Int,
                    fullChangeset: Changeset) -> Int?? {
        guard fullChangeset.sectionInserts.isEmpty, fullChangeset.sectionDeletes.isEmpty,
              fullChangeset.sectionMoves.isEmpty, oldFull.sections.count == snapshot.sections.count else { return nil }
        let count = snapshot.sections.count
        return anchor(old: oldCache, oldVisible: oldVisible, oldStarts: Self.itemStarts(of: oldFull), oldStart: oldStart,
                      headers: true) { path in
            fullChangeset.newPath(ofOld: path, oldSectionCount: count, newSectionCount: count)
        }
    }

    /// The flat index of each section's first item, and the total.
    /// - Complexity: O(sections)
    static func itemStarts(of snapshot: Snapshot) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(snapshot.sections.count + 1)
        for section in snapshot.sections { starts.append((starts.last ?? 0) + section.items.count) }
        return starts
    }

    /// The anchor moved by `newPath` (an item's old path in the full
    /// snapshot → its new one, nil when it is gone), with sections kept in
    /// place. `headers`: a header anchor stays on its section's header
    /// (else nil: the caller looks it up).
    private func anchor(old oldCache: SearchCache, oldVisible: Snapshot, oldStarts: [Int], oldStart: Int, headers: Bool,
                        newPath: (ItemPath) -> ItemPath?) -> Int?? {
        guard outline.isEmpty, oldVisible.sections.count == oldStarts.count - 1,
              visible.sections.count == snapshot.sections.count, oldVisible.sections.count == visible.sections.count,
              let (s, oldRow) = FlatLayout(oldVisible).position(of: oldStart) else { return nil }
        let layout = FlatLayout(visible)
        guard let oldRow else {
            guard headers else { return nil }
            return .some(layout.headerIndex(of: s))
        }
        let oldFlat: Int
        if let source = oldCache.rowSource(section: s, row: oldRow) {
            oldFlat = source
        } else if oldCache.rowSources[s] == nil {
            oldFlat = oldStarts[s] + oldRow
        } else {
            return nil
        }
        guard oldFlat >= 0 else { return nil }  // the placeholder
        guard let moved = newPath(ItemPath(section: s, row: oldFlat - oldStarts[s])),
              snapshot.sections.indices.contains(moved.section) else { return .some(nil) }
        let t = moved.section
        guard let rows = searchCache.rowSources[t] else {
            return .some(layout.index(of: moved))
        }
        let flat = Self.itemStarts(of: snapshot)[t] + moved.row
        if let r = rows.firstIndex(of: flat) { return .some(layout.index(of: ItemPath(section: t, row: r))) }
        guard let deferred = searchCache.deferred, deferred.section == t else { return .some(nil) }
        var low = 0, high = deferred.unranked.count
        while low < high {
            let mid = (low + high) / 2
            if deferred.unranked[mid] < flat { low = mid + 1 } else { high = mid }
        }
        guard low < deferred.unranked.count, deferred.unranked[low] == flat else { return .some(nil) }
        guard let k = deferred.rankedFlat.firstIndex(of: flat) else { return .some(nil) }
        return .some(layout.index(of: ItemPath(section: t, row: rows.count + k)))
    }
}

/// The anchor of a window found without a visible diff: its new flat
/// index, nil when it is gone (or the window has none to follow).
struct KnownAnchor {
    var index: Int?
}

extension DataSource {
    /// Whether an edit can answer with the window's diff alone, and where
    /// the window's anchor went: a flat list that an active search filters,
    /// held through a window (the frontend holds only the window, so the
    /// diff of the whole visible lists, which reads every visible row and
    /// ranks every deferred match, would be thrown away), edited without
    /// changing its sections. nil: the caller diffs the visible lists.
    func windowAnchorWithoutDiff(old oldCache: SearchCache, oldFull: Snapshot, oldOutline: Outline?,
                                 oldVisible: Snapshot, fullChangeset: Changeset) -> KnownAnchor? {
        guard let state = window, search?.isActive == true, outline.isEmpty, oldOutline?.isEmpty ?? true else { return nil }
        if state.pinned || state.rows.isEmpty { return KnownAnchor(index: nil) }  // nothing to follow
        return editAnchor(old: oldCache, oldFull: oldFull, oldVisible: oldVisible, oldStart: state.start,
                          fullChangeset: fullChangeset).map { KnownAnchor(index: $0) }
    }

    /// The end of `commit` for an edit answered with the window's diff
    /// alone: selection reconciled, version bumped, the window moved to its
    /// anchor and redrawn (rows the edit asked to redraw included).
    /// - Complexity: O(selected + w log w), w = window rows.
    mutating func commitToWindow(oldVisible: Snapshot, anchor: KnownAnchor, redraws: RedrawRequests) -> Update {
        let selectionDelta = selection.reconcile(with: snapshot, visible: visible)
        version += 1
        let windowUpdate = windowAfter(changeset: nil, oldVisible: oldVisible, mayScan: false, anchor: .some(anchor.index),
                                       askedRedraws: redraws)
        var update = Update(changeset: Changeset(), oldVisible: oldVisible, newVisible: visible, selection: selectionDelta,
                            window: windowUpdate)
        update.visibleDiffOmitted = true
        return update
    }
}
