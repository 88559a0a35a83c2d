import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// A source's visible snapshot under search, checked against a naive model:
/// replaying every search/apply diff on the previous visible snapshot gives
/// the new one (both forms), and every visible row of a scoped section
/// matches the query.
struct DataSourceSearchPropertyTests {
    static let words = ["Grace", "grace", "Liam", "Ava", "Émile", "Chloe", "Mason", "mae", "Ruby", "ryan", "élan", "Gr"]

    static func randomText(_ rng: inout SplitMix64) -> String? {
        if Int.random(in: 0..<12, using: &rng) == 0 { return nil }
        return (0..<Int.random(in: 1...3, using: &rng)).map { _ in words.randomElement(using: &rng) ?? "x" }
            .joined(separator: " ")
    }

    static func randomSnapshot(_ rng: inout SplitMix64, ids: inout Int) -> Snapshot {
        let sectionCount = Int.random(in: 1...3, using: &rng)
        return Snapshot(sections: (0..<sectionCount).map { s in
            let count = Int.random(in: 0...12, using: &rng)
            return Section(id: "s\(s)", items: (0..<count).map { _ in
                ids += 1
                let text = randomText(&rng)
                return Item(id: "i\(Int.random(in: 0..<40, using: &rng))-\(ids)", content: text.map { Content(bytes: Array($0.utf8)) }, text: text)
            })
        })
    }

