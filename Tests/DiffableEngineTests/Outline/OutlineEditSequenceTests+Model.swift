import Testing
@testable import DiffableEngine

/// The naive model: each section a list of preorder rows with their depths
/// (a subtree is its item's row and the deeper rows after it), found by
/// scanning; ids compared by their bytes (section ids are ASCII here, so
/// also as the engine's `String`s); checks in the documented order
/// (relativeToItself, every unknown id, duplicates, cycle); after every op
/// only items with children stay expanded.
struct TreeModel {
    struct Row { var id: [UInt8]; var name: String; var content: Content?; var depth: Int }
    struct Sec { var id: String; var header: Content?; var rows: [Row] }
    struct Failure: Error, CustomStringConvertible {
        var reason: EditError.Reason, ids: [[UInt8]]
        var description: String { "\(reason) [\(describe(ids.map { String(decoding: $0, as: UTF8.self) }))]" }
    }
    var sections: [Sec] = [], expanded: Set<[UInt8]> = []

    init(_ new: [NewSection]) { try? addSections(new, nil) }
    static func rows(_ nodes: [OutlineNode], _ depth: Int = 0) -> [Row] {
        nodes.flatMap { node in
            [Row(id: key(node.item.id), name: node.item.id, content: node.item.content, depth: depth)] + rows(node.children, depth + 1)
        }
    }
    /// New items that start expanded (`expanded: true`, with children).
    static func flagged(_ nodes: [OutlineNode]) -> [[UInt8]] {
        nodes.flatMap { ($0.expanded == true && !$0.children.isEmpty ? [key($0.item.id)] : []) + flagged($0.children) }
    }
    var names: [String] { sections.flatMap { $0.rows.map(\.name) } }
    func section(_ id: [UInt8]) -> Int? { sections.firstIndex { key($0.id) == id } }
    func find(_ id: String) -> (s: Int, r: Int)? { find(key(id)) }
    func find(_ id: [UInt8]) -> (s: Int, r: Int)? {
        for (s, section) in sections.enumerated() { if let r = section.rows.firstIndex(where: { $0.id == id }) { return (s, r) } }
        return nil
    }
    /// Where the subtree at row `r` ends.
    func end(_ s: Int, _ r: Int) -> Int {
        sections[s].rows[(r + 1)...].firstIndex { $0.depth <= sections[s].rows[r].depth } ?? sections[s].rows.count
    }
    /// The item and its descendants, in preorder.
    func subtree(_ id: String) -> ArraySlice<Row> { find(id).map { sections[$0.s].rows[$0.r..<end($0.s, $0.r)] } ?? [] }
    func parent(of id: String) -> String? {
        find(id).flatMap { (s, r) in sections[s].rows[..<r].last { $0.depth < sections[s].rows[r].depth }?.name }
    }
    /// Takes out the subtree of `id` (depths from 0).
    mutating func cut(_ id: String) -> [Row] {
        guard let (s, r) = find(id) else { return [] }
        let e = end(s, r), depth = sections[s].rows[r].depth
        defer { sections[s].rows.removeSubrange(r..<e) }
        return sections[s].rows[r..<e].map { var row = $0; row.depth -= depth; return row }
    }
    /// Puts rows right before/after `position`'s target (its siblings), or last under `parent`.
    mutating func put(_ rows: [Row], _ position: EditPosition?, parent: String? = nil) {
        guard let (s, r) = find(position?.target ?? parent ?? "") else { return }
        let depth = sections[s].rows[r].depth + (position == nil ? 1 : 0)
        sections[s].rows.insert(contentsOf: rows.map { var row = $0; row.depth += depth; return row },
                                at: position?.isAfter == false ? r : end(s, r))
    }

