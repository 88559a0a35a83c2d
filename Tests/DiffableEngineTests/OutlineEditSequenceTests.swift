import Testing
@testable import DiffableEngine

/// Tree edits (`DataSource.editOutline`) of 2–6 random ops of every kind,
/// ops that must fail too, on random forests whose item ids include
/// canonically equivalent spellings ("\u{e9}" / "e\u{301}", …): distinct
/// items, so everything here compares ids by their UTF-8 bytes.
///
/// 1. One edit of several ops = the same ops sent one edit each: the same
///    state, or the same failure at the same op; a failing edit changes nothing.
/// 2. A naive model of the tree (preorder rows with depths) applying the
///    documented rules agrees after every edit, failures too.
/// 3. The same with ids drawn only from equivalent spellings.
/// 4. Every diff replays on the previous decorated visible rows.
struct OutlineEditSequenceTests {
    typealias Ops = [OutlineEditOperation]
    static let mixedPool = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "\u{e9}", "e\u{301}",
                            "\u{212B}", "\u{C5}", "A\u{30A}", "\u{FB01}", "fi", "x\u{e9}y", "xe\u{301}y"]
    static let unicodePool = ["\u{e9}", "e\u{301}", "\u{212B}", "\u{C5}", "A\u{30A}", "\u{FB01}", "fi", "x\u{e9}y",
                              "xe\u{301}y", "\u{e9}\u{e9}", "e\u{301}\u{e9}", "\u{e9}e\u{301}", "e\u{301}e\u{301}", "q"]

    @Test func oneEditEqualsItsOpsSentOneByOne() {
        Self.property("one edit = its ops one by one", seeds: 400) { source, ops, _, _ in
            let before = State(source), version = source.version
            var single = source, alone: (op: Int, error: EditError)?
            for (i, op) in ops.enumerated() where alone == nil {
                if case .failure(let error) = Self.run(&single, [op]) { alone = (i, error) }
            }
            switch (Self.run(&source, ops), alone) {
            case (.success, nil):
                return State(single) == State(source) ? nil : "one by one vs one edit: \(State(single).diff(State(source)))"
            case (.failure(let error), let (i, e)?) where error.op == i && error.reason == e.reason && keys(error.ids) == keys(e.ids):
                return State(source) == before && source.version == version ? nil : "the failed edit changed the source"
            case (.success, _): return "one edit passes; one by one, op \(alone!.op) fails: \(alone!.error)"
            case (.failure(let error), _):
                return "one edit: \(error); one by one: \(alone.map { "op \($0.op) fails: \($0.error)" } ?? "passes")"
            }
        }
    }

    @Test func editsAgreeWithANaiveTreeModel() { Self.property("model", seeds: 400, Self.checkModel) }

    @Test func equivalentUnicodeSpellingsAreDistinctItems() {
        Self.property("model, equivalent spellings", seeds: 300, pool: Self.unicodePool, Self.checkModel)
    }

    @Test func everyDiffReplaysOnTheDecoratedVisibleRows() {
        func replay(_ source: inout DataSource, _ ops: Ops) -> String? {
            let before = OutlinePropertyTests.decorated(source.visible, source.outline)
            guard case .success(let update) = Self.run(&source, ops) else { return nil }
            let after = OutlinePropertyTests.decorated(source.visible, source.outline)
            let batch = try? before.applyingBatch(update.changeset, contentFrom: after)
            let steps = try? before.applyingSteps(update.changeset.steps(from: before, to: after), contentFrom: after)
            guard batch != after || steps != after else { return nil }
            return "replay: batch \(batch == after), steps \(steps == after); \(update.changeset)"
        }
        Self.property("replays", seeds: 300) { source, ops, _, edit in
            var single = source
            // Every other edit, its ops one edit each too.
            return replay(&source, ops) ?? ops.lazy.filter { _ in edit % 2 == 0 }.compactMap { replay(&single, [$0]) }.first
        }
    }

    // MARK: drivers

    /// What the model makes of an edit: the tree after it, or the failing op.
    struct Expected { var model: TreeModel; var failure: (op: Int, TreeModel.Failure)? }

    /// Runs `check` (nil: passed) on 8 random edits of each seed's random
    /// forest; ops are made on the model's tree. A seed stops at its first
    /// failure; the first few failures are reported.
    static func property(_ name: String, seeds: UInt64, pool: [String] = mixedPool,
                         _ check: (inout DataSource, Ops, Expected, Int) -> String?) {
        var failed = 0
        for seed in 1...seeds {
            var gen = Gen(rng: SplitMix64(seed: seed), pool: pool)
            let forest = gen.forest()
            var source = DataSource(name: "t"), model = TreeModel(forest)
            let (snapshot, outline) = Outline.flatten(forest, previous: Outline())
            _ = try? source.apply(snapshot, outline: outline)
            for edit in 0..<8 {
                let ops = gen.edit(model)
                var expected = Expected(model: model)
                for (i, op) in ops.enumerated() where expected.failure == nil {
                    do throws(TreeModel.Failure) { try expected.model.apply(op) } catch { expected.failure = (i, error) }
                }
                if expected.failure == nil { model = expected.model }
                guard let failure = check(&source, ops, expected, edit) else { continue }
                failed += 1
                if failed <= 4 { Issue.record(Comment(rawValue: "seed \(seed) edit \(edit) [\(describe(ops))]: \(failure)")) }
                break
            }
        }
        if failed > 0 { Issue.record(Comment(rawValue: "\(name): \(failed) of \(seeds) seeds fail")) }
    }

    static func run(_ source: inout DataSource, _ ops: Ops) -> Result<DataSource.Update, EditError> {
        do throws(EditError) { return .success(try source.editOutline(ops)) } catch { return .failure(error) }
    }

    /// The edit as the model has it (which op fails, why, with which ids), then the state.
    static func checkModel(_ source: inout DataSource, _ ops: Ops, _ expected: Expected, _: Int) -> String? {
        let before = State(source), version = source.version
        switch (Self.run(&source, ops), expected.failure) {
        case (.success, nil): break
        case (.success, let (i, failure)?): return "expected op \(i) to fail (\(failure)); the edit passed"
        case (.failure(let error), nil): return "expected success; got \(error)"
        case (.failure(let error), let (i, failure)?):
            if error.op != i || error.reason != failure.reason || keys(error.ids) != failure.ids {
                return "expected op \(i) to fail (\(failure)); got \(error)"
            }
            return State(source) == before && source.version == version ? nil : "the failed edit changed the source"
        }
        let model = expected.model.state
        return State(source) == model ? nil : "model (expected) vs engine: \(model.diff(State(source)))"
    }
}

