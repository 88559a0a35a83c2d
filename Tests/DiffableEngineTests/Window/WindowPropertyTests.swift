import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// Viewports: for random sequences of apply / edit / select / search /
/// scroll, replaying the window steps on the window the frontend held gives
/// exactly rows `start ..< start + count` of the new flattened visible list
/// (headers as rows), the total is right, and the window stays on the row
/// at its top while that row is still visible.
struct WindowPropertyTests {
    /// The flat visible list, naively: each section's header row (when it
    /// has one), then its items, with selection and highlights.
    static func flatten(_ source: DataSource) -> [WindowRow] {
        var rows: [WindowRow] = []
        for (s, section) in source.visible.sections.enumerated() {
            if let header = section.header {
                rows.append(WindowRow(kind: .header, id: section.id, section: section.id, content: header))
            }
            for (r, item) in section.items.enumerated() {
                rows.append(WindowRow(kind: .item, id: item.id, section: section.id, content: item.content,
                                      selected: source.selection.isSelected(item.id),
                                      highlights: source.highlights(at: ItemPath(section: s, row: r))))
            }
        }
        return rows
    }

    /// Whether an edit op may redraw rows whose drawing did not change.
    static func asksRedraw(_ op: EditOperation) -> Bool {
        switch op {
        case .reloadItems, .reconfigureItems, .setContent, .transformContent: true
        default: false
        }
    }

    static func texted(_ snapshot: Snapshot, _ rng: inout SplitMix64) -> Snapshot {
        let words = ["Grace", "Liam", "Ava", "Mason", "gray", "ruby"]
        var s = snapshot
        for i in s.sections.indices {
            s.sections[i].items = ItemList(s.sections[i].items.map { item in
                guard item.content != nil else { return item }
                let text = "\(words.randomElement(using: &rng) ?? "x") \(item.id)"
                return Item(id: item.id, content: Content(bytes: Array(text.utf8)), text: text)
            })
        }
        return s
    }