    func require(_ ids: [String], sections: Bool = false) throws(Failure) {
        var unknown: [[UInt8]] = []
        for id in keys(ids) where (sections ? section(id) : find(id)?.s) == nil && !unknown.contains(id) { unknown.append(id) }
        if !unknown.isEmpty { throw Failure(reason: sections ? .unknownSection : .unknownItem, ids: unknown) }
    }
    static func requireDistinct(_ ids: [[UInt8]], _ reason: EditError.Reason) throws(Failure) {
        var seen: Set<[UInt8]> = [], repeated: [[UInt8]] = []
        for id in ids where !seen.insert(id).inserted && !repeated.contains(id) { repeated.append(id) }
        if !repeated.isEmpty { throw Failure(reason: reason, ids: repeated) }
    }
    /// New ids: none may be an item (but those `replaced`), none listed twice.
    func requireNew(_ nodes: [OutlineNode], replaced: Set<[UInt8]> = []) throws(Failure) {
        let ids = Self.rows(nodes).map(\.id), existing = ids.filter { find($0) != nil && !replaced.contains($0) }
        if !existing.isEmpty { throw Failure(reason: .duplicateItem, ids: existing) }
        try Self.requireDistinct(ids, .duplicateItem)
    }

    mutating func addSections(_ new: [NewSection], _ position: EditPosition?) throws(Failure) {
        var at = sections.count
        if let position {
            guard let t = section(key(position.target)) else { throw Failure(reason: .unknownSection, ids: [key(position.target)]) }
            at = t + (position.isAfter ? 1 : 0)
        }
        let taken = keys(new.map(\.id)).filter { section($0) != nil }
        if !taken.isEmpty { throw Failure(reason: .duplicateSection, ids: taken) }
        try Self.requireDistinct(keys(new.map(\.id)), .duplicateSection)
        try requireNew(new.flatMap(\.nodes))
        sections.insert(contentsOf: new.map { Sec(id: $0.id, header: $0.header, rows: Self.rows($0.nodes)) }, at: at)
        expanded.formUnion(new.flatMap { Self.flagged($0.nodes) })
    }
    /// Adds items last under `parent`, or next to `position`'s target, or at the end of a section (nil: the last).
    mutating func add(_ nodes: [OutlineNode], section id: String? = nil, parent: String? = nil,
                      _ position: EditPosition? = nil) throws(Failure) {
        if let target = parent ?? position?.target { try require([target]) } else if let id { try require([id], sections: true) }
        if parent == nil, position == nil, id == nil, sections.isEmpty { throw Failure(reason: .noSection, ids: []) }
        try requireNew(nodes)
        if parent != nil || position != nil { put(Self.rows(nodes), position, parent: parent) } else {
            sections[id.flatMap { section(key($0)) } ?? sections.count - 1].rows += Self.rows(nodes)
        }
        expanded.formUnion(Self.flagged(nodes))
    }
    /// Moves `id` next to `target` (`position`), or last under it (nil).
    mutating func move(_ id: String, _ target: String, _ position: EditPosition?) throws(Failure) {
        if key(id) == key(target) { throw Failure(reason: .relativeToItself, ids: [key(id)]) }
        try require([id, target])
        if subtree(id).dropFirst().contains(where: { $0.id == key(target) }) { throw Failure(reason: .cycle, ids: keys([id, target])) }
        put(cut(id), position, parent: target)
    }

    mutating func apply(_ op: OutlineEditOperation) throws(Failure) {
        if let (new, position) = nestedSections(in: op) { try addSections(new, position) }
        switch op {
        case .op(let flat): try apply(flat)
        case .appendNodes(let nodes, let section, let parent): try add(nodes, section: section, parent: parent)
        case .insertNodes(let nodes, let position): try add(nodes, position)
        case .moveInto(let id, let parent): try move(id, parent, nil)
        case .replaceChildren(let parent, let nodes):
            try require([parent])
            let old = Set(subtree(parent).dropFirst().map(\.id))
            try requireNew(nodes, replaced: old)
            expanded.subtract(old)  // the old children go first: a returning id starts afresh
            if let (s, r) = find(parent) { sections[s].rows.removeSubrange((r + 1)..<end(s, r)) }
            try add(nodes, parent: parent)
        case .setExpanded(let ids, let expand, let recursive):
            try require(ids)
            for row in ids.flatMap({ recursive ? subtree($0) : subtree($0).prefix(1) }) {
                if expand { expanded.insert(row.id) } else { expanded.remove(row.id) }
            }
        default: break  // the nested section ops, above
        }
        // Only items with children stay expanded.
        expanded.formIntersection(sections.flatMap { s in zip(s.rows, s.rows.dropFirst()).filter { $1.depth > $0.depth }.map(\.0.id) })
    }