func key(_ s: String) -> [UInt8] { Array(s.utf8) }
func keys(_ s: [String]) -> [[UInt8]] { s.map(key) }
/// An id readably: non-ASCII scalars spelled out.
func esc(_ s: String) -> String {
    if s.utf8.allSatisfy({ $0 < 0x80 }) { return s }
    return s.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
}

func text(_ content: Content?) -> String { content.map { "\($0.bytes)" } ?? "-" }

/// Ops (or anything in them) readably, ids escaped.
func describe(_ value: Any) -> String {
    switch value {
    case let s as String: return esc(s)
    case let n as OutlineNode:
        return esc(n.item.id) + (n.expanded.map { $0 ? "+" : "-" } ?? "") + (n.children.isEmpty ? "" : "(\(describe(n.children)))")
    case let item as Item: return esc(item.id)
    case let section as Section: return "\(section.id): \(describe(Array(section.items)))"
    case let content as Content: return "\(content.bytes)"
    case let list as [[String]]: return list.map { "[\(describe($0))]" }.joined()
    case let list as [Any]: return list.map(describe).joined(separator: " ")
    default:
        let mirror = Mirror(reflecting: value), first = mirror.children.first
        switch mirror.displayStyle {
        case .optional: return first.map { describe($0.value) } ?? "nil"
        case .enum: return first.map { "\($0.label ?? "")(\(describe($0.value)))" } ?? "\(value)"
        case .tuple, .struct: return mirror.children.map { describe($0.value) }.joined(separator: ", ")
        default: return "\(value)"
        }
    }
}

