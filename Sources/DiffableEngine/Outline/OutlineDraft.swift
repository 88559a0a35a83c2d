/// The outline during a fast tree edit (`OutlineRunEdit`): the changes of
/// the edit recorded over the source's outline, which stays as it was. So a
/// rejected edit drops the draft and nothing changed; the old outline is
/// still there to say how each row was drawn; and an accepted one writes
/// its changes into the source's outline in place (`merge`), never copying
/// its dictionaries (O(n) for a million items).
///
/// It also keeps the number of descendants of every item with children
/// (`OutlineEditIndex.descendants`), so a subtree's run of preorder rows is
/// found without scanning: it is the item's row and the next
/// `descendantCount` rows.
struct OutlineDraft {
    /// The outline before the edit (read only; emptied before `merge`).
    var base: Outline
    var baseDescendants: [ItemID: Int]
    /// Changed entries; `.some(nil)` removes one.
    private var parents: [ItemID: ItemID?] = [:]
    /// Changed child counts; 0 removes one.
    private var childCounts: [ItemID: Int] = [:]
    private var levels: [ItemID: Int?] = [:]
    private var expanded: [ItemID: Bool] = [:]
    /// Changed descendant counts; 0 removes one.
    private var descendants: [ItemID: Int] = [:]
    /// Items with children now, less before.
    private var parentCountChange = 0
    /// Ancestors visited so far (see `addDescendants`): what the edit has
    /// paid for depth.
    private(set) var ancestorSteps = 0

    init(base: Outline, descendants: [ItemID: Int]) {
        self.base = base
        baseDescendants = descendants
    }

    // MARK: reading (each O(1) expected, `level` O(1) as `Outline.level`)

    func parent(_ id: ItemID) -> ItemID? {
        if let entry = parents[id] { return entry }
        return base.parents[id]
    }

    func childCount(_ id: ItemID) -> Int { childCounts[id] ?? base.childCounts[id] ?? 0 }

    func isExpanded(_ id: ItemID) -> Bool { expanded[id] ?? base.expanded.contains(id) }

    func descendantCount(_ id: ItemID) -> Int { descendants[id] ?? baseDescendants[id] ?? 0 }

    private func parentLevel(_ id: ItemID) -> Int? {
        if let entry = levels[id] { return entry }
        return base.parentLevels[id]
    }

    /// 0 at the top. - Complexity: O(1); O(depth) if a level was not recorded.
    func level(_ id: ItemID) -> Int {
        guard let parent = parent(id) else { return 0 }
        if let level = parentLevel(parent) { return level + 1 }
        assertionFailure("a parent without a recorded level")
        var level = 1, current = parent
        while let next = self.parent(current) {
            level += 1
            current = next
        }
        return level
    }

    /// Whether no item has children now.
    var isEmpty: Bool { base.childCounts.count + parentCountChange == 0 }

    /// How the row of `id` is drawn now (see `Outline.row(of:)`).
    func row(_ id: ItemID) -> OutlineRow {
        OutlineRow(level: level(id), parent: parent(id)?.string, hasChildren: childCount(id) > 0, expanded: isExpanded(id))
    }

    /// Whether `n` is `ancestor` or lies under it. - Complexity: O(depth)
    func isInSubtree(_ n: ItemID, of ancestor: ItemID) -> Bool {
        var current: ItemID? = n
        while let id = current {
            if id == ancestor { return true }
            current = parent(id)
        }
        return false
    }

    // MARK: changing

    mutating func setParent(_ id: ItemID, _ parent: ItemID?) { parents[id] = .some(parent) }

    /// One more child under `p`; a leaf becomes a parent (collapsed) at its level.
    mutating func addChild(to p: ItemID) {
        let count = childCount(p)
        if count == 0 {
            levels[p] = .some(level(p))
            parentCountChange += 1
        }
        childCounts[p] = count + 1
    }

    /// One child fewer under `p`. Its expansion is forgotten by `settle`
    /// once the op is done (a move back under the same parent keeps it).
    mutating func removeChild(from p: ItemID) {
        let count = childCount(p)
        guard count > 0 else { return }
        childCounts[p] = count - 1
        if count == 1 {
            levels[p] = .some(nil)
            parentCountChange -= 1
        }
    }

    /// All of `p`'s children go (`replaceChildren`).
    mutating func removeAllChildren(of p: ItemID) {
        guard childCount(p) > 0 else { return }
        childCounts[p] = 0
        levels[p] = .some(nil)
        parentCountChange -= 1
    }

    /// Keeps the invariant: an item without children is not expanded.
    mutating func settle(_ p: ItemID?) {
        guard let p, childCount(p) == 0 else { return }
        expanded[p] = false
    }

    mutating func setExpanded(_ id: ItemID, _ value: Bool) { expanded[id] = value }

    /// Adds `delta` to the descendant counts of `p` and its ancestors.
    /// - Complexity: O(depth)
    mutating func addDescendants(_ delta: Int, from p: ItemID?) {
        guard delta != 0 else { return }
        var current = p
        while let id = current {
            ancestorSteps += 1
            // One lookup to read and write (the base only on the first change).
            descendants[id, default: baseDescendants[id] ?? 0] += delta
            current = parent(id)
        }
    }

    mutating func setDescendants(_ id: ItemID, _ count: Int) { descendants[id] = count }

    /// Moves the level of an item with children by `delta` (its subtree moved).
    mutating func shiftLevel(of id: ItemID, by delta: Int) {
        guard delta != 0, let level = parentLevel(id) else { return }
        levels[id] = .some(level + delta)
    }

    /// Drops a deleted item.
    mutating func forget(_ id: ItemID) {
        parents[id] = .some(nil)
        if childCount(id) > 0 {
            childCounts[id] = 0
            levels[id] = .some(nil)
            parentCountChange -= 1
        }
        expanded[id] = false
        descendants[id] = 0
    }

    /// Writes the changes into `outline` and `descendantCounts`, in place
    /// (call it after emptying `base`, so they are not shared).
    /// - Complexity: O(changed entries)
    func merge(into outline: inout Outline, descendants descendantCounts: inout [ItemID: Int]) {
        for (id, parent) in parents {
            if let parent { outline.parents[id] = parent } else { outline.parents.removeValue(forKey: id) }
        }
        for (id, count) in childCounts {
            if count > 0 { outline.childCounts[id] = count } else { outline.childCounts.removeValue(forKey: id) }
        }
        for (id, level) in levels {
            if let level { outline.parentLevels[id] = level } else { outline.parentLevels.removeValue(forKey: id) }
        }
        for (id, isExpanded) in expanded {
            if isExpanded { outline.expanded.insert(id) } else { outline.expanded.remove(id) }
        }
        for (id, count) in descendants {
            if count > 0 { descendantCounts[id] = count } else { descendantCounts.removeValue(forKey: id) }
        }
    }
}
