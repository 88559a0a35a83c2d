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
    /// - Complexity: toggling one item while no search is active:
    ///   O(s + log n) for its subtree of s rows, plus moving the
    ///   integer row list of its section (a memmove); O(n) once after each
    ///   snapshot change to index the items. Otherwise O(n): the visible rows
    ///   are filtered again and diffed.
    public mutating func setExpanded(_ ids: [String], _ expand: Bool, recursive: Bool = false) throws(OutlineError) -> Update {
        if ids.count == 1, let id = ids.first, !(search?.isActive ?? false), outline.hasChildren(ItemID(id)),
           outline.isExpanded(ItemID(id)) != expand, let update = toggle(id, expand, recursive: recursive) {
            return update
        }
        let known = itemFlatIndex()
        let unknown = ids.filter { known[ItemID($0)] == nil }
        guard unknown.isEmpty else { throw OutlineError(unknown: unknown) }
        let named = Set(ids.map(ItemID.init))
        var targets = named
        if recursive {
            // Every descendant of a target follows it: in preorder, the
            // open ancestors of a row are a stack, each marked when it or
            // one of its own ancestors is named.
            for section in snapshot.sections {
                var open: [(id: ItemID, underTarget: Bool)] = []
                for item in section.items {
                    let id = item.itemID
                    let parent = outline.parent(of: id)
                    while let last = open.last, last.id != parent { open.removeLast() }
                    let underTarget = open.last?.underTarget ?? false
                    if underTarget { targets.insert(id) }
                    if outline.hasChildren(id) { open.append((id, underTarget || named.contains(id))) }
                }
            }
        }
        let oldOutline = outline
        for id in targets where outline.hasChildren(id) {
            if expand { outline.expanded.insert(id) } else { outline.expanded.remove(id) }
        }
        let oldVisible = visible
        let oldRows = searchCache.completedRowSources
        visible = computeVisible()
        var changeset = filteredChangeset(oldRows: oldRows, old: oldVisible) ?? oldVisible.difference(to: visible)
        let toggled = targets.filter { oldOutline.isExpanded($0) != outline.isExpanded($0) }
        changeset.redrawOutlineRows(old: oldVisible, oldOutline: oldOutline, new: visible, newOutline: outline, only: toggled)
        if !toggled.isEmpty { version += 1 }
        let windowUpdate = windowAfter(changeset: changeset, oldVisible: oldVisible, mayScan: true)
        return Update(changeset: changeset, oldVisible: oldVisible, newVisible: visible, selection: SelectionDelta(),
                      window: windowUpdate)
    }

    /// Expands or collapses one item that changes state, editing the visible
    /// rows in place: its revealed descendants are inserted after it (its
    /// visible descendants deleted) and its row is redrawn. nil when the
    /// item is not in the index (the caller takes the general path).
    private mutating func toggle(_ id: String, _ expand: Bool, recursive: Bool) -> Update? {
        guard let q = flatIndex(of: ItemID(id)) else { return nil }
        var start = 0, s = 0
        while s < snapshot.sections.count, start + snapshot.sections[s].items.count <= q {
            start += snapshot.sections[s].items.count
            s += 1
        }
        guard snapshot.sections.indices.contains(s) else { return nil }
        let items = snapshot.sections[s].items
        let key = ItemID(id)
        let level = outline.level(of: key)
        // The subtree is the run of rows after the item that are deeper.
        var end = q - start + 1
        while end < items.count, outline.level(of: items[end].itemID) > level { end += 1 }
        let subtree = (q - start + 1)..<end

        // Where its row is, checked before anything changes: a row list that
        // does not show the item takes the general path.
        let shown = !outline.isHidden(key)
        var rows = searchCache.completedRowSources[s] ?? Array(start..<start + items.count)
        let p = Self.position(of: q, in: rows)
        guard !shown || (rows.indices.contains(p) && rows[p] == q && visible.sections.indices.contains(s)
                         && visible.sections[s].items.count == rows.count) else { return nil }
        let oldVisible = visible
        var toggled = [key]
        if recursive { toggled += subtree.map { items[$0].itemID }.filter(outline.hasChildren) }
        for target in toggled {
            if expand { outline.expanded.insert(target) } else { outline.expanded.remove(target) }
        }
        version += 1
        var changeset = Changeset()
        if shown {
            if expand {
                // Rows of the subtree under the new expansion.
                var revealed: [Int] = []
                var hiddenBelow = Int.max
                for row in subtree {
                    let rowLevel = outline.level(of: items[row].itemID)
                    if rowLevel > hiddenBelow { continue }
                    hiddenBelow = Int.max
                    revealed.append(start + row)
                    if outline.hasChildren(items[row].itemID), !outline.isExpanded(items[row].itemID) { hiddenBelow = rowLevel }
                }
                rows.insert(contentsOf: revealed, at: p + 1)
                changeset.itemInserts = (p + 1..<p + 1 + revealed.count).map { ItemPath(section: s, row: $0) }
            } else {
                var e = p + 1
                while e < rows.count, rows[e] < start + subtree.upperBound { e += 1 }
                rows.removeSubrange(p + 1..<e)
                changeset.itemDeletes = (p + 1..<e).map { ItemPath(section: s, row: $0) }
            }
            searchCache.rowSources[s] = rows.count == items.count ? nil : rows
            searchCache.deferred = nil
            // The visible section is a row map (O(rows) integers, as the
            // row-source update above), never a copy of the items.
            visible.sections[s].items = rows.count == items.count ? items : ItemList(rows: rows, offset: start, of: items)
            changeset.itemReloads = [Changeset.ItemUpdate(old: ItemPath(section: s, row: p), new: ItemPath(section: s, row: p))]
        }
        let windowUpdate = windowAfter(changeset: changeset, oldVisible: oldVisible, mayScan: false)
        return Update(changeset: changeset, oldVisible: oldVisible, newVisible: visible, selection: SelectionDelta(),
                      window: windowUpdate)
    }

    /// The flat index of an item: through the tree edit index when a fast
    /// tree edit kept one (O(chunks + chunk size)), else through the flat
    /// positions (O(n) once after each snapshot change).
    private mutating func flatIndex(of id: ItemID) -> Int? {
        guard let location = outlineEditIndex?.edit.locationOfItem[id] else { return itemFlatIndex()[id] }
        var start = 0
        for section in snapshot.sections {
            if section.id == location.section {
                return section.items.find(id, inChunk: location.chunk, hint: location.offset).map { start + $0.row }
            }
            start += section.items.count
        }
        return nil
    }

    /// The index of `flat` in ascending `rows` (the insertion point if absent).
    private static func position(of flat: Int, in rows: [Int]) -> Int {
        var low = 0, high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid] < flat { low = mid + 1 } else { high = mid }
        }
        return low
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
            if let r = section.items.firstIndex(ofID: id) {
                path = ItemPath(section: s, row: r)
                break
            }
        }
        return OutlineInfo(row: outline.row(of: id), childCount: outline.childCount(of: id), visiblePath: path)
    }
}