/// What a source holds and shows, ids escaped (so compared by their bytes;
/// no id here has a backslash): sections, headers, rows (id=content) in
/// preorder, visible rows, the outline (sorted "child->parent",
/// "parent->count", expanded ids).
struct State: Equatable {
    var sections: [String] = [], headers: [String] = [], rows: [[String]] = [], visible: [[String]] = []
    var parents: [String] = [], childCounts: [String] = [], expanded: [String] = []

    init() {}
    init(_ source: DataSource) {
        sections = source.snapshot.sections.map { esc($0.id) }
        headers = source.snapshot.sections.map { text($0.header) }
        rows = source.snapshot.sections.map { $0.items.map { esc($0.id) + "=" + text($0.content) } }
        visible = source.visible.sections.map { $0.items.map { esc($0.id) } }
        parents = Self.strings(source.outline.parents)
        childCounts = Self.strings(source.outline.childCounts)
        expanded = Self.strings(source.outline.expanded)
    }

    // The outline is keyed by `ItemID` since 3bce37e, by `String` before.
    static func strings(_ d: [ItemID: ItemID]) -> [String] { d.map { "\(esc($0.string))->\(esc($1.string))" }.sorted() }
    static func strings(_ d: [String: String]) -> [String] { d.map { "\(esc($0))->\(esc($1))" }.sorted() }
    static func strings(_ d: [ItemID: Int]) -> [String] { d.map { "\(esc($0.string))->\($1)" }.sorted() }
    static func strings(_ d: [String: Int]) -> [String] { d.map { "\(esc($0))->\($1)" }.sorted() }
    static func strings(_ s: Set<ItemID>) -> [String] { s.map { esc($0.string) }.sorted() }
    static func strings(_ s: Set<String>) -> [String] { s.map(esc).sorted() }

    /// The members that differ, `self`'s first.
    func diff(_ other: State) -> String {
        zip(Mirror(reflecting: self).children, Mirror(reflecting: other).children)
            .map { ($0.label ?? "", describe($0.value), describe($1.value)) }
            .filter { $0.1 != $0.2 }.map { "\($0.0): \($0.1) vs \($0.2)" }.joined(separator: "; ")
    }
}

typealias NewSection = (id: String, header: Content?, nodes: [OutlineNode])

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

/// Random forests, and edits whose ops are made on the tree the previous ones leave.
struct Gen {
    var rng: SplitMix64
    let pool: [String]
    var fresh = 0, touched: [String] = []  // items this edit moved or added, with their subtrees

    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func content() -> Content? { chance(0.2) ? nil : Content(bytes: [UInt8(int(0...3))]) }
    mutating func position(_ target: String) -> EditPosition { chance(0.5) ? .before(target) : .after(target) }
    mutating func node(_ id: String, _ children: [OutlineNode] = [], nested: Bool = true) -> OutlineNode {
        OutlineNode(item: Item(id: id, content: content(), text: "t"), children: children,
                    expanded: nested ? [nil, true, false][int(0...2)] : nil)
    }

    /// The id with a character spelled another, equivalent way (canonically, or U+FB01 / "fi").
    static func twin(_ id: String) -> String? {
        let b = key(id)
        for (from, to) in [("\u{e9}", "e\u{301}"), ("e\u{301}", "\u{e9}"), ("\u{C5}", "A\u{30A}"), ("A\u{30A}", "\u{212B}"),
                           ("\u{212B}", "\u{C5}"), ("\u{FB01}", "fi"), ("fi", "\u{FB01}")] {
            guard let i = b.indices.first(where: { b[$0...].starts(with: key(from)) }) else { continue }
            return String(decoding: b[..<i] + key(to) + b[(i + key(from).count)...], as: UTF8.self)
        }
        return nil
    }