    mutating func apply(_ op: EditOperation) throws(Failure) {
        func nested(_ s: Section) -> NewSection { (s.id, s.header, s.items.map { OutlineNode(item: $0) }) }
        switch op {
        case .appendSections(let new): try addSections(new.map(nested), nil)
        case .insertSections(let new, let position): try addSections(new.map(nested), position)
        case .deleteSections(let ids):
            try require(ids, sections: true)
            try Self.requireDistinct(keys(ids), .duplicateSection)
            sections.removeAll { ids.contains($0.id) }
        case .moveSection(let id, let position):
            if key(id) == key(position.target) { throw Failure(reason: .relativeToItself, ids: [key(id)]) }
            try require([id, position.target], sections: true)
            let moved = sections.remove(at: section(key(id))!)
            sections.insert(moved, at: section(key(position.target))! + (position.isAfter ? 1 : 0))
        case .reloadSections(let ids): try require(ids, sections: true)
        case .setHeaders(let updates):
            try require(updates.map(\.id), sections: true)
            for update in updates { sections[section(key(update.id))!].header = update.header }
        case .appendItems(let items, let section): try add(items.map { OutlineNode(item: $0) }, section: section)
        case .insertItems(let items, let position): try add(items.map { OutlineNode(item: $0) }, position)
        case .deleteItems(let ids):
            try require(ids)
            try Self.requireDistinct(keys(ids), .duplicateItem)
            for id in ids { _ = cut(id) }  // a listed descendant may be gone already
        case .deleteAllItems: for s in sections.indices { sections[s].rows = [] }
        case .moveItem(let id, let position): try move(id, position.target, position)
        case .reloadItems(let ids), .reconfigureItems(let ids): try require(ids)
        case .setContent(let updates, _):
            try require(updates.map(\.id))
            for update in updates { if let (s, r) = find(update.id) { sections[s].rows[r].content = update.content } }
        case .transformContent(let t):
            try require([t.id])
            guard let (s, r) = find(t.id) else { return }
            guard let new = try? t.body(sections[s].rows[r].content) else { throw Failure(reason: .patchFailed, ids: keys([t.id])) }
            sections[s].rows[r].content = new.content
        }
    }

    var state: State {
        var state = State()
        state.expanded = expanded.map { esc(String(decoding: $0, as: UTF8.self)) }.sorted()
        for section in sections {
            state.sections.append(esc(section.id))
            state.headers.append(text(section.header))
            state.rows.append(section.rows.map { esc($0.name) + "=" + text($0.content) })
            var open: [(name: String, showsChildren: Bool)] = []  // the row's ancestors
            var shown: [String] = [], counts: [String: Int] = [:]
            for row in section.rows {
                open.removeLast(open.count - row.depth)
                if let parent = open.last {
                    state.parents.append("\(esc(row.name))->\(esc(parent.name))")
                    counts[esc(parent.name), default: 0] += 1
                }
                if open.last?.showsChildren ?? true { shown.append(esc(row.name)) }
                open.append((row.name, (open.last?.showsChildren ?? true) && expanded.contains(row.id)))
            }
            state.childCounts += counts.map { "\($0)->\($1)" }
            state.visible.append(shown)
        }
        (state.parents, state.childCounts) = (state.parents.sorted(), state.childCounts.sorted())
        return state
    }
}
