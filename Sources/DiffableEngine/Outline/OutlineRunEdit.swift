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
/// An op that fails throws the error the general path (`OutlineForest`)
/// gives for it, found by the same checks in the same order (see
/// `OutlineForest+Ops`): so a rejected edit costs what its ops touched up
/// to the failing one. Section ops (`appendSections`, `insertSections`,
/// with nested items too, `deleteSections`, `moveSection`) change the
/// section list in the workspace and forget a deleted section's items,
/// O(sections + their items); `expand`/`collapse` change the draft, O(ids),
/// or O(subtree rows) when recursive. `deleteAllItems` is `unhandled`: the
/// caller drops the work and the general path runs the edit.
struct OutlineRunEdit {
    enum Refusal: Error {
        /// The general path runs the edit.
        case unhandled
        /// The op fails with the general path's error for it.
        case failed(EditFailure)

        init(_ reason: EditError.Reason, _ ids: [String]) { self = .failed(EditFailure(reason, ids)) }
    }

    var workspace: EditWorkspace
    var draft: OutlineDraft
    /// Items whose drawn row (disclosure, expansion) may have changed
    /// though they neither moved nor changed content: the parents that
    /// gained or lost children.
    var suspects: Set<ItemID> = []
    /// Items of the subtrees the edit moved or added: their level or parent
    /// may have changed. With `suspects`, the only rows whose outline row
    /// may differ.
    var moved: Set<ItemID> = []
    /// Whether sections were inserted, deleted or moved (the visible rows
    /// are then found again, see `DataSource.editOutlineByRuns`).
    var sectionsChanged = false
    /// Items expanded or collapsed: the rows under them are shown or hidden
    /// again (see `OutlineVisibleEdit.applyToggles`).
    var toggled: Set<ItemID> = []

    /// Whether the fast path takes `op` (when it does not fail).
    static func handles(_ op: OutlineEditOperation) -> Bool {
        switch op {
        case .appendNodes, .insertNodes, .moveInto, .replaceChildren: return true
        case .appendNestedSections, .insertNestedSections, .setExpanded: return true
        case .op(let flat):
            switch flat {
            case .appendItems, .insertItems, .deleteItems, .moveItem, .reloadItems, .reconfigureItems,
                 .setContent, .transformContent, .setHeaders, .reloadSections,
                 .appendSections, .insertSections, .deleteSections, .moveSection: return true
            case .deleteAllItems: return false
            }
        }
    }

    mutating func apply(_ op: OutlineEditOperation) throws(Refusal) {
        switch op {
        case .appendNodes(let new, let section, let parent):
            if let parent {
                let p = ItemID(parent)
                let run = try self.run(of: p, named: parent)
                try add(new, parent: p, section: run.section, at: run.rows.upperBound,
                        parentLevel: draft.level(p), tooDeepIDs: [parent])
            } else {
                let s: Int
                if let section {
                    guard let found = workspace.position(ofSection: section) else {
                        throw Refusal(.unknownSection, [section])
                    }
                    s = found
                } else {
                    guard !workspace.sections.isEmpty else { throw Refusal(.noSection, []) }
                    s = workspace.sections.count - 1
                }
                try add(new, parent: nil, section: s, at: workspace.sections[s].items.count, parentLevel: -1,
                        tooDeepIDs: new.prefix(1).map(\.item.id))
            }
        case .insertNodes(let new, let position):
            let target = ItemID(position.target)
            let run = try self.run(of: target, named: position.target)
            let parent = draft.parent(target)
            try add(new, parent: parent, section: run.section,
                    at: position.isAfter ? run.rows.upperBound : run.rows.lowerBound,
                    parentLevel: parent.map(draft.level) ?? -1, tooDeepIDs: [position.target])
        case .moveInto(let id, let parent):
            try move(id, into: parent, position: nil)
        case .replaceChildren(let parent, let new):
            let p = ItemID(parent)
            let run = try self.run(of: p, named: parent)
            let children = run.rows.lowerBound + 1..<run.rows.upperBound
            // The old children go first, so their ids may come back.
            let removed = workspace.removeRun(section: run.section, rows: children)
            for item in removed { draft.forget(item.itemID) }
            draft.removeAllChildren(of: p)
            draft.addDescendants(-removed.count, from: p)
            try add(new, parent: p, section: run.section, at: children.lowerBound, parentLevel: draft.level(p),
                    tooDeepIDs: [parent])
            draft.settle(p)
            suspects.insert(p)
        case .appendNestedSections(let new):
            try insertSections(new, at: nil)
        case .insertNestedSections(let new, let position):
            try insertSections(new, at: position)
        case .setExpanded(let ids, let expand, let recursive):
            do throws(EditFailure) { try workspace.requireItems(ids) } catch { throw .failed(error) }
            for name in ids {
                let id = ItemID(name)
                guard recursive else {
                    setExpanded(id, expand)
                    continue
                }
                let run = try self.run(of: id, named: name)
                for row in run.rows { setExpanded(workspace.sections[run.section].items[row].itemID, expand) }
            }
        case .op(let flat):
            try apply(flat)
        }
    }