    @Test func windowStepsReplayToTheFlatList() throws {
        for seed in UInt64(1)...400 {
            var pairs = PairGenerator(seed: seed)
            var edits = EditGenerator(seed: seed &* 31)
            edits.nextID = 1_000_000
            var rng = SplitMix64(seed: seed &+ 77)
            var source = DataSource(name: "w")
            // The same changes without a viewport: what the window shows must
            // be cut from the same visible list (a ranked search with a
            // viewport ranks lazily; see `DeferredRanking`).
            var mirror = DataSource(name: "m")
            var held: [WindowRow] = []
            if let first = source.setViewport(Viewport(start: pairs.int(0..<4), count: pairs.int(1..<9))) {
                held = try held.applyingWindowSteps(first.steps)
            }
            var snapshot = Self.texted(pairs.randomSnapshot(), &rng)
            for step in 0..<30 {
                let before = Self.flatten(source)
                let oldStart = source.window?.start ?? 0
                let anchor = held.first
                var update: WindowUpdate?
                var anchored = false
                var lastChangeset: Changeset?
                var redrawsAsked = false
                switch pairs.int(0..<7) {
                case 0, 1:
                    snapshot = Self.texted(pairs.derive(from: source.snapshot, intensity: Double(pairs.int(1..<5)) / 10), &rng)
                    let policies = Dictionary(uniqueKeysWithValues: snapshot.sections.map {
                        ($0.id, SectionSelectionPolicy(mode: .multiple))
                    })
                    let u = try source.apply(snapshot, policies: policies)
                    _ = try mirror.apply(snapshot, policies: policies)
                    update = u.window
                    lastChangeset = u.changeset
                    anchored = true
                case 2:
                    let (ops, _) = edits.randomOps(on: source.snapshot, count: pairs.int(1..<4))
                    _ = try? mirror.edit(ops)
                    if let result = try? source.edit(ops) {
                        update = result.window
                        redrawsAsked = !result.changeset.itemReloads.isEmpty || !result.changeset.itemReconfigures.isEmpty
                            || (result.visibleDiffOmitted && ops.contains(where: Self.asksRedraw))
                        // An edit's changeset reports an item moved into a new
                        // section as deleted; the window follows it only
                        // within surviving sections (see windowAfter).
                        anchored = !result.changeset.itemDeletes.contains { path in
                            result.oldVisible.item(at: path)?.id == anchor?.id
                        }
                    }
                case 3:
                    let visibleBefore = source.visible, versionBefore = source.version
                    defer {
                        #expect((source.version != versionBefore) == (source.visible != visibleBefore),
                                "seed \(seed) step \(step): a search with a viewport bumps the version exactly when the visible list changed")
                    }
                    let query = ["", "gr", "a", "zz", "ma"].randomElement(using: &rng) ?? ""
                    let scope: [String]? = pairs.chance(0.5) ? nil : source.snapshot.sections.prefix(1).map(\.id)
                    let settings = SearchSettings(query: SearchQuery(text: query, mode: pairs.chance(0.5) ? .fuzzy : .substring),
                                                  scope: scope, placeholder: pairs.chance(0.5) ? Item(id: "ph", text: "none") : nil)
                    update = source.setSearch(settings).window
                    _ = mirror.setSearch(settings)
                    anchored = true
                case 4:
                    let ids = source.visible.sections.flatMap { $0.items.map(\.id) }.filter { $0 != "ph" }
                    if let id = ids.randomElement(using: &rng), (try? source.select(.toggle, targets: [.id(id)])) != nil {
                        _ = try? mirror.select(.toggle, targets: [.id(id)])
                        update = source.refreshWindow()
                    }
                default:
                    let count = pairs.chance(0.2) ? 0 : pairs.int(1..<9)
                    let start = pairs.int(0..<(before.count + 3))
                    update = source.setViewport(Viewport(start: start, count: count))
                    if count == 0 {
                        held = []
                        _ = source.setViewport(Viewport(start: start, count: pairs.int(1..<9))).map { held = try! held.applyingWindowSteps($0.steps) }
                        continue
                    }
                }
                #expect(source.visible == mirror.visible, "seed \(seed) step \(step): the visible list does not depend on the viewport")
                guard let update else { continue }
                let flat = Self.flatten(source)
                held = try held.applyingWindowSteps(update.steps)
                let expected = Array(flat[min(update.start, flat.count)..<min(flat.count, update.start + update.count)])
                #expect(held == expected, "seed \(seed) step \(step): window rows")
                #expect(update.total == flat.count, "seed \(seed) step \(step): total")
                if anchored, let anchor, let index = flat.firstIndex(where: { $0.kind == anchor.kind && $0.id == anchor.id }) {
                    #expect(update.start == index, "seed \(seed) step \(step): the window stays on its top row (was \(oldStart)) anchor \(anchor.kind) \(anchor.id) before \(before.map { ($0.kind == .header ? "H" : "") + $0.id }) after \(flat.map { ($0.kind == .header ? "H" : "") + $0.id }) \(lastChangeset.map { "\($0)" } ?? "")")
                }
                if before == flat, anchored {
                    // Unchanged rows are redrawn only when a reload or reconfigure asks for it.
                    #expect(update.steps.allSatisfy { if case .update = $0 { redrawsAsked } else { false } },
                            "seed \(seed) step \(step): nothing changed")
                }
            }
        }
    }

    /// A change entirely outside the window sends no step, only total and start.
    @Test func changesOutsideTheWindowSendOnlyTotalAndStart() throws {
        var source = DataSource(name: "w")
        _ = source.setViewport(Viewport(start: 100, count: 10))
        let items = (0..<1000).map { Item(id: "i\($0)") }
        _ = try source.apply(Snapshot(sections: [Section(id: "s", items: items)]))
        let above = try source.edit([.deleteItems(["i3", "i4"])])
        #expect(above.window == WindowUpdate(total: 998, start: 98, count: 10, steps: []))
        let below = try source.edit([.insertItems([Item(id: "new")], .after("i900"))])
        #expect(below.window == WindowUpdate(total: 999, start: 98, count: 10, steps: []))
        let inside = try source.edit([.deleteItems(["i102"])])
        #expect(inside.window?.steps == [.delete(at: 2, count: 1), .insert(at: 9, rows: [WindowRow(kind: .item, id: "i110", section: "s", content: nil)])])
    }
}