    /// Consecutive searches vary the placeholder (none, the same, another id,
    /// the same id with other content, no content) and the scope (which
    /// moves the placeholder to another section): the placeholder is the one
    /// row that is not an item of the full snapshot, so the flat-index diff
    /// must compare it as an item.
    static let placeholders: [Item?] = [
        nil,
        Item(id: "none", content: Content(bytes: Array(#"{"text":"No results"}"#.utf8)), text: "No results"),
        Item(id: "none", content: Content(bytes: Array(#"{"text":"Nothing found"}"#.utf8)), text: "Nothing found"),
        Item(id: "empty", content: Content(bytes: Array(#"{"text":"No results"}"#.utf8)), text: "No results"),
        Item(id: "none", content: nil, text: nil),
    ]
    static let scopes: [[String]?] = [nil, ["s0", "s2"], ["s1"], ["s2"], ["s1", "s0"]]

    static func randomQuery(_ rng: inout SplitMix64) -> SearchQuery {
        let pool = ["", "g", "gr", "gra", "a", "ma", "E", "e", "Gr", "ry", "élan", "elan", "zz", "g r"]
        let mode: SearchMode = Bool.random(using: &rng) ? .substring : .fuzzy
        let order: SearchOrder = Bool.random(using: &rng) ? .source : .score
        let limit: Int? = Bool.random(using: &rng) ? nil : Int.random(in: 0...5, using: &rng)
        return SearchQuery(text: pool.randomElement(using: &rng) ?? "", mode: mode, order: order, limit: limit)
    }

    /// Naive model of "matches": folded substring, or subsequence with smart case.
    static func matches(_ text: String?, _ query: SearchQuery) -> Bool {
        if query.text.isEmpty { return true }
        guard let text else { return false }
        func fold(_ s: String) -> [Character] {
            Array(s.lowercased().folding())
        }
        switch query.mode {
        case .substring:
            let t = String(fold(text)), q = String(fold(query.text))
            return t.contains(q)
        case .fuzzy, .exact:
            return FzfModel.matches(text, query.text, fuzzy: query.mode == .fuzzy)
        }
    }

    @Test func searchDiffsReplayAndOnlyMatchesAreVisible() throws {
        for seed in UInt64(1)...600 {
            var rng = SplitMix64(seed: seed)
            var ids = 0
            var source = DataSource(name: "p")
            _ = try source.apply(Self.randomSnapshot(&rng, ids: &ids))
            for _ in 0..<12 {
                let before = source.visible
                let versionBefore = source.version
                let update: DataSource.Update
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    update = try source.apply(Self.randomSnapshot(&rng, ids: &ids))
                } else {
                    defer {
                        #expect((source.version != versionBefore) == (source.visible != before),
                                "seed \(seed): a search bumps the version exactly when the visible list changed")
                    }
                    let scope = Self.scopes.randomElement(using: &rng) ?? nil
                    let placeholder = Self.placeholders.randomElement(using: &rng) ?? nil
                    update = source.setSearch(SearchSettings(query: Self.randomQuery(&rng), scope: scope, placeholder: placeholder))
                }
                #expect(update.oldVisible == before, "seed \(seed)")
                let batch = try before.applyingBatch(update.changeset, contentFrom: update.newVisible)
                #expect(batch == source.visible, "seed \(seed): batch replay")
                let steps = try before.applyingSteps(update.changeset.steps(from: before, to: update.newVisible), contentFrom: update.newVisible)
                #expect(steps == source.visible, "seed \(seed): steps replay")
                try checkVisible(source, seed: seed)
            }
        }
    }

    func checkVisible(_ source: DataSource, seed: UInt64) throws {
        guard let settings = source.searchSettings, settings.isActive else {
            #expect(source.visible == source.snapshot, "seed \(seed): no search shows everything")
            return
        }
        let scope = settings.scope.map(Set.init)
        var shown = 0
        var expectedMatches = 0
        for (s, section) in source.snapshot.sections.enumerated() {
            let visible = source.visible.sections[s]
            #expect(visible.id == section.id)
            guard scope?.contains(section.id) ?? true else {
                #expect(visible.items == section.items, "seed \(seed): unscoped sections are shown whole")
                continue
            }
            expectedMatches += section.items.filter { Self.matches($0.text, settings.query) }.count
            for item in visible.items where item.id != settings.placeholder?.id {
                #expect(Self.matches(item.text, settings.query), "seed \(seed): \(item.text ?? "nil") shown for \(settings.query)")
                #expect(section.items.contains(item), "seed \(seed): visible rows are items of their section")
                shown += 1
            }
            if settings.query.order == .source {
                let order = visible.items.compactMap { v in section.items.firstIndex { $0.id == v.id } }
                #expect(order == order.sorted(), "seed \(seed): source order kept")
            }
        }
        #expect(source.searchMatchCount == expectedMatches, "seed \(seed): every match counted for \(settings.query)")
        let limit = settings.query.limit ?? Int.max
        #expect(shown == min(limit, expectedMatches), "seed \(seed): limit caps the shown rows")
    }
}

private extension String {
    /// Latin-1 accent folding like the index's (é → e).
    func folding() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { scalar in
            switch scalar {
            case "é", "è", "ê", "ë": return "e"
            case "É", "È", "Ê", "Ë": return "E"
            default: return scalar
            }
        }))
    }
}

/// `containsItem` remembers its last answer (a placeholder's id is checked on
/// every keystroke); the answer must follow the snapshot, whatever changes it.
struct ContainsItemMemoTests {
    @Test func theAnswerFollowsEverySnapshotChange() throws {
        var source = DataSource(name: "m")
        _ = try source.apply(Snapshot(sections: [Section(id: "s", items: [Item(id: "a"), Item(id: "b")])]))
        #expect(!source.containsItem("ph"))
        #expect(!source.containsItem("ph"), "asked again: remembered")
        #expect(source.containsItem("a"))
        let copy = source
        _ = try source.edit([.appendItems([Item(id: "ph")], toSection: "s")])
        #expect(source.containsItem("ph"), "an edit added it")
        #expect(!copy.containsItem("ph"), "a copy keeps its own snapshot's answer")
        _ = try source.apply(Snapshot(sections: [Section(id: "s", items: [Item(id: "b")])]))
        #expect(!source.containsItem("ph"), "an apply removed it")
        #expect(!source.containsItem("a"))
        _ = source.setSearch(SearchSettings(query: SearchQuery(text: "zz"), placeholder: Item(id: "ph", text: "none")))
        #expect(source.visible.sections[0].items.map(\.id) == ["ph"], "no match: the placeholder shows")
        _ = try source.edit([.appendItems([Item(id: "ph")], toSection: "s")])
        #expect(source.containsItem("ph"))
        #expect(!source.visible.sections[0].items.contains { $0.id == "ph" && $0.text == "none" },
                "an item took the placeholder's id: the placeholder no longer shows")
    }
}
