/// Why `setExpanded` refused.
public struct OutlineError: Error, Equatable, Sendable {
    /// Ids that are not items of the source.
    public var unknown: [String]
}

extension DataSource {
    /// Expands or collapses items (and with `recursive`, all their
    /// descendants). Items without children are left as they are (UIKit
    /// accepts them too). The diff inserts or deletes the rows that appear
    /// or disappear and redraws the toggled rows (their disclosure).
    /// During a search the rows shown do not change (matches are shown with
    /// their ancestors whatever the expansion), only the toggled rows'
    /// marks; the new state shows when the query clears.
    /// - Throws: `OutlineError` naming unknown ids; nothing changes.
    /// - Complexity: O(n) in this version (the visible rows are filtered again).
    public mutating func setExpanded(_ ids: [String], _ expand: Bool, recursive: Bool = false) throws(OutlineError) -> Update {
        let known = Set(snapshot.sections.flatMap { $0.items.map(\.id) })
        let unknown = ids.filter { !known.contains($0) }
        guard unknown.isEmpty else { throw OutlineError(unknown: unknown) }
        var targets = Set(ids)
        if recursive {
            // Every descendant of a target follows it.
            for section in snapshot.sections {
                for item in section.items where outline.ancestors(of: item.id).contains(where: ids.contains) {
                    targets.insert(item.id)
                }
            }
        }
        let oldOutline = outline
        for id in targets where outline.hasChildren(id) {
            if expand { outline.expanded.insert(id) } else { outline.expanded.remove(id) }
        }
        let oldVisible = visible
        let oldRows = searchCache.rowSources
        visible = computeVisible()
        var changeset = filteredChangeset(oldRows: oldRows, old: oldVisible) ?? oldVisible.difference(to: visible)
        let toggled = Set(targets.filter { oldOutline.isExpanded($0) != outline.isExpanded($0) })
        changeset.redrawOutlineRows(old: oldVisible, oldOutline: oldOutline, new: visible, newOutline: outline, only: toggled)
        if !toggled.isEmpty { version += 1 }
        let windowUpdate = windowAfter(changeset: changeset, oldVisible: oldVisible, mayScan: true)
        return Update(changeset: changeset, oldVisible: oldVisible, newVisible: visible, selection: SelectionDelta(),
                      window: windowUpdate)
    }

    /// Where an item is in the outline and whether it is shown.
    public struct OutlineInfo: Equatable, Sendable {
        public var row: OutlineRow
        public var childCount: Int
        /// Its visible position, nil when a collapsed ancestor or a search hides it.
        public var visiblePath: ItemPath?
    }

    /// - Complexity: O(n) to find the visible position.
    public func outlineInfo(of id: String) -> OutlineInfo? {
        guard containsItem(id) else { return nil }
        var path: ItemPath?
        for (s, section) in visible.sections.enumerated() {
            if let r = section.items.firstIndex(where: { $0.id == id }) {
                path = ItemPath(section: s, row: r)
                break
            }
        }
        return OutlineInfo(row: outline.row(of: id), childCount: outline.childCounts[id] ?? 0, visiblePath: path)
    }
}
