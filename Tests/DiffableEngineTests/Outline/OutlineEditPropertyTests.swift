import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// Tree edits: random ops (move into / next to, re-parenting across
/// sections, delete subtrees, append and insert nested items, replace
/// children, expand, collapse, content, reloads, and ops that must fail) on
/// random trees. Every diff replays on the previous visible rows with their
/// levels and parents, the tree stays well formed, the visible list is its
/// flattening, and a failing edit changes nothing.
struct OutlineEditPropertyTests {
    static func wellFormed(_ source: DataSource) -> Bool {
        for section in source.snapshot.sections {
            var open: [String] = []  // ancestors of the current row
            var counts: [String: Int] = [:]
            for item in section.items {
                let parent = source.outline.parent(of: item.id)
                while let last = open.last, last != parent { open.removeLast() }
                if parent != nil && open.last != parent { return false }  // a parent precedes its subtree
                if let parent { counts[parent, default: 0] += 1 }
                if source.outline.hasChildren(item.id) { open.append(item.id) }
                if source.outline.level(of: item.id) != open.count - (source.outline.hasChildren(item.id) ? 1 : 0) { return false }
            }
            for (id, count) in counts where source.outline.childCount(of: id) != count { return false }
        }
        return true
    }

    @Test func treeEditsReplayAndKeepTheTreeWellFormed() throws {
        for seed in UInt64(1)...300 {
            var rng = SplitMix64(seed: seed)
            var source = DataSource(name: "t")
            let (snapshot, outline) = Outline.flatten(OutlinePropertyTests.forest(&rng), previous: Outline())
            _ = try source.apply(snapshot, outline: outline)
            var fresh = 0
            func node() -> OutlineNode {
                fresh += 1
                let children = Int.random(in: 0..<3, using: &rng) == 0 ? [OutlineNode(item: Item(id: "f\(fresh)c", text: "view"))] : []
                return OutlineNode(item: Item(id: "f\(fresh)", text: "new \(fresh)"), children: children, expanded: Bool.random(using: &rng))
            }
            for step in 0..<14 {
                let ids = source.snapshot.sections.flatMap { $0.items.map(\.id) }
                func pick() -> String { Int.random(in: 0..<12, using: &rng) == 0 ? "missing" : ids.randomElement(using: &rng) ?? "missing" }
                var ops: [OutlineEditOperation] = []
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    switch Int.random(in: 0..<10, using: &rng) {
                    case 0: ops.append(.moveInto(pick(), parent: pick()))
                    case 1: ops.append(.op(.moveItem(pick(), Bool.random(using: &rng) ? .before(pick()) : .after(pick()))))
                    case 2: ops.append(.op(.deleteItems([pick()])))
                    case 3: ops.append(.appendNodes([node()], section: nil, parent: Bool.random(using: &rng) ? pick() : nil))
                    case 4: ops.append(.insertNodes([node()], .after(pick())))
                    case 5: ops.append(.replaceChildren(pick(), [node()]))
                    case 6: ops.append(.setExpanded([pick()], Bool.random(using: &rng), recursive: Bool.random(using: &rng)))
                    case 7: ops.append(.op(.setContent([ContentUpdate(id: pick(), content: Content(bytes: [UInt8(step)]))],
                                                       style: Bool.random(using: &rng) ? .reload : .reconfigure)))
                    case 8: ops.append(.op(.reloadItems([pick()])))
                    default: ops.append(.op(.moveSection("s0", .after("s1"))))
                    }
                }
                let before = OutlinePropertyTests.decorated(source.visible, source.outline)
                let saved = (source.snapshot, source.outline, source.version, source.visible)
                // Ops that neither add nor delete items keep every item.
                let keepsItems = ops.allSatisfy { op in
                    switch op {
                    case .moveInto, .setExpanded: true
                    case .op(let flat):
                        switch flat {
                        case .moveItem, .setContent, .reloadItems, .moveSection: true
                        default: false
                        }
                    default: false
                    }
                }
                do {
                    let update = try source.editOutline(ops)
                    if keepsItems {
                        #expect(Set(source.snapshot.sections.flatMap { $0.items.map(\.id) }) == Set(ids),
                                "seed \(seed) step \(step): moves keep every item")
                    }
                    let after = OutlinePropertyTests.decorated(source.visible, source.outline)
                    #expect(try before.applyingBatch(update.changeset, contentFrom: after) == after, "seed \(seed) step \(step): batch")
                    #expect(try before.applyingSteps(update.changeset.steps(from: before, to: after), contentFrom: after) == after,
                            "seed \(seed) step \(step): steps")
                } catch {
                    #expect(source.snapshot == saved.0 && source.outline == saved.1 && source.version == saved.2
                            && source.visible == saved.3, "seed \(seed) step \(step): a failing edit changes nothing")
                }
                #expect(Self.wellFormed(source), "seed \(seed) step \(step): tree well formed")
                #expect(source.snapshot.validationIssues().isEmpty, "seed \(seed) step \(step): ids unique")
                #expect(source.visible.sections.map { $0.items.map(\.id) } == OutlinePropertyTests.naiveVisible(source),
                        "seed \(seed) step \(step): visible = flattening under expansion")
            }
        }
    }
}
