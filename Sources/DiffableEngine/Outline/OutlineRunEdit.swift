/// A tree edit done as flat edits of the preorder rows (see
/// `DataSource.editOutline`): a subtree is a run of rows, so appending or
/// inserting nested items inserts a run, deleting an item deletes its run,
/// moving one moves its run, and content ops change rows in place. The rows
/// change through an `EditWorkspace` (chunked, copy-on-write, the diff of
/// the full rows derived from the ops); the outline changes in an
/// `OutlineDraft`. Each op reads what the previous ones left.
///
/// Costs per op (d = depth of the items named, c = chunk size ≤ 2048 plus
/// the chunks of the section, k = rows the op inserts, deletes or moves):
/// - `setContent`, `patchContent`, `reloadItems`, `reconfigureItems`,
///   `setHeaders`, `reloadSections`: O(ids × c), as on a flat source;
/// - `appendItems` (to a section or a parent), `insertItems`: O(k + c + d);
/// - `deleteItems`: O(k + c + d) per id (its whole subtree goes);
/// - `moveItem` (next to an item or into a parent): O(k + c + d), k the
///   moved subtree (its rows move, its levels change);
/// - `replaceChildren`: O(k + c + d), k the old and new children's subtrees.
///
/// Any other op (section structure, `deleteAllItems`, `expand`/`collapse`)
/// and any op that fails is `Unhandled`: the caller drops the work and the
/// general path (`OutlineForest`) runs the edit, so it answers every error
/// exactly as before.
struct OutlineRunEdit {
    struct Unhandled: Error {}

    var workspace: EditWorkspace
    var draft: OutlineDraft
    /// Items whose drawn row (disclosure, expansion) may have changed
    /// though they neither moved nor changed content: the parents that
    /// gained or lost children.
    var suspects: Set<ItemID> = []

    /// Whether the fast path takes `op` (when it does not fail).
    static func handles(_ op: OutlineEditOperation) -> Bool {
        switch op {
        case .appendNodes, .insertNodes, .moveInto, .replaceChildren: return true
        case .appendNestedSections, .insertNestedSections, .setExpanded: return false
        case .op(let flat):
            switch flat {
            case .appendItems, .insertItems, .deleteItems, .moveItem, .reloadItems, .reconfigureItems,
                 .setContent, .transformContent, .setHeaders, .reloadSections: return true
            case .appendSections, .insertSections, .deleteSections, .moveSection, .deleteAllItems: return false
            }
        }
    }

    mutating func apply(_ op: OutlineEditOperation) throws(Unhandled) {
        switch op {
        case .appendNodes(let new, let section, let parent):
            if let parent {
                let p = ItemID(parent)
                let run = try self.run(of: p)
                try add(new, parent: p, section: run.section, at: run.rows.upperBound, parentLevel: draft.level(p))
            } else {
                let s: Int
                if let section {
                    guard let found = workspace.position(ofSection: section) else { throw Unhandled() }
                    s = found
                } else {
                    guard !workspace.sections.isEmpty else { throw Unhandled() }
                    s = workspace.sections.count - 1
                }
                try add(new, parent: nil, section: s, at: workspace.sections[s].items.count, parentLevel: -1)
            }
        case .insertNodes(let new, let position):
            let target = ItemID(position.target)
            let run = try self.run(of: target)
            let parent = draft.parent(target)
            try add(new, parent: parent, section: run.section,
                    at: position.isAfter ? run.rows.upperBound : run.rows.lowerBound,
                    parentLevel: parent.map(draft.level) ?? -1)
        case .moveInto(let id, let parent):
            try move(ItemID(id), into: ItemID(parent), position: nil)
        case .replaceChildren(let parent, let new):
            let p = ItemID(parent)
            let run = try self.run(of: p)
            let children = run.rows.lowerBound + 1..<run.rows.upperBound
            let removed = workspace.removeRun(section: run.section, rows: children)
            for item in removed { draft.forget(item.itemID) }
            draft.removeAllChildren(of: p)
            draft.addDescendants(-removed.count, from: p)
            try add(new, parent: p, section: run.section, at: children.lowerBound, parentLevel: draft.level(p))
            draft.settle(p)
            suspects.insert(p)
        case .setExpanded, .appendNestedSections, .insertNestedSections:
            throw Unhandled()
        case .op(let flat):
            try apply(flat)
        }
    }

    private mutating func apply(_ op: EditOperation) throws(Unhandled) {
        switch op {
        case .appendItems(let items, let section):
            try apply(.appendNodes(items.map { OutlineNode(item: $0) }, section: section, parent: nil))
        case .insertItems(let items, let position):
            try apply(.insertNodes(items.map { OutlineNode(item: $0) }, position))
        case .deleteItems(let ids):
            let keys = ids.map(ItemID.init)
            guard keys.allSatisfy(workspace.contains), Set(keys).count == keys.count else { throw Unhandled() }
            // A listed descendant of a listed item goes with it.
            for id in keys where workspace.contains(id) {
                let (parent, removed) = try detach(id)
                for item in removed { draft.forget(item.itemID) }
                draft.settle(parent)
            }
        case .moveItem(let id, let position):
            try move(ItemID(id), into: nil, position: position)
        case .reloadItems, .reconfigureItems, .setContent, .transformContent, .setHeaders, .reloadSections:
            // Rows stay where they are; the flat workspace checks and records.
            do throws(EditFailure) { try workspace.apply(op) } catch { throw Unhandled() }
        case .appendSections, .insertSections, .deleteSections, .moveSection, .deleteAllItems:
            throw Unhandled()
        }
    }

