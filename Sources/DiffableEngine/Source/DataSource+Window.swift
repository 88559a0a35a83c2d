/// What a frontend with a viewport holds: the window of the flat visible
/// list it was last told about. Opaque outside the engine: a caller may
/// keep a copy and put it back (to undo `prepareViewport` when the change
/// that followed failed).
public struct WindowState: Sendable {
    var viewport: Viewport
    /// Flat index of `rows[0]`.
    var start: Int
    var rows: [WindowRow]
    /// Set by `prepareViewport`: the next change puts the window at
    /// `viewport.start` instead of following its top row.
    var pinned = false

    /// The window rows the frontend holds, in order.
    public var heldRows: [WindowRow] { rows }
}

extension DataSource {
    /// The viewport, if the frontend set one.
    public var viewport: Viewport? { window?.viewport }

    /// Sets the viewport (scrolling), or removes it with nil or a zero count;
    /// answers how the frontend's window rows change (nil when removed).
    /// - Complexity: O(w log w + sections), w = window rows.
    public mutating func setViewport(_ viewport: Viewport?) -> WindowUpdate? {
        guard let viewport, viewport.count > 0 else {
            window = nil
            return nil
        }
        let old = window?.rows ?? []
        window = WindowState(viewport: viewport, start: viewport.start, rows: [])
        if editPrebuild == nil { prebuildEditIndexIfInteractive() }
        return refreshWindow(from: old, start: viewport.start)
    }

    /// Sets the viewport for the change that follows (one request changing
    /// the list and the window together): that change answers from the rows
    /// the frontend holds to the new viewport's rows, at `viewport.start`.
    /// nil or a zero count removes the viewport.
    public mutating func prepareViewport(_ viewport: Viewport?) {
        guard let viewport, viewport.count > 0 else {
            window = nil
            return
        }
        window = WindowState(viewport: viewport, start: viewport.start, rows: window?.rows ?? [], pinned: true)
    }

    /// Redraws the window after a selection change (rows keep their places).
    public mutating func refreshWindow() -> WindowUpdate? {
        guard let state = window else { return nil }
        return refreshWindow(from: state.rows, start: state.start)
    }

    /// The window after a change of the visible list (`commit`, `setSearch`).
    ///
    /// The window stays on the row at its top (the **anchor**), as an editor
    /// keeps the line under the cursor: rows inserted or deleted above it
    /// slide the window's start; a change entirely outside the window sends
    /// only the new total and start. When the anchor itself is gone (deleted,
    /// hidden by a search), or the window holds no row, the start stays
    /// where it was; only when the list got shorter is it pulled back so
    /// that the window ends at the list's end.
    ///
    /// A batch changeset reports an item that moved into an inserted section
    /// as deleted; when the caller already paid O(n) for the change
    /// (`mayScan`: an `apply`, a search), such an anchor is looked up by id;
    /// so is every anchor when there is no changeset (a search with a
    /// viewport computes none).
    /// A caller that already knows where the anchor went passes `anchor`
    /// (`.some(nil)`: it is gone); then nothing is scanned.
    /// - Complexity: O(changes + sections + w log w), plus O(n) with
    ///   `mayScan` when the changeset lost the anchor.
    /// `askedRedraws`: without a changeset, the rows a `reloadItems` or
    /// `reconfigureItems` asked to redraw (the ids of the new window's rows
    /// are looked up in it).
    mutating func windowAfter(changeset: Changeset?, oldVisible: Snapshot, mayScan: Bool,
                              anchor: Int?? = nil, askedRedraws: RedrawRequests? = nil) -> WindowUpdate? {
        guard let state = window else { return nil }
        let newLayout = FlatLayout(visible)
        var start = state.start
        // Without its anchor (or without rows) the window stays, pulled
        // back so that it ends at the end of the list only when the list got
        // shorter.
        func unanchored() -> Int {
            let oldTotal = FlatLayout(oldVisible).total
            guard newLayout.total < oldTotal else { return state.start }
            return min(state.start, max(0, newLayout.total - state.viewport.count))
        }
        if state.pinned {
            window?.pinned = false
        } else if !state.rows.isEmpty {
            if let anchor {
                start = anchor ?? unanchored()
            } else if let changeset, let anchored = Self.newIndex(ofFlat: state.start, old: oldVisible, new: newLayout,
                                                           newSectionCount: visible.sections.count, changeset: changeset) {
                start = anchored
            } else if mayScan, let anchor = state.rows.first, let found = flatIndex(of: anchor, layout: newLayout) {
                start = found
            } else {
                start = unanchored()
            }
        } else {
            // No anchor: the window sat at or past the end of the list.
            start = unanchored()
        }
        var update = refreshWindow(from: state.rows, start: start, layout: newLayout)
        let rows = self.window?.rows ?? []
        if let changeset {
            let window = start..<start + update.rowCount
            update.steps += Self.redraws(at: Self.offsets(asked: changeset, window: window, layout: newLayout),
                                         steps: update.steps, rows: rows)
        } else if let askedRedraws, !askedRedraws.reloadItems.isEmpty || !askedRedraws.reconfigureItems.isEmpty {
            let offsets = rows.indices.filter { offset in
                guard rows[offset].kind == .item else { return false }
                let id = ItemID(rows[offset].id)
                return askedRedraws.reloadItems.contains(id) || askedRedraws.reconfigureItems.contains(id)
            }
            update.steps += Self.redraws(at: Set(offsets), steps: update.steps, rows: rows)
        }
        return update
    }