    mutating func forest() -> [NewSection] {
        var ids = pool.shuffled(using: &rng)
        func take(_ depth: Int) -> [OutlineNode] {
            (0..<int(0...3)).compactMap { _ in ids.popLast().map { node($0, depth < 3 && chance(0.5) ? take(depth + 1) : []) } }
        }
        return (0..<int(1...3)).map { s in (id: "s\(s)", header: content(), nodes: take(0) + take(0)) }
    }

    /// Mostly fresh ids (some pairs spelled alike); sometimes a pool id, a live one or a live one's twin.
    mutating func nodes(_ m: TreeModel, nested: Bool, depth: Int = 0) -> [OutlineNode] {
        (0..<int(1...(depth == 0 ? 3 : 2))).flatMap { _ in
            fresh += 1
            let r = int(0...99), live = m.names.randomElement(using: &rng)
            let ids = r < 1 ? [pool[int(0...pool.count - 1)]] : r < 2 ? live.map { [$0] } ?? []
                : r < 6 ? live.flatMap(Self.twin).map { [$0] } ?? [] : r < 16 ? ["p\(fresh)\u{e9}", "p\(fresh)e\u{301}"]
                : [["f\(fresh)", "g\(fresh)\u{e9}", "h\(fresh)A\u{30A}"][int(0...2)]]
            return ids.map { node($0, nested && depth < 2 && chance(0.35) ? nodes(m, nested: true, depth: depth + 1) : [],
                                  nested: nested) }
        }
    }

    /// A live item other than `not` mostly (often one this edit moved), else a missing id or a live one's twin.
    mutating func item(_ m: TreeModel, not: String = "") -> String {
        let live = m.names.filter { key($0) != key(not) }, r = int(0...99)
        if r < 1 || live.isEmpty { return "zz" }
        if r < 4, let twin = live.randomElement(using: &rng).flatMap(Self.twin) { return twin }
        let recent = r < 35 ? touched.filter { key($0) != key(not) }.randomElement(using: &rng) : nil
        return recent ?? live.randomElement(using: &rng) ?? "zz"
    }
    mutating func section(_ m: TreeModel, not: String = "") -> String {
        chance(0.03) ? "s9" : m.sections.filter { $0.id != not }.randomElement(using: &rng)?.id ?? "s0"
    }