/// A ranked search with a viewport ranks only the rows the window can
/// reach (`DeferredRanking`); the rest is ranked when first read. Against a
/// source without a viewport given the same changes: the same visible list
/// after every keystroke, scroll (past the ranked rows too) and selection;
/// window rows cut from it; the version moving exactly when it changed.
struct DeferredRankingTests {
    @Test(arguments: 0..<24) func lazyRankingShowsWhatAFullRankingShows(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0xDEF)
        let words = ["grace", "Gray", "green", "agar", "rag", "gr8", "ogre", "x", "Granger", "mary gr"]
        let n = Int.random(in: 50...1500, using: &rng)
        let items = (0..<n).map { i -> Item in
            let text = "\(words.randomElement(using: &rng) ?? "") \(words.randomElement(using: &rng) ?? "") \(i)"
            return Item(id: "p\(i)", content: Content(bytes: Array(text.utf8)), text: text)
        }
        let sections = seed % 3 == 0
            ? [Section(id: "top", header: Content(bytes: Array("\"top\"".utf8)), items: [Item(id: "t0"), Item(id: "t1")]),
               Section(id: "list", header: Content(bytes: Array("\"list\"".utf8)), items: ItemList(items))]
            : [Section(id: "list", items: ItemList(items))]
        var source = DataSource(name: "w"), mirror = DataSource(name: "m")
        var held: [WindowRow] = []
        if let first = source.setViewport(Viewport(start: 0, count: Int.random(in: 1...6, using: &rng))) {
            held = try held.applyingWindowSteps(first.steps)
        }
        let snapshot = Snapshot(sections: sections)
        let policies = ["list": SectionSelectionPolicy(mode: .multiple)]
        held = try held.applyingWindowSteps(try source.apply(snapshot, policies: policies).window?.steps ?? [])
        _ = try mirror.apply(snapshot, policies: policies)
        let queries = ["g", "gr", "gra", "r", "ra", "G", "Gr", "gr ", "", "a", "ag", "zzz", "8", "y g"]
        var previousQuery: SearchQuery?
        for step in 0..<40 {
            let before = source.visible, version = source.version
            let anchor = held.first
            var update: WindowUpdate?
            var searched = false
            var edited = false
            switch Int.random(in: 0..<13, using: &rng) {
            case 10...12:
                // Items streaming in (and the other edits a picker's list
                // sees) while the query is active.
                let ops = Self.randomEdit(on: source.snapshot, words: words, serial: step, &rng)
                _ = try? mirror.edit(ops)
                if let result = try? source.edit(ops) {
                    update = result.window
                    edited = true
                }
            case 0..<5:
                let text = queries.randomElement(using: &rng) ?? ""
                let settings = SearchSettings(query: SearchQuery(text: text, mode: step % 4 == 0 ? .substring : .fuzzy),
                                              scope: ["list"], placeholder: Item(id: "ph", text: "none"))
                update = source.setSearch(settings).window
                _ = mirror.setSearch(settings)
                searched = true
                // The version moves when the visible list changed; it also
                // moves, by the documented rule, for another query keeping
                // the same count of rows under deferred ranking.
                let sameCountOtherQuery = source.searchCache.deferred != nil && before.itemCount == source.visible.itemCount
                    && previousQuery != settings.query
                if source.visible != before {
                    #expect(source.version == version + 1, "seed \(seed) step \(step): the visible list changed: version moves")
                } else if !sameCountOtherQuery {
                    #expect(source.version == version, "seed \(seed) step \(step): nothing changed: version stays")
                }
                previousQuery = settings.query
            case 5..<8:
                let total = source.visible.sections.reduce(0) { $0 + $1.items.count + 2 }
                update = source.setViewport(Viewport(start: Int.random(in: 0...max(0, total), using: &rng),
                                                     count: Int.random(in: 1...6, using: &rng)))
            default:
                let ids = source.visible.sections.flatMap { $0.items.map(\.id) }.filter { $0 != "ph" && $0.hasPrefix("p") }
                if let id = ids.randomElement(using: &rng), (try? source.select(.toggle, targets: [.id(id)])) != nil {
                    _ = try? mirror.select(.toggle, targets: [.id(id)])
                    update = source.refreshWindow()
                }
            }
            #expect(source.visible == mirror.visible, "seed \(seed) step \(step): the visible list does not depend on the viewport")
            guard let update else { continue }
            let flat = WindowPropertyTests.flatten(source)
            held = try held.applyingWindowSteps(update.steps)
            #expect(held == Array(flat[min(update.start, flat.count)..<min(flat.count, update.start + update.count)]),
                    "seed \(seed) step \(step): window rows")
            #expect(update.total == flat.count, "seed \(seed) step \(step): total")
            // A search keeps the window on its top row when that row is
            // still shown, wherever it ranks now (found through row sources,
            // ranking the deferred rows only when it is among them).
            // So does an edit, wherever the edit moved it.
            if searched || edited, let anchor, let index = flat.firstIndex(where: { $0.kind == anchor.kind && $0.id == anchor.id }) {
                #expect(update.start == index, "seed \(seed) step \(step): the window stays on \(anchor.id)")
            }
        }
    }
}