    /// Rows `start ..< start + count` of the flat visible list, and its total.
    /// - Complexity: O(count + log sections) after an O(sections) layout.
    public func flatRows(start: Int, count: Int) -> (total: Int, rows: [WindowRow]) {
        let layout = FlatLayout(visible)
        return (layout.total, rows(of: layout, start: start, count: count))
    }

    private mutating func refreshWindow(from old: [WindowRow], start: Int, layout: FlatLayout? = nil) -> WindowUpdate {
        let layout = layout ?? FlatLayout(visible)
        let count = window?.viewport.count ?? 0
        let rows = rows(of: layout, start: start, count: count)
        window?.start = start
        window?.rows = rows
        return WindowUpdate(total: layout.total, start: start, count: count, steps: WindowDiff.steps(from: old, to: rows))
    }

    private func rows(of layout: FlatLayout, start: Int, count: Int) -> [WindowRow] {
        guard count > 0, start < layout.total else { return [] }
        var rows: [WindowRow] = []
        rows.reserveCapacity(min(count, layout.total - start))
        for index in start..<min(layout.total, start + count) {
            guard let (s, row) = layout.position(of: index), visible.sections.indices.contains(s) else { break }
            let section = visible.sections[s]
            if let row, section.items.indices.contains(row) {
                let item = section.items[row]
                let isPlaceholder = placeholderID.map(item.hasID) ?? false
                let marks = fieldHighlights(at: ItemPath(section: s, row: row))
                rows.append(WindowRow(kind: .item, id: item.id, section: section.id, content: item.content,
                                      selected: selection.isSelected(item.itemID),
                                      highlights: marks.map(\.range),
                                      highlightFields: search?.fields.map { fields in
                                          marks.map { fields.names.indices.contains($0.field) ? fields.names[$0.field] : "" }
                                      } ?? [],
                                      outline: outline.isEmpty || isPlaceholder ? nil : outline.row(of: item.itemID)))
            } else {
                rows.append(WindowRow(kind: .header, id: section.id, section: section.id, content: section.header))
            }
        }
        return rows
    }

    /// The flat index of the visible row with `row`'s kind and id.
    /// - Complexity: O(n)
    private func flatIndex(of row: WindowRow, layout: FlatLayout) -> Int? {
        for (s, section) in visible.sections.enumerated() {
            if row.kind == .header {
                if section.id == row.id { return layout.headerIndex(of: s) }
            } else if let r = section.items.firstIndex(ofID: row.id) {
                return layout.index(of: ItemPath(section: s, row: r))
            }
        }
        return nil
    }

    /// Where the flat row `index` of `old` is after `changeset`.
    private static func newIndex(ofFlat index: Int, old: Snapshot, new layout: FlatLayout, newSectionCount: Int,
                                 changeset: Changeset) -> Int? {
        guard let (section, row) = FlatLayout(old).position(of: index) else { return nil }
        if let row {
            let path = changeset.newPath(ofOld: ItemPath(section: section, row: row),
                                         oldSectionCount: old.sections.count, newSectionCount: newSectionCount)
            return path.flatMap(layout.index(of:))
        }
        return changeset.newSection(ofOld: section, oldSectionCount: old.sections.count, newSectionCount: newSectionCount)
            .flatMap(layout.headerIndex(of:))
    }

    /// The window offsets of the rows `changeset` reloads or reconfigures.
    private static func offsets(asked changeset: Changeset, window: Range<Int>, layout: FlatLayout) -> Set<Int> {
        var offsets: Set<Int> = []
        for update in changeset.itemReloads + changeset.itemReconfigures {
            if let index = layout.index(of: update.new), window.contains(index) { offsets.insert(index - window.lowerBound) }
        }
        return offsets
    }

    /// `update` steps for the window rows at `offsets`, which a
    /// `reloadItems`/`reconfigureItems` asked to redraw though nothing drawn
    /// changed (the steps already redraw rows that changed, and insert rows
    /// that came in).
    private static func redraws(at offsets: Set<Int>, steps: [WindowStep], rows: [WindowRow]) -> [WindowStep] {
        guard !offsets.isEmpty else { return [] }
        var covered: Set<Int> = []
        for step in steps {
            switch step {
            case .insert(let at, let inserted), .update(let at, let inserted): covered.formUnion(at..<at + inserted.count)
            case .delete, .move: break
            }
        }
        return offsets.subtracting(covered).sorted().compactMap { offset in
            rows.indices.contains(offset) ? .update(at: offset, rows: [rows[offset]]) : nil
        }
    }
}

extension WindowUpdate {
    /// Rows in the window after the update.
    var rowCount: Int { max(0, min(count, total - start)) }
}
