/// The edit ops on the forest. Each op reads the forest as the previous
/// op left it and checks everything before it changes anything, in the
/// flat edit's order: `relativeToItself`, then every unknown id (all of
/// them listed), then duplicates, then `cycle`, then `tooDeep`. Ids are
/// compared by their bytes.
extension OutlineForest {
    mutating func apply(_ op: OutlineEditOperation) throws(EditFailure) {
        switch op {
        case .op(let flat):
            try apply(flat)
        case .appendNestedSections(let new):
            try insertSections(new, at: nil)
        case .insertNestedSections(let new, let position):
            try insertSections(new, at: position)
        case .appendNodes(let new, let section, let parent):
            if let parent {
                try requireItems([parent])
                try requireNew(Self.ids(new))
                guard let p = node(parent) else { return }
                try requireDepth(level(p) + 1 + Self.height(new), [parent])
                add(new, parent: p, tree: nodes[p].tree)
            } else {
                let slot = try sectionSlot(section)
                try requireNew(Self.ids(new))
                try requireDepth(Self.height(new), new.prefix(1).map(\.item.id))
                add(new, parent: -1, tree: slot)
            }
        case .insertNodes(let new, let position):
            try requireItems([position.target])
            try requireNew(Self.ids(new))
            guard let target = node(position.target) else { return }
            try requireDepth(level(target) + Self.height(new), [position.target])
            let place = place(position, target: target)
            add(new, parent: place.parent, tree: place.tree, at: place.at)
        case .moveInto(let id, let parent):
            guard ItemID(id) != ItemID(parent) else { throw EditFailure(.relativeToItself, [id]) }
            try requireItems([id, parent])
            guard let n = node(id), let p = node(parent) else { return }
            guard !isInSubtree(p, of: n) else { throw EditFailure(.cycle, [id, parent]) }
            try requireDepth(level(p) + 1 + height(n), [id, parent])
            let oldParent = detach(n)
            attach(n, parent: p, tree: nodes[p].tree)
            forgetExpansionIfChildless(oldParent)
        case .replaceChildren(let parent, let new):
            try requireItems([parent])
            guard let p = node(parent) else { return }
            // The old children go first, so their ids may come back.
            try requireNew(Self.ids(new), except: p)
            try requireDepth(level(p) + 1 + Self.height(new), [parent])
            for child in nodes[p].children { forget(child) }
            nodes[p].children = []
            add(new, parent: p, tree: nodes[p].tree)
            // Replaced children keep the parent as it was; none collapse it.
            if new.isEmpty { expanded.remove(p) }
        case .setExpanded(let ids, let expand, let recursive):
            try requireItems(ids)
            for id in ids {
                guard let n = node(id) else { continue }
                for m in recursive ? subtree(n) : [n] where !nodes[m].children.isEmpty {
                    if expand { expanded.insert(m) } else { expanded.remove(m) }
                }
            }
        }
    }

    private mutating func apply(_ op: EditOperation) throws(EditFailure) {
        switch op {
        case .appendSections(let new):
            try insertSections(new.map(Self.nested), at: nil)
        case .insertSections(let new, let position):
            try insertSections(new.map(Self.nested), at: position)
        case .deleteSections(let ids):
            try requireSections(ids)
            try Self.requireDistinct(ids, .duplicateSection)
            for id in ids {
                guard let slot = slot(ofSection: id) else { continue }
                for root in trees[slot].roots { forget(root) }
                trees[slot].roots = []
                order.removeAll { $0 == slot }
            }
        case .moveSection(let id, let position):
            guard id != position.target else { throw EditFailure(.relativeToItself, [id]) }
            try requireSections([id, position.target])
            guard let slot = slot(ofSection: id) else { return }
            order.removeAll { $0 == slot }
            guard let target = order.firstIndex(where: { trees[$0].id == position.target }) else { return }
            order.insert(slot, at: position.isAfter ? target + 1 : target)
        case .reloadSections(let ids):
            try requireSections(ids)
            requests.reloadSections.formUnion(ids)
        case .setHeaders(let updates):
            try requireSections(updates.map(\.id))
            for update in updates {
                guard let slot = slot(ofSection: update.id) else { continue }
                trees[slot].header = update.header
            }
        case .appendItems(let items, let section):
            try apply(.appendNodes(items.map { OutlineNode(item: $0) }, section: section, parent: nil))
        case .insertItems(let items, let position):
            try apply(.insertNodes(items.map { OutlineNode(item: $0) }, position))
        case .deleteItems(let ids):
            try requireItems(ids)
            try Self.requireDistinct(ids, .duplicateItem)
            // A listed descendant of a listed item goes with it.
            for id in ids {
                guard let n = node(id) else { continue }
                delete(n)
            }
        case .deleteAllItems:
            for slot in order {
                for root in trees[slot].roots { forget(root) }
                trees[slot].roots = []
            }
        case .moveItem(let id, let position):
            guard ItemID(id) != ItemID(position.target) else { throw EditFailure(.relativeToItself, [id]) }
            try requireItems([id, position.target])
            guard let n = node(id), let target = node(position.target) else { return }
            guard !isInSubtree(target, of: n) else { throw EditFailure(.cycle, [id, position.target]) }
            try requireDepth(level(target) + height(n), [id, position.target])
            let oldParent = detach(n)
            let place = place(position, target: target)
            attach(n, parent: place.parent, tree: place.tree, at: place.at)
            forgetExpansionIfChildless(oldParent)
        case .reloadItems(let ids):
            try requireItems(ids)
            requests.reloadItems.formUnion(ids.map(ItemID.init))
        case .reconfigureItems(let ids):
            try requireItems(ids)
            requests.reconfigureItems.formUnion(ids.map(ItemID.init))
        case .setContent(let updates, let style):
            try requireItems(updates.map(\.id))
            for update in updates {
                guard let n = node(update.id), nodes[n].item.content != update.content else { continue }
                nodes[n].item = Item(id: update.id, content: update.content, text: update.text)
                if style == .reconfigure { requests.reconfigureItems.insert(ItemID(update.id)) }
            }
        case .transformContent(let transform):
            try requireItems([transform.id])
            guard let n = node(transform.id) else { return }
            try apply(.setContent([try transform.update(from: nodes[n].item.content)], style: .reload))
        }
    }