    private mutating func apply(_ op: EditOperation) throws(Refusal) {
        switch op {
        case .appendItems(let items, let section):
            try apply(.appendNodes(items.map { OutlineNode(item: $0) }, section: section, parent: nil))
        case .insertItems(let items, let position):
            try apply(.insertNodes(items.map { OutlineNode(item: $0) }, position))
        case .deleteItems(let ids):
            do throws(EditFailure) {
                try workspace.requireItems(ids)
                try EditWorkspace.requireDistinct(ids, .duplicateItem)
            } catch {
                throw .failed(error)
            }
            // A listed descendant of a listed item goes with it.
            for id in ids.map(ItemID.init) where workspace.contains(id) {
                let (parent, removed) = try detach(id, named: id.string)
                for item in removed { draft.forget(item.itemID) }
                draft.settle(parent)
            }
        case .moveItem(let id, let position):
            try move(id, into: nil, position: position)
        case .reloadItems, .reconfigureItems, .setContent, .transformContent, .setHeaders, .reloadSections:
            // Rows stay where they are; the flat workspace checks and records.
            do throws(EditFailure) { try workspace.apply(op) } catch { throw .failed(error) }
        case .appendSections, .insertSections, .moveSection:
            // Flat items at the top: the flat workspace checks (as the
            // general path does) and records; the outline has no entry.
            do throws(EditFailure) { try workspace.apply(op) } catch { throw .failed(error) }
            sectionsChanged = true
        case .deleteSections(let ids):
            var doomed: [ItemID] = []
            for id in Set(ids) {
                guard let s = workspace.position(ofSection: id) else { continue }
                for item in workspace.sections[s].items { doomed.append(item.itemID) }
            }
            do throws(EditFailure) { try workspace.apply(op) } catch { throw .failed(error) }
            for id in doomed { draft.forget(id) }
            sectionsChanged = true
        case .deleteAllItems:
            throw .unhandled
        }
    }

    /// Inserts sections of nested items (at the end, or next to
    /// `position`'s target), checked as the general path checks them: the
    /// target, section ids taken or listed twice, item ids taken or listed
    /// twice, then each section's depth.
    private mutating func insertSections(_ new: [OutlineSection], at position: EditPosition?) throws(Refusal) {
        if let position, workspace.position(ofSection: position.target) == nil {
            throw Refusal(.unknownSection, [position.target])
        }
        let taken = new.map(\.id).filter { workspace.position(ofSection: $0) != nil }
        if !taken.isEmpty { throw Refusal(.duplicateSection, taken) }
        let ids = new.flatMap { OutlineForest.ids($0.nodes) }
        let existing = ids.filter(workspace.contains)
        do throws(EditFailure) {
            try EditWorkspace.requireDistinct(new.map(\.id), .duplicateSection)
            if !existing.isEmpty { throw EditFailure(.duplicateItem, existing.map(\.string)) }
            try EditWorkspace.requireDistinct(ids.map(\.string), .duplicateItem)
        } catch {
            throw .failed(error)
        }
        for section in new where OutlineForest.height(section.nodes) > Outline.maxLevel {
            throw Refusal(.tooDeep, [section.id])
        }
        let empty = new.map { Section(id: $0.id, header: $0.header, items: ItemList()) }
        do throws(EditFailure) {
            try workspace.apply(position.map { .insertSections(empty, $0) } ?? .appendSections(empty))
        } catch {
            throw .failed(error)
        }
        sectionsChanged = true
        for section in new {
            guard let s = workspace.position(ofSection: section.id) else { throw .unhandled }
            try add(section.nodes, parent: nil, section: s, at: 0, parentLevel: -1, tooDeepIDs: [section.id])
        }
    }

