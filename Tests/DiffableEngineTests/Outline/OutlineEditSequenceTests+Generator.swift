import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// Random forests, and edits whose ops are made on the tree the previous ones leave.
struct Gen {
    var rng: SplitMix64
    let pool: [String]
    var fresh = 0, touched: [String] = []  // items this edit moved or added, with their subtrees
    /// Search texts: by the content's byte (0…3), then for no content. As
    /// in the daemon, an item's text is a function of its content.
    var texts = ["t"]

    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func content() -> Content? { chance(0.2) ? nil : Content(bytes: [UInt8(int(0...3))]) }
    func text(for content: Content?) -> String {
        guard texts.count > 1 else { return texts.first ?? "t" }
        let byte = content.flatMap { $0.bytes.first }.map(Int.init) ?? texts.count - 1
        return texts[min(byte, texts.count - 1)]
    }
    mutating func position(_ target: String) -> EditPosition { chance(0.5) ? .before(target) : .after(target) }
    mutating func node(_ id: String, _ children: [OutlineNode] = [], nested: Bool = true) -> OutlineNode {
        let content = content()
        return OutlineNode(item: Item(id: id, content: content, text: text(for: content)), children: children,
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
            let nested = chance(0.6)
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
            let updates = (0..<int(1...3)).map { _ in
                let id = item(m), content = content()
                return ContentUpdate(id: id, content: content, text: text(for: content))
            }
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

// MARK: - The section ops with nested items

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