    // MARK: runs

    /// The section and rows of `id`'s subtree now.
    private mutating func run(of id: ItemID) throws(Unhandled) -> (section: Int, rows: Range<Int>) {
        guard let path = workspace.locate(id) else { throw Unhandled() }
        return (path.section, path.row..<path.row + 1 + draft.descendantCount(id))
    }

    /// Takes `id`'s subtree out of the rows and of its parent (its own
    /// outline entries stay): its old parent (to `settle`) and its items.
    private mutating func detach(_ id: ItemID) throws(Unhandled) -> (parent: ItemID?, items: [Item]) {
        let run = try self.run(of: id)
        let items = workspace.removeRun(section: run.section, rows: run.rows)
        let parent = draft.parent(id)
        if let parent {
            draft.removeChild(from: parent)
            draft.addDescendants(-items.count, from: parent)
            suspects.insert(parent)
        }
        return (parent, items)
    }

    /// Moves `id` with its subtree to the end of `parent`'s children, or
    /// next to `position`'s target (as its sibling).
    private mutating func move(_ id: ItemID, into newParent: ItemID?, position: EditPosition?) throws(Unhandled) {
        let target = newParent ?? ItemID(position?.target ?? "")
        guard id != target, workspace.contains(id), workspace.contains(target),
              !draft.isInSubtree(target, of: id) else { throw Unhandled() }
        let oldLevel = draft.level(id)
        let (oldParent, items) = try detach(id)
        // Levels below `id` in its subtree, from the parents in it (their
        // levels are intact; `id`'s parent may have just lost its level).
        var height = draft.childCount(id) > 0 ? 1 : 0
        for item in items.dropFirst() where draft.childCount(item.itemID) > 0 {
            height = max(height, draft.level(item.itemID) + 1 - oldLevel)
        }
        // Where it lands, read after it left (it may have been before it).
        let destination = try run(of: target)
        let parent = newParent ?? draft.parent(target)
        let at = newParent != nil || position?.isAfter == true ? destination.rows.upperBound : destination.rows.lowerBound
        let newLevel = parent.map { draft.level($0) + 1 } ?? 0
        guard newLevel + height <= Outline.maxLevel else { throw Unhandled() }
        workspace.insertRun(items, section: destination.section, at: at)
        draft.setParent(id, parent)
        if let parent {
            draft.addChild(to: parent)
            draft.addDescendants(items.count, from: parent)
            suspects.insert(parent)
        }
        if newLevel != oldLevel {
            for item in items where draft.childCount(item.itemID) > 0 {
                draft.shiftLevel(of: item.itemID, by: newLevel - oldLevel)
            }
        }
        draft.settle(oldParent)
    }

    /// Inserts new nested items as children of `parent` (nil: at the top of
    /// section `s`) at row `at`; `parentLevel` is the parent's level (-1 at
    /// the top). Items with children that say `expanded: true` start expanded.
    private mutating func add(_ new: [OutlineNode], parent: ItemID?, section s: Int, at row: Int,
                              parentLevel: Int) throws(Unhandled) {
        // Preorder items with the index of their parent among them (-1: `parent`).
        var items: [Item] = [], parentIndex: [Int] = [], wantsExpanded: [Bool] = [], deepest = 0
        var pending: [(node: OutlineNode, parent: Int, depth: Int)] = new.reversed().map { ($0, -1, 0) }
        while let (node, p, depth) = pending.popLast() {
            let i = items.count
            items.append(node.item)
            parentIndex.append(p)
            wantsExpanded.append(node.expanded == true)
            deepest = max(deepest, depth)
            for child in node.children.reversed() { pending.append((child, i, depth + 1)) }
        }
        guard parentLevel + 1 + deepest <= Outline.maxLevel else { throw Unhandled() }
        let ids = items.map(\.itemID)
        guard !ids.contains(where: workspace.contains), Set(ids).count == ids.count else { throw Unhandled() }
        workspace.insertRun(items, section: s, at: row)
        // Subtree sizes, children before parents (reverse preorder).
        var sizes = [Int](repeating: 1, count: items.count)
        for i in items.indices.reversed() where parentIndex[i] >= 0 { sizes[parentIndex[i]] += sizes[i] }
        for (i, id) in ids.enumerated() {
            let p = parentIndex[i] >= 0 ? ids[parentIndex[i]] : parent
            draft.setParent(id, p)
            if let p { draft.addChild(to: p) }
            if sizes[i] > 1 {
                draft.setDescendants(id, sizes[i] - 1)
                if wantsExpanded[i] { draft.setExpanded(id, true) }
            }
        }
        if let parent {
            draft.addDescendants(items.count, from: parent)
            suspects.insert(parent)
        }
    }
}