    /// An op, and the items it moves or adds.
    mutating func op(_ m: TreeModel) -> (OutlineEditOperation, [String]) {
        switch int(0...99) {
        case 0..<6:
            let nested = Gen.nestedSectionOps && chance(0.6)
            let new: [NewSection] = (0..<int(1...2)).map { _ in
                fresh += 1
                let id = chance(0.08) ? section(m) : chance(0.05) ? "t" : "t\(fresh)"
                return (id, content(), chance(0.2) ? [] : nodes(m, nested: nested))
            }
            let position = chance(0.5) ? nil : position(section(m))
            let flat = new.map { Section(id: $0.id, header: $0.header, items: $0.nodes.map(\.item)) }
            let op: OutlineEditOperation = nested ? nestedSectionsOp(new, position)
                : .op(position.map { .insertSections(flat, $0) } ?? .appendSections(flat))
            return (op, new.flatMap { $0.nodes.map(\.item.id) })
        case 6..<9:
            let first = section(m)
            return (.op(.deleteSections(chance(0.3) ? [first, chance(0.2) ? first : section(m, not: first)] : [first])), [])
        case 9..<13:
            let id = section(m)
            return (.op(.moveSection(id, position(chance(0.05) ? id : section(m, not: id)))), [])
        case 13..<15: return (.op(.reloadSections([section(m)])), [])
        case 15..<18: return (.op(.setHeaders((0..<int(1...2)).map { _ in HeaderUpdate(id: section(m), header: content()) })), [])
        case 18..<26:
            let flat = chance(0.3), new = nodes(m, nested: !flat), to = chance(0.5) ? nil : section(m)
            return (flat ? .op(.appendItems(new.map(\.item), toSection: to)) : .appendNodes(new, section: to, parent: nil),
                    new.map(\.item.id))
        case 26..<31:
            let new = nodes(m, nested: true)
            return (.appendNodes(new, section: nil, parent: item(m)), new.map(\.item.id))
        case 31..<36:
            let flat = chance(0.3), new = nodes(m, nested: !flat), at = position(item(m))
            return (flat ? .op(.insertItems(new.map(\.item), at)) : .insertNodes(new, at), new.map(\.item.id))
        case 36..<44:
            // A parent with some of its descendants, in any order; sometimes an id twice.
            let base = item(m)
            var ids = [base] + m.subtree(base).dropFirst().map(\.name).filter { _ in chance(0.4) } + (chance(0.3) ? [item(m)] : [])
            ids.shuffle(using: &rng)
            return (.op(.deleteItems(ids + (chance(0.05) ? [ids[0]] : []))), [])
        case 44: return (.op(chance(0.3) ? .deleteAllItems : .reloadItems([item(m)])), [])
        case 45..<64:
            // Next to / into any item, itself, a descendant (cycle), its twin, its own parent.
            let id = item(m), r = int(0...24), into = chance(0.4)
            let target = r == 0 ? id : r == 1 ? m.subtree(id).dropFirst().randomElement(using: &rng)?.name ?? item(m, not: id)
                : r == 2 ? Self.twin(id) ?? id : r < 5 && into ? m.parent(of: id) ?? id : item(m, not: id)
            return (into ? .moveInto(id, parent: target) : .op(.moveItem(id, position(target))), [id])
        case 64..<71:
            let ids = (0..<int(1...3)).map { _ in item(m) }
            return (.op(chance(0.5) ? .reloadItems(ids) : .reconfigureItems(ids)), [])
        case 71..<78:
            let updates = (0..<int(1...3)).map { _ in ContentUpdate(id: item(m), content: content(), text: "t") }
            return (.op(.setContent(updates, style: chance(0.5) ? .reload : .reconfigure)), [])
        case 78..<86:
            // Old children may come back; the parent's own id may not.
            let parent = item(m), old = m.subtree(parent).dropFirst().randomElement(using: &rng)?.name
            let new = (chance(0.15) ? [] : nodes(m, nested: true)) + (chance(0.3) ? old.map { [node($0)] } ?? [] : [])
                + (chance(0.03) ? [node(parent)] : [])
            return (.replaceChildren(parent, new), new.map(\.item.id))
        default: return (.setExpanded((0..<int(1...3)).map { _ in item(m) }, chance(0.6), recursive: chance(0.4)), [])
        }
    }

    /// 2–6 ops, each made on the tree the previous ones leave.
    mutating func edit(_ model: TreeModel) -> [OutlineEditOperation] {
        var m = model
        touched = []
        return (0..<int(2...6)).map { _ in
            let (op, moved) = op(m)
            do throws(TreeModel.Failure) { try m.apply(op) } catch {}
            touched += moved.flatMap { m.subtree($0).map(\.name) }
            return op
        }
    }
}

// MARK: - The section ops with nested items (new in 3bce37e): the only code naming them.

extension Gen { static let nestedSectionOps = true }

func nestedSectionsOp(_ new: [NewSection], _ position: EditPosition?) -> OutlineEditOperation {
    let sections = new.map { OutlineSection(id: $0.id, header: $0.header, nodes: $0.nodes) }
    return position.map { .insertNestedSections(sections, $0) } ?? .appendNestedSections(sections)
}

func nestedSections(in op: OutlineEditOperation) -> ([NewSection], EditPosition?)? {
    switch op {
    case .appendNestedSections(let new): (new.map { ($0.id, $0.header, $0.nodes) }, nil)
    case .insertNestedSections(let new, let position): (new.map { ($0.id, $0.header, $0.nodes) }, position)
    default: nil
    }
}
