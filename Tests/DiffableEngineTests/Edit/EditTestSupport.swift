@testable import DiffableEngine
import DiffableTestSupport

/// The obvious implementation of every op, by linear search: the reference
/// the engine is checked against. Returns false (and leaves `sections`
/// unspecified) when the op is invalid.
enum NaiveEdit {
    static func sectionIndex(_ id: String, _ s: [Section]) -> Int? { s.firstIndex { $0.id == id } }

    static func itemPath(_ id: String, _ s: [Section]) -> ItemPath? {
        for (i, section) in s.enumerated() {
            if let r = section.items.firstIndex(where: { $0.id == id }) { return ItemPath(section: i, row: r) }
        }
        return nil
    }

    static func distinct(_ ids: [String]) -> Bool { Set(ids).count == ids.count }

    static func newItemsOK(_ items: [Item], _ s: [Section]) -> Bool {
        guard distinct(items.map(\.id)) else { return false }
        let present = Set(s.lazy.flatMap { $0.items.lazy.map(\.id) })
        return items.allSatisfy { !present.contains($0.id) }
    }

    static func apply(_ ops: [EditOperation], to snapshot: Snapshot) -> (Snapshot, failedAt: Int?) {
        var s = snapshot.sections
        for (index, op) in ops.enumerated() where !apply(op, to: &s) {
            return (snapshot, index)
        }
        return (Snapshot(sections: s), nil)
    }

    static func apply(_ op: EditOperation, to s: inout [Section]) -> Bool {
        switch op {
        case .appendSections(let list), .insertSections(let list, _):
            guard distinct(list.map(\.id)), list.allSatisfy({ sectionIndex($0.id, s) == nil }),
                  newItemsOK(list.flatMap(\.items), s) else { return false }
            var at = s.count
            if case .insertSections(_, let position) = op {
                guard let t = sectionIndex(position.target, s) else { return false }
                if case .after = position { at = t + 1 } else { at = t }
            }
            s.insert(contentsOf: list, at: at)
        case .deleteSections(let ids):
            guard distinct(ids), ids.allSatisfy({ sectionIndex($0, s) != nil }) else { return false }
            s.removeAll { ids.contains($0.id) }
        case .moveSection(let id, let position):
            guard id != position.target, let from = sectionIndex(id, s), sectionIndex(position.target, s) != nil
            else { return false }
            let section = s.remove(at: from)
            guard let t = sectionIndex(position.target, s) else { return false }
            if case .after = position { s.insert(section, at: t + 1) } else { s.insert(section, at: t) }
        case .reloadSections(let ids):
            return ids.allSatisfy { sectionIndex($0, s) != nil }
        case .setHeaders(let updates):
            guard updates.allSatisfy({ sectionIndex($0.id, s) != nil }) else { return false }
            for u in updates { if let i = sectionIndex(u.id, s) { s[i].header = u.header } }
        case .appendItems(let items, let sectionID):
            let target: Int?
            if let sectionID { target = sectionIndex(sectionID, s) } else { target = s.isEmpty ? nil : s.count - 1 }
            guard let target, newItemsOK(items, s) else { return false }
            s[target].items.append(contentsOf: items)
        case .insertItems(let items, let position):
            guard let t = itemPath(position.target, s), newItemsOK(items, s) else { return false }
            if case .after = position {
                s[t.section].items.insert(contentsOf: items, at: t.row + 1)
            } else {
                s[t.section].items.insert(contentsOf: items, at: t.row)
            }
        case .deleteItems(let ids):
            guard distinct(ids), ids.allSatisfy({ itemPath($0, s) != nil }) else { return false }
            for i in s.indices { s[i].items.removeAll { ids.contains($0.id) } }
        case .deleteAllItems:
            for i in s.indices { s[i].items.removeAll() }
        case .moveItem(let id, let position):
            guard id != position.target, let from = itemPath(id, s), itemPath(position.target, s) != nil
            else { return false }
            let item = s[from.section].items.remove(at: from.row)
            guard let t = itemPath(position.target, s) else { return false }
            if case .after = position {
                s[t.section].items.insert(item, at: t.row + 1)
            } else {
                s[t.section].items.insert(item, at: t.row)
            }
        case .reloadItems(let ids), .reconfigureItems(let ids):
            return ids.allSatisfy { itemPath($0, s) != nil }
        case .setContent(let updates, _):
            guard updates.allSatisfy({ itemPath($0.id, s) != nil }) else { return false }
            for u in updates {
                if let p = itemPath(u.id, s), s[p.section].items[p.row].content != u.content {
                    s[p.section].items[p.row].content = u.content
                    s[p.section].items[p.row].text = u.text
                }
            }
        case .transformContent(let t):
            guard let p = itemPath(t.id, s), let new = try? t.body(s[p.section].items[p.row].content) else { return false }
            if s[p.section].items[p.row].content != new.content {
                s[p.section].items[p.row].content = new.content
                s[p.section].items[p.row].text = new.text
            }
        }
        return true
    }
}

/// Random snapshots and random valid op sequences (ids drawn from a small
/// pool so deleted ids come back, sections get emptied, etc.).
struct EditGenerator: RandomSnapshots {
    var rng: SplitMix64
    var nextID = 0
    let noContentChance = 0.25

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func randomSnapshot() -> Snapshot { randomSnapshot(maxSections: 4, maxItems: 6) }

