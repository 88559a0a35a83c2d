import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// Outlines: for random trees and random sequences of apply / expand /
/// collapse / search, the visible list is the naive flattening (an item is
/// shown when all its ancestors are expanded; during a search, matches and
/// their ancestors), and replaying each diff on the previous visible rows —
/// rows carrying their level, parent and disclosure — gives the new ones,
/// in both forms.
struct OutlinePropertyTests {
    /// A random forest over a small id pool, so ids survive between applies
    /// with other parents, levels and children.
    static func forest(_ rng: inout SplitMix64, pool: Int = 24) -> [(id: String, header: Content?, nodes: [OutlineNode])] {
        var ids = (0..<pool).map { "n\($0)" }.shuffled(using: &rng)
        ids = Array(ids.prefix(Int.random(in: 0...pool, using: &rng)))
        func take(depth: Int) -> [OutlineNode] {
            var nodes: [OutlineNode] = []
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                guard let id = ids.popLast() else { break }
                let words = ["view", "model", "grid", "Viewer", "test"]
                let text = "\(words.randomElement(using: &rng) ?? "x") \(id)"
                let children = depth < 3 && Bool.random(using: &rng) ? take(depth: depth + 1) : []
                let expanded: Bool? = Int.random(in: 0..<3, using: &rng) == 0 ? nil : Bool.random(using: &rng)
                nodes.append(OutlineNode(item: Item(id: id, content: Content(bytes: Array(text.utf8)), text: text),
                                         children: children, expanded: expanded))
            }
            return nodes
        }
        return (0..<Int.random(in: 1...3, using: &rng)).map { s in
            (id: "s\(s)", header: nil, nodes: take(depth: 0) + take(depth: 0))
        }
    }

    /// The visible rows, naively, from the nested tree.
    static func naiveVisible(_ source: DataSource) -> [[String]] {
        source.snapshot.sections.map { section in
            section.items.compactMap { item in
                let hidden = source.outline.ancestors(of: item.id).contains { !source.outline.isExpanded($0) }
                return hidden ? nil : item.id
            }
        }
    }

    /// Visible rows whose content also says their place in the outline, so
    /// that a diff that forgets to redraw a re-indented row fails replay.
    static func decorated(_ snapshot: Snapshot, _ outline: Outline) -> Snapshot {
        var s = snapshot
        for i in s.sections.indices {
            s.sections[i].items = ItemList(s.sections[i].items.map { item in
                var bytes = item.content?.bytes ?? []
                // A flat source's rows carry no outline members.
                if !outline.isEmpty {
                    let row = outline.row(of: item.id)
                    bytes += Array("|\(row.level)|\(row.parent ?? "-")|\(row.hasChildren)|\(row.expanded)".utf8)
                }
                return Item(id: item.id, content: Content(bytes: bytes))
            })
        }
        return s
    }

    @Test func outlineDiffsReplayWithLevelsAndParents() throws {
        for seed in UInt64(1)...400 {
            var rng = SplitMix64(seed: seed)
            var source = DataSource(name: "tree")
            var searching = false
            for step in 0..<16 {
                let before = Self.decorated(source.visible, source.outline)
                let update: DataSource.Update
                switch Int.random(in: 0..<6, using: &rng) {
                case 0, 1:
                    let (snapshot, outline) = Outline.flatten(Self.forest(&rng), previous: source.outline)
                    update = try source.apply(snapshot, outline: outline)
                case 2:
                    let ids = source.snapshot.sections.flatMap { $0.items.map(\.id) }
                    let picked = ids.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }
                    update = try source.setExpanded(picked, Bool.random(using: &rng), recursive: Bool.random(using: &rng))
                case 3:
                    // One item: the incremental path while no search is active.
                    let parents = source.snapshot.sections.flatMap { $0.items.map(\.id) }.filter(source.outline.hasChildren)
                    guard let id = parents.randomElement(using: &rng) else { continue }
                    update = try source.setExpanded([id], !source.outline.isExpanded(id), recursive: Bool.random(using: &rng))
                default:
                    let query = ["", "view", "vie", "mod", "zz", "t"].randomElement(using: &rng) ?? ""
                    searching = !query.isEmpty
                    update = source.setSearch(SearchSettings(query: SearchQuery(text: query, mode: .substring),
                                                             scope: Bool.random(using: &rng) ? nil : ["s0"]))
                }
                let after = Self.decorated(source.visible, source.outline)
                let batch = try before.applyingBatch(update.changeset, contentFrom: after)
                #expect(batch == after, "seed \(seed) step \(step): batch replay with levels and parents")
                let steps = try before.applyingSteps(update.changeset.steps(from: before, to: after), contentFrom: after)
                #expect(steps == after, "seed \(seed) step \(step): steps replay with levels and parents")
                if !searching {
                    #expect(source.visible.sections.map { $0.items.map(\.id) } == Self.naiveVisible(source),
                            "seed \(seed) step \(step): the visible list is the tree flattened under its expansion")
                } else if let settings = source.searchSettings {
                    // Every match is shown, with all its ancestors, in tree order.
                    for (s, section) in source.snapshot.sections.enumerated() where settings.scope?.contains(section.id) ?? true {
                        let shown = source.visible.sections[s].items.map(\.id)
                        let matches = section.items.filter { ($0.text ?? "").lowercased().contains(settings.query.text.lowercased()) }
                        for item in matches {
                            #expect(shown.contains(item.id), "seed \(seed) step \(step): match \(item.id) shown")
                            for ancestor in source.outline.ancestors(of: item.id) {
                                #expect(shown.contains(ancestor), "seed \(seed) step \(step): ancestor \(ancestor) of \(item.id) shown")
                            }
                        }
                        let order = shown.compactMap { id in section.items.firstIndex { $0.id == id } }
                        if !source.outline.isEmpty {
                            #expect(order == order.sorted(), "seed \(seed) step \(step): tree order")
                        }
                    }
                }
            }
        }
    }

    @Test func clearingASearchRestoresTheExpansionExactly() throws {
        let (snapshot, outline) = Outline.flatten([(id: "files", header: nil, nodes: [
            OutlineNode(item: Item(id: "src", text: "src"), children: [
                OutlineNode(item: Item(id: "src/view.swift", text: "view.swift")),
                OutlineNode(item: Item(id: "src/model", text: "model"), children: [OutlineNode(item: Item(id: "src/model/view", text: "view"))]),
            ]),
            OutlineNode(item: Item(id: "README", text: "README")),
        ])], previous: Outline())
        var source = DataSource(name: "t")
        _ = try source.apply(snapshot, outline: outline)
        #expect(source.visible.sections[0].items.map(\.id) == ["src", "README"])
        _ = source.setSearch(SearchSettings(query: SearchQuery(text: "view", mode: .substring)))
        #expect(source.visible.sections[0].items.map(\.id) == ["src", "src/view.swift", "src/model", "src/model/view"])
        _ = source.setSearch(nil)
        #expect(source.visible.sections[0].items.map(\.id) == ["src", "README"])
        #expect(source.outline.expanded.isEmpty)
    }
}