    /// Only items with children are ever expanded.
    private mutating func setExpanded(_ id: ItemID, _ expand: Bool) {
        guard draft.childCount(id) > 0, draft.isExpanded(id) != expand else { return }
        draft.setExpanded(id, expand)
        suspects.insert(id)
        toggled.insert(id)
    }

    // MARK: runs

    /// The section and rows of `id`'s subtree now; `name`, the id as the
    /// op spelled it, is the one an unknown id is reported by.
    private mutating func run(of id: ItemID, named name: String) throws(Refusal) -> (section: Int, rows: Range<Int>) {
        guard let path = workspace.locate(id) else { throw Refusal(.unknownItem, [name]) }
        return (path.section, path.row..<path.row + 1 + draft.descendantCount(id))
    }

    /// Takes `id`'s subtree out of the rows and of its parent (its own
    /// outline entries stay): its old parent (to `settle`) and its items.
    private mutating func detach(_ id: ItemID, named name: String) throws(Refusal) -> (parent: ItemID?, items: [Item]) {
        let run = try self.run(of: id, named: name)
        let items = workspace.removeRun(section: run.section, rows: run.rows)
        let parent = draft.parent(id)
        if let parent {
            draft.removeChild(from: parent)
            draft.addDescendants(-items.count, from: parent)
            suspects.insert(parent)
        }
        return (parent, items)
    }

    /// Moves `name` with its subtree to the end of `parentName`'s children,
    /// or next to `position`'s target (as its sibling). Checked as the
    /// general path checks it: itself, unknown ids, a cycle, the depth.
    private mutating func move(_ name: String, into parentName: String?, position: EditPosition?) throws(Refusal) {
        let targetName = parentName ?? position?.target ?? ""
        let id = ItemID(name), target = ItemID(targetName)
        let newParent = parentName.map(ItemID.init)
        guard id != target else { throw Refusal(.relativeToItself, [name]) }
        do throws(EditFailure) { try workspace.requireItems([name, targetName]) } catch { throw .failed(error) }
        guard !draft.isInSubtree(target, of: id) else { throw Refusal(.cycle, [name, targetName]) }
        let oldLevel = draft.level(id)
        let (oldParent, items) = try detach(id, named: name)
        // Levels below `id` in its subtree, from the parents in it (their
        // levels are intact; `id`'s parent may have just lost its level).
        var height = draft.childCount(id) > 0 ? 1 : 0
        for item in items.dropFirst() where draft.childCount(item.itemID) > 0 {
            height = max(height, draft.level(item.itemID) + 1 - oldLevel)
        }
        // Where it lands, read after it left (it may have been before it).
        let destination = try run(of: target, named: targetName)
        let parent = newParent ?? draft.parent(target)
        let at = newParent != nil || position?.isAfter == true ? destination.rows.upperBound : destination.rows.lowerBound
        let newLevel = parent.map { draft.level($0) + 1 } ?? 0
        guard newLevel + height <= Outline.maxLevel else { throw Refusal(.tooDeep, [name, targetName]) }
        workspace.insertRun(items, section: destination.section, at: at)
        for item in items { moved.insert(item.itemID) }
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
    /// New ids that are items already, then ids listed twice, then a
    /// subtree too deep (reported as `tooDeepIDs`) fail the op.
    private mutating func add(_ new: [OutlineNode], parent: ItemID?, section s: Int, at row: Int,
                              parentLevel: Int, tooDeepIDs: [String]) throws(Refusal) {
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
        let ids = items.map(\.itemID)
        let existing = ids.filter(workspace.contains)
        if !existing.isEmpty { throw Refusal(.duplicateItem, existing.map(\.string)) }
        do throws(EditFailure) {
            try EditWorkspace.requireDistinct(items.map(\.id), .duplicateItem)
        } catch {
            throw .failed(error)
        }
        guard parentLevel + 1 + deepest <= Outline.maxLevel else { throw Refusal(.tooDeep, tooDeepIDs) }
        workspace.insertRun(items, section: s, at: row)
        // An id may come back in the same edit (deleted, or replaced as a
        // child): its row is then not new, and its place may have changed.
        moved.formUnion(ids)
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