    mutating func position(_ target: String) -> EditPosition {
        chance(0.5) ? .before(target) : .after(target)
    }

    /// A random op that is valid on `s` (ids that were deleted may come back:
    /// `graveyard` holds deleted items and sections).
    mutating func randomOp(on s: [Section], items graveyard: inout [Item], sections gone: inout [String]) -> EditOperation {
        let itemIDs = s.flatMap { $0.items.map(\.id) }
        let sectionIDs = s.map(\.id)
        func newItems(_ g: inout EditGenerator, _ graveyard: inout [Item]) -> [Item] {
            var items: [Item] = []
            for _ in 0..<g.int(1..<4) {
                if !graveyard.isEmpty, g.chance(0.4) {
                    var item = graveyard.remove(at: g.int(0..<graveyard.count))
                    if g.chance(0.5) { item.content = g.randomContent() }
                    items.append(item)
                } else {
                    items.append(g.freshItem())
                }
            }
            return items
        }
        func newSections(_ g: inout EditGenerator, _ gone: inout [String], _ graveyard: inout [Item]) -> [Section] {
            var list: [Section] = []
            for _ in 0..<g.int(1..<3) {
                var section = g.freshSection(maxItems: 0)
                if !gone.isEmpty, g.chance(0.4) { section.id = gone.remove(at: g.int(0..<gone.count)) }
                if g.chance(0.6) { section.items = ItemList(newItems(&g, &graveyard)) }
                list.append(section)
            }
            return list
        }
        func some(_ ids: [String], _ g: inout EditGenerator) -> [String] {
            Array(ids.shuffled(using: &g.rng).prefix(g.int(1..<4)))
        }
        for _ in 0..<20 {
            switch int(0..<15) {
            case 0:
                return .appendSections(newSections(&self, &gone, &graveyard))
            case 1 where !sectionIDs.isEmpty:
                return .insertSections(newSections(&self, &gone, &graveyard), position(sectionIDs.randomElement(using: &rng) ?? ""))
            case 2 where !sectionIDs.isEmpty && chance(0.5):
                let ids = some(sectionIDs, &self)
                gone += ids
                graveyard += s.filter { ids.contains($0.id) }.flatMap(\.items)
                return .deleteSections(ids)
            case 3 where sectionIDs.count > 1:
                let pair = Array(sectionIDs.shuffled(using: &rng).prefix(2))
                return .moveSection(pair[0], position(pair[1]))
            case 4 where !sectionIDs.isEmpty:
                return .reloadSections(some(sectionIDs, &self))
            case 5 where !sectionIDs.isEmpty:
                let ids = some(sectionIDs, &self)
                return .setHeaders(ids.map { id in
                    HeaderUpdate(id: id, header: chance(0.5) ? randomContent() : s.first { $0.id == id }?.header)
                })
            case 6 where !sectionIDs.isEmpty:
                return .appendItems(newItems(&self, &graveyard), toSection: chance(0.3) ? nil : sectionIDs.randomElement(using: &rng))
            case 7 where !itemIDs.isEmpty:
                return .insertItems(newItems(&self, &graveyard), position(itemIDs.randomElement(using: &rng) ?? ""))
            case 8 where !itemIDs.isEmpty:
                let ids = some(itemIDs, &self)
                graveyard += s.flatMap(\.items).filter { ids.contains($0.id) }
                return .deleteItems(ids)
            case 9 where chance(0.1):
                graveyard += s.flatMap(\.items)
                return .deleteAllItems
            case 10, 11:
                guard itemIDs.count > 1 else { continue }
                let pair = Array(itemIDs.shuffled(using: &rng).prefix(2))
                return .moveItem(pair[0], position(pair[1]))
            case 12 where !itemIDs.isEmpty:
                return .reloadItems(some(itemIDs, &self))
            case 13 where !itemIDs.isEmpty:
                return .reconfigureItems(some(itemIDs, &self))
            case 14 where !itemIDs.isEmpty:
                let ids = some(itemIDs, &self)
                return .setContent(ids.map { ContentUpdate(id: $0, content: randomContent()) },
                                   style: chance(0.5) ? .reload : .reconfigure)
            default:
                continue
            }
        }
        return .appendSections([freshSection(maxItems: 2)])
    }

    /// A random valid sequence of `count` ops on `snapshot`, and its result.
    mutating func randomOps(on snapshot: Snapshot, count: Int) -> ([EditOperation], Snapshot) {
        var s = snapshot.sections
        var graveyard: [Item] = []
        var gone: [String] = []
        var ops: [EditOperation] = []
        for _ in 0..<count {
            let op = randomOp(on: s, items: &graveyard, sections: &gone)
            var next = s
            guard NaiveEdit.apply(op, to: &next) else { continue }
            s = next
            ops.append(op)
            // Ids back in the snapshot are no longer available for reuse.
            let present = Set(s.flatMap { $0.items.map(\.id) })
            graveyard.removeAll { present.contains($0.id) }
            gone.removeAll { id in s.contains { $0.id == id } }
        }
        return (ops, Snapshot(sections: s))
    }
}