extension DeferredRankingTests {
    /// Another query with the same ranked rows and the same other matches is
    /// counted as a change without ranking the rest (that would cost a full
    /// ranking per keystroke): "a" → "ab" keeps the full order and still
    /// bumps the version; "ab" → "b" reverses the last two rows; the same
    /// query again changes nothing and ranks nothing.
    @Test func sameRowsUnderAnotherQueryCountAsAChangeWithoutRanking() throws {
        let texts = ["a b", "a b", "a b", "a xxb", "xxa b"]
        let items = texts.enumerated().map { Item(id: "t\($0.offset)", content: Content(bytes: Array($0.element.utf8)), text: $0.element) }
        var source = DataSource(name: "w")
        _ = source.setViewport(Viewport(start: 0, count: 1))  // ranks the best 3
        _ = try source.apply(Snapshot(sections: [Section(id: "list", items: ItemList(items))]))
        func search(_ text: String) -> [String] {
            _ = source.setSearch(SearchSettings(query: SearchQuery(text: text, mode: .fuzzy, order: .score)))
            #expect(source.searchCache.deferred != nil, "\(text): the last two rows are deferred")
            return source.visible.sections[0].items.map(\.id)
        }
        #expect(search("a") == ["t0", "t1", "t2", "t3", "t4"])
        let version = source.version
        _ = source.setSearch(SearchSettings(query: SearchQuery(text: "ab", mode: .fuzzy, order: .score)))
        #expect(source.searchCache.deferred?.rest.isComputed == false, "deciding the version ranked nothing")
        #expect(source.version == version + 1, "another query over the same rows: counted as a change")
        #expect(source.visible.sections[0].items.map(\.id) == ["t0", "t1", "t2", "t3", "t4"])
        #expect(search("b") == ["t0", "t1", "t2", "t4", "t3"])
        #expect(source.version == version + 2, "the rest's order changed: a change")
        _ = source.setSearch(SearchSettings(query: SearchQuery(text: "b", mode: .fuzzy, order: .score)))
        #expect(source.version == version + 2, "the same query again: no change")
    }
}

extension DeferredRankingTests {
    /// One to three ops on the `list` section: items appended in a batch,
    /// inserted, deleted, moved, given another text, or reloaded.
    static func randomEdit(on snapshot: Snapshot, words: [String], serial: Int,
                           _ rng: inout SplitMix64) -> [EditOperation] {
        guard let list = snapshot.sections.first(where: { $0.id == "list" }) else { return [] }
        var ids = list.items.map(\.id)
        var next = 0
        func newItem() -> Item {
            next += 1
            let text = "\(words.randomElement(using: &rng) ?? "") \(words.randomElement(using: &rng) ?? "") n\(serial)"
            return Item(id: "n\(serial)-\(next)", content: Content(bytes: Array(text.utf8)), text: text)
        }
        var ops: [EditOperation] = []
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let some = ids.randomElement(using: &rng)
            switch Int.random(in: 0..<7, using: &rng) {
            case 0, 1:
                let batch = (0..<Int.random(in: 1...40, using: &rng)).map { _ in newItem() }
                ops.append(.appendItems(batch, toSection: "list"))
                ids += batch.map(\.id)
            case 2:
                guard let some else { continue }
                let item = newItem()
                ops.append(.insertItems([item], Bool.random(using: &rng) ? .before(some) : .after(some)))
                ids.append(item.id)
            case 3:
                guard let some else { continue }
                ops.append(.deleteItems([some]))
                ids.removeAll { $0 == some }
            case 4:
                guard let some, let other = ids.randomElement(using: &rng), other != some else { continue }
                ops.append(.moveItem(some, .after(other)))
            case 5:
                guard let some else { continue }
                let text = "\(words.randomElement(using: &rng) ?? "") \(some)"
                ops.append(.setContent([ContentUpdate(id: some, content: Content(bytes: Array(text.utf8)), text: text)],
                                       style: .reload))
            default:
                guard let some else { continue }
                ops.append(.reloadItems([some]))
            }
        }
        return ops
    }
}