    private static func nested(_ section: Section) -> OutlineSection {
        OutlineSection(id: section.id, header: section.header, nodes: section.items.map { OutlineNode(item: $0) })
    }

    private mutating func insertSections(_ new: [OutlineSection], at position: EditPosition?) throws(EditFailure) {
        var at = order.count
        if let position {
            guard let target = order.firstIndex(where: { trees[$0].id == position.target }) else {
                throw EditFailure(.unknownSection, [position.target])
            }
            at = position.isAfter ? target + 1 : target
        }
        let taken = new.map(\.id).filter { slot(ofSection: $0) != nil }
        if !taken.isEmpty { throw EditFailure(.duplicateSection, taken) }
        try Self.requireDistinct(new.map(\.id), .duplicateSection)
        try requireNew(new.flatMap { Self.ids($0.nodes) })
        for section in new { try requireDepth(Self.height(section.nodes), [section.id]) }
        for section in new {
            let slot = trees.count
            trees.append(Tree(id: section.id, header: section.header, roots: []))
            order.insert(slot, at: at)
            at += 1
            add(section.nodes, parent: -1, tree: slot)
        }
    }

    // MARK: checks

    private func sectionSlot(_ id: String?) throws(EditFailure) -> Int {
        guard let id else {
            guard let last = order.last else { throw EditFailure(.noSection, []) }
            return last
        }
        guard let slot = slot(ofSection: id) else { throw EditFailure(.unknownSection, [id]) }
        return slot
    }

    /// Items may sit at most at `Outline.maxLevel`.
    private func requireDepth(_ deepest: Int, _ ids: [String]) throws(EditFailure) {
        if deepest > Outline.maxLevel { throw EditFailure(.tooDeep, ids) }
    }

    private func requireSections(_ ids: [String]) throws(EditFailure) {
        var unknown: [String] = []
        for id in ids where slot(ofSection: id) == nil && !unknown.contains(id) { unknown.append(id) }
        if !unknown.isEmpty { throw EditFailure(.unknownSection, unknown) }
    }

    private func requireItems(_ ids: [String]) throws(EditFailure) {
        var unknown: [String] = []
        var seen: Set<ItemID> = []
        for id in ids {
            let key = ItemID(id)
            if index[key] == nil, seen.insert(key).inserted { unknown.append(id) }
        }
        if !unknown.isEmpty { throw EditFailure(.unknownItem, unknown) }
    }

    /// Ids must be listed once each (compared by their bytes).
    private static func requireDistinct(_ ids: [String], _ reason: EditError.Reason) throws(EditFailure) {
        guard ids.count > 1 else { return }
        var seen: Set<ItemID> = [], reported: Set<ItemID> = []
        var repeated: [String] = []
        for id in ids {
            let key = ItemID(id)
            if !seen.insert(key).inserted, reported.insert(key).inserted { repeated.append(id) }
        }
        if !repeated.isEmpty { throw EditFailure(reason, repeated) }
    }

    /// New ids must not be items yet (but those under `except`, about to be
    /// deleted) nor be listed twice.
    private func requireNew(_ ids: [ItemID], except replaced: Int? = nil) throws(EditFailure) {
        let existing = ids.filter { id in
            guard let n = index[id] else { return false }
            guard let replaced else { return true }
            return n == replaced || !isInSubtree(n, of: replaced)
        }
        if !existing.isEmpty { throw EditFailure(.duplicateItem, existing.map(\.string)) }
        var seen: Set<ItemID> = [], reported: Set<ItemID> = []
        var repeated: [String] = []
        for id in ids where !seen.insert(id).inserted && reported.insert(id).inserted { repeated.append(id.string) }
        if !repeated.isEmpty { throw EditFailure(.duplicateItem, repeated) }
    }
}
