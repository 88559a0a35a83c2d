/// One named data source: its full snapshot, what the frontend sees of it
/// (the visible snapshot), its selection, and a version bumped by every
/// change.
///
/// Every diff a data source hands out is a diff of the **visible** snapshot,
/// because that is what the frontend holds. All changes go through
/// `commit(_:fullChangeset:)`, which keeps visible snapshot, selection and
/// version consistent.
public struct DataSource: Sendable {
    public let name: String
    /// 0 before the first change; +1 for every change.
    public internal(set) var version: Int = 0
    /// The whole state, as last applied or edited.
    public internal(set) var snapshot = Snapshot()
    /// What the frontend shows.
    public internal(set) var visible = Snapshot()
    /// Per-section selection policies and the selected ids.
    public internal(set) var selection = SelectionState()
    /// The hierarchy of the items (empty for flat sources).
    public internal(set) var outline = Outline()
    /// The current search (nil: everything is visible).
    var search: SearchSettings?
    /// Index and matches of the current search, for the current snapshot.
    var searchCache = SearchCache()
    /// Lookups of `snapshot` for `edit`, kept between edits; dropped by every
    /// other change of the snapshot (see `commit`).
    var editIndex: EditIndex?
    /// The edit index being built in the background since the last `apply`
    /// (see `prebuildEditIndexIfInteractive`); dropped with the snapshot.
    var editPrebuild: BackgroundBuild<PrebuiltEditIndex>?
    /// Lookups of `snapshot` and `outline` for fast tree edits, kept between
    /// them (see `editOutlineByRuns`); dropped by every other change of
    /// the snapshot (see `commit`).
    var outlineEditIndex: OutlineEditIndex?
    /// The frontend's viewport and the window rows it holds (nil: the
    /// frontend holds the whole visible list).
    public internal(set) var window: WindowState?
    /// Whether a search was answered partially on this source, or its
    /// frontend declared its field for progressive answers
    /// (`expectProgressiveAnswers`): the sample they rank is prepared in
    /// the background while nothing is typed
    /// (`prebuildPartialSampleIfIdle`).
    var answersProgressively = false

    /// Puts back a window state saved before `prepareViewport`.
    public mutating func restoreWindow(_ saved: WindowState?) { window = saved }

    public init(name: String) {
        self.name = name
    }

    /// The result of a change: the diff of the visible snapshot, the visible
    /// snapshot before and after it (the steps form needs both), and what the
    /// change did to the selection.
    public struct Update: Sendable {
        public var changeset: Changeset
        public var oldVisible: Snapshot
        public var newVisible: Snapshot
        public var selection: SelectionDelta
        /// With a viewport: how the frontend's window changed.
        public var window: WindowUpdate?
        /// Set by an edit of contents alone made in place (see
        /// `editContentsInPlace`): the content each changed row had (rows
        /// that had none are not listed). `oldVisible` is then the new
        /// visible snapshot: the same rows, whose contents are these.
        public var contentsBefore: [ItemID: Content]? = nil
        /// Set by an edit of a searched list held through a window: the
        /// visible list changed, but only the window's diff was computed
        /// (`changeset` is empty; see `commitToWindow`).
        public var visibleDiffOmitted = false
    }

    /// Replaces the whole snapshot (which must be valid, see
    /// `Snapshot.validationIssues()`) and bumps the version. Sections named in
    /// `policies` get that selection policy; other sections keep theirs.
    /// - Throws: `invalidPolicy`, before anything changes.
    /// - Complexity: O(n) expected, n = items in both snapshots.
    /// `outline`: the hierarchy of `new`'s items (preorder sections, see
    /// `Outline.flatten`); an empty one makes the source flat.
    public mutating func apply(
        _ new: Snapshot, policies: [String: SectionSelectionPolicy] = [:], outline newOutline: Outline = Outline()
    ) throws(SelectionError) -> Update {
        try SelectionState.validate(policies)
        let oldOutline = outline
        outline = newOutline
        let update = commit(new, fullChangeset: nil, policies: policies, oldOutline: oldOutline)
        prebuildEditIndexIfInteractive()
        return update
    }

    /// Makes `newFull` the source's snapshot.
    ///
    /// `fullChangeset`, when the caller already knows the diff of the full
    /// snapshot (an `edit` derives it from its ops), is used as the visible
    /// diff while nothing is filtered; otherwise the visible snapshots are
    /// diffed. `policies` must have been validated.
    /// `oldOutline`: the outline before the change, when it changed too
    /// (rows whose level, parent or disclosure changed are redrawn).
    /// `outlineIndex`: the tree edit index of `newFull`, when a fast tree
    /// edit kept it (the visible rows are found with it); `outlineRedraws`:
    /// the only items whose outline row may have changed, when known.
    mutating func commit(
        _ newFull: Snapshot, fullChangeset: Changeset?, policies: [String: SectionSelectionPolicy] = [:],
        oldOutline: Outline? = nil, redraws: RedrawRequests? = nil, outlineIndex: OutlineEditIndex? = nil,
        outlineRedraws: Set<ItemID>? = nil
    ) -> Update {
        let oldVisible = visible
        // Found before the search cache is replaced, so that no copy of it
        // keeps the old index shared while the new one splices the edit in.
        let windowAnchor: FullAnchor?? = fullChangeset != nil && policies.isEmpty && redraws == nil ? anchorBeforeWindowEdit() : nil
        let oldSectionCount = snapshot.sections.count
        editIndex = nil
        editPrebuild = nil
        outlineEditIndex = outlineIndex
        visible = replaceSnapshot(with: newFull, changes: fullChangeset)
        if let fullChangeset, let windowAnchor,
           let anchor = anchorAfterWindowEdit(windowAnchor, oldSectionCount: oldSectionCount,
                                              fullChangeset: fullChangeset, oldOutline: oldOutline) {
            return commitToWindow(oldVisible: oldVisible, anchor: anchor,
                                  redraws: RedrawRequests(fullChangeset, in: newFull))
        }
        var changeset: Changeset
        if let fullChangeset, !isFiltering {
            changeset = fullChangeset
        } else {
            changeset = oldVisible.difference(to: visible)
        }
        if let oldOutline, !(oldOutline.isEmpty && outline.isEmpty) {
            changeset.redrawOutlineRows(old: oldVisible, oldOutline: oldOutline, new: visible, newOutline: outline,
                                        only: outlineRedraws, placeholder: placeholderID)
        }
        if let redraws { changeset.addRedraws(redraws, old: oldVisible, new: visible) }
        if let fullChangeset, isFiltering {
            // The visible diff compares content: keep the redraws the edit
            // asked for (reload or reconfigure of unchanged rows, headers).
            changeset.addRedraws(RedrawRequests(fullChangeset, in: newFull), old: oldVisible, new: visible)
        }
        var selectionDelta = SelectionDelta()
        if !policies.isEmpty, let delta = try? selection.setPolicies(policies, in: snapshot, visible: visible) {
            selectionDelta = delta
        }
        let reconciled = selection.reconcile(with: snapshot, visible: visible)
        selectionDelta.selected += reconciled.selected
        selectionDelta.deselected += reconciled.deselected
        selectionDelta.kept += reconciled.kept
        version += 1
        let windowUpdate = windowAfter(changeset: changeset, oldVisible: oldVisible, mayScan: fullChangeset == nil || isFiltering)
        return Update(changeset: changeset, oldVisible: oldVisible, newVisible: visible, selection: selectionDelta,
                      window: windowUpdate)
    }

    /// Whether the visible snapshot may differ from the full one.
    var isFiltering: Bool { (search?.isActive ?? false) || !outline.isEmpty }
}
