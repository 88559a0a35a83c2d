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
/// The window's top row located in the full snapshot.
enum FullAnchor {
    case header(section: Int)
    case item(ItemPath)
}

extension DataSource {
    /// Where the window's top row (row `oldStart` of `oldVisible`) is after a
    /// search changed the visible list: its flat index in the new list, or
    /// `.some(nil)` when the search hid it; nil when this cannot tell
    /// (outlines, the placeholder, a header) and the caller looks it up by id.
    /// - Complexity: O(ranked rows of its section + log matches); ranks the
    ///   deferred rows only when the row is one of them.
    func searchAnchor(old oldCache: SearchCache, oldVisible: Snapshot, oldStart: Int) -> Int?? {
        guard case .item(let path)? = fullAnchor(cache: oldCache, visible: oldVisible, full: snapshot, start: oldStart)
        else { return nil }
        return visibleIndex(ofFull: path)
    }

    /// Row `start` of `visible` (a filtering of `full` that `cache`
    /// describes) as a place in `full`; nil when this cannot tell (an
    /// outline, the placeholder, no such row).
    /// - Complexity: O(sections), plus ranking the deferred rows when the
    ///   row is one of them and they are not ranked yet.
    func fullAnchor(cache: SearchCache, visible: Snapshot, full: Snapshot, start: Int) -> FullAnchor? {
        guard outline.isEmpty, visible.sections.count == full.sections.count,
              let (s, row) = FlatLayout(visible).position(of: start) else { return nil }
        guard let row else { return .header(section: s) }
        guard cache.rowSources[s] != nil else { return .item(ItemPath(section: s, row: row)) }
        guard let flat = cache.rowSource(section: s, row: row), flat >= 0 else { return nil }  // or the placeholder
        let starts = Self.itemStarts(of: full)
        guard flat >= starts[s], flat < starts[s + 1] else { return nil }
        return .item(ItemPath(section: s, row: flat - starts[s]))
    }

    /// The flat index in the visible list of the full snapshot's item at
    /// `path`, or `.some(nil)` when the search hides it; nil when the
    /// visible list does not mirror the full one's sections.
    /// - Complexity: O(ranked rows of its section + log matches); ranks the
    ///   deferred rows only when the item is one of them.
    func visibleIndex(ofFull path: ItemPath) -> Int?? {
        guard outline.isEmpty, visible.sections.count == snapshot.sections.count,
              snapshot.sections.indices.contains(path.section) else { return nil }
        let layout = FlatLayout(visible)
        let t = path.section
        guard let rows = searchCache.rowSources[t] else { return .some(layout.index(of: path)) }
        let flat = Self.itemStarts(of: snapshot)[t] + path.row
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

    /// The flat index of each section's first item, and the total.
    /// - Complexity: O(sections)
    static func itemStarts(of snapshot: Snapshot) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(snapshot.sections.count + 1)
        for section in snapshot.sections { starts.append((starts.last ?? 0) + section.items.count) }
        return starts
    }
}

/// The anchor of a window found without a visible diff: its new flat
/// index, nil when it is gone (or the window has none to follow).
struct KnownAnchor {
    var index: Int?
}

extension DataSource {
    /// Before an edit of a flat list that an active search filters, held
    /// through a window: where the window's top row is in the full
    /// snapshot, to follow it through the edit without a diff of the
    /// whole visible lists (which reads every visible row and ranks every
    /// deferred match, for a frontend that holds the window alone). nil:
    /// the edit takes the general path. A window with nothing to follow
    /// (pinned, or holding no row) has no anchor either way.
    func anchorBeforeWindowEdit() -> FullAnchor?? {
        guard let state = window, search?.isActive == true, outline.isEmpty else { return nil }
        if state.pinned || state.rows.isEmpty { return .some(nil) }
        guard let anchor = fullAnchor(cache: searchCache, visible: visible, full: snapshot, start: state.start) else { return nil }
        return .some(anchor)
    }

    /// Where the window's top row went through an edit (`fullChangeset`),
    /// found before it by `anchorBeforeWindowEdit`: nil when the edit changed
    /// sections (its changeset reports an item moved into an inserted
    /// section as deleted) or made the source a tree; else its flat index,
    /// nil inside when it is gone.
    /// - Complexity: O(changes log changes), plus `visibleIndex(ofFull:)`.
    func anchorAfterWindowEdit(_ before: FullAnchor?, oldSectionCount: Int, fullChangeset: Changeset,
                               oldOutline: Outline?) -> KnownAnchor? {
        guard outline.isEmpty, oldOutline?.isEmpty ?? true, search?.isActive == true,
              fullChangeset.sectionInserts.isEmpty, fullChangeset.sectionDeletes.isEmpty,
              fullChangeset.sectionMoves.isEmpty, oldSectionCount == snapshot.sections.count else { return nil }
        switch before {
        case nil:
            return KnownAnchor(index: nil)
        case .header(let s):
            return KnownAnchor(index: FlatLayout(visible).headerIndex(of: s))
        case .item(let path):
            let count = snapshot.sections.count
            guard let moved = fullChangeset.newPath(ofOld: path, oldSectionCount: count, newSectionCount: count) else {
                return KnownAnchor(index: nil)
            }
            return visibleIndex(ofFull: moved).map { KnownAnchor(index: $0) }
        }
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
