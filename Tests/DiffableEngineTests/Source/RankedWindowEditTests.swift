import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// A ranked query under a window ranks, after an append or a repeated
/// query, only the window's known hits and the matches added since
/// (`SearchIndex.reranking`). Random mixes of appends (to the last section
/// and to an earlier one), inserts, content changes, deletions, query
/// changes (longer, shorter, another tie-break, back again) and scrolls:
/// after every step the visible rows, the match count and the window are
/// those of a fresh source given the same snapshot, window and query.
@Suite struct RankedWindowEditTests {
    static let queries = ["src", "sr", "s", "view", "vie", "core sw", "app", "zzq"]

    static func item(_ id: Int, _ text: String) -> Item {
        Item(id: "i\(id)", content: Content(bytes: Array(text.utf8)), text: text)
    }

    static func visibleIDs(_ source: DataSource) -> [String] {
        source.visible.sections.flatMap { $0.items.map(\.id) }
    }

    static func query(_ text: String, tiebreak: [SearchTiebreak]?) -> SearchQuery {
        SearchQuery(text: text, mode: .fuzzy, order: .score, tiebreak: tiebreak)
    }

    @Test(arguments: [(UInt64(1), ["b"]), (UInt64(2), ["b"]), (UInt64(3), nil), (UInt64(4), nil)] as [(UInt64, [String]?)])
    func rankedWindowsFollowEveryChange(seed: UInt64, scope: [String]?) throws {
        var rng = SplitMix64(seed: 0xA11_0000 + seed)
        let corpus = FzfCorpus.make(count: 6_000, seed: 90 + seed)
        var next = 0
        func take(_ n: Int) -> [Item] {
            defer { next += n }
            return (next..<next + n).map { Self.item($0, corpus[$0 % corpus.count]) }
        }
        var viewport = Viewport(start: 0, count: 12)
        var text = "src"
        var tiebreak: [SearchTiebreak]?
        var source = DataSource(name: "ranked")
        source.prepareViewport(viewport)
        _ = try source.apply(Snapshot(sections: [Section(id: "a", items: take(300)), Section(id: "b", items: take(600))]))
        _ = source.setSearch(SearchSettings(query: Self.query(text, tiebreak: tiebreak), scope: scope, placeholder: nil))
        var ids: [String] { source.snapshot.sections.flatMap { $0.items.map(\.id) } }

        for step in 0..<160 {
            let roll = Int.random(in: 0..<100, using: &rng)
            var what = ""
            switch roll {
            case 0..<45:
                what = "append to b"
                _ = try source.edit([.appendItems(take(Int.random(in: 1..<120, using: &rng)), toSection: "b")])
            case 45..<52:
                what = "append to a"
                _ = try source.edit([.appendItems(take(Int.random(in: 1..<40, using: &rng)), toSection: "a")])
            case 52..<58:
                what = "insert"
                let anchor = ids[Int.random(in: 0..<ids.count, using: &rng)]
                _ = try source.edit([.insertItems(take(3), .after(anchor))])
            case 58..<66:
                what = "content"
                let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
                let text = corpus[Int.random(in: 0..<corpus.count, using: &rng)]
                _ = try source.edit([.setContent([ContentUpdate(id: id, content: Content(bytes: Array(text.utf8)), text: text)],
                                                 style: .reload)])
            case 66..<72:
                what = "delete"
                let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
                _ = try source.edit([.deleteItems([id])])
            case 72..<86:
                text = Self.queries[Int.random(in: 0..<Self.queries.count, using: &rng)]
                what = "query \(text)"
                _ = source.setSearch(SearchSettings(query: Self.query(text, tiebreak: tiebreak), scope: scope, placeholder: nil))
            case 86..<92:
                tiebreak = tiebreak == nil ? [.begin, .index] : nil
                what = "tiebreak \(String(describing: tiebreak))"
                _ = source.setSearch(SearchSettings(query: Self.query(text, tiebreak: tiebreak), scope: scope, placeholder: nil))
            default:
                viewport = Viewport(start: [0, 0, 5, 30][Int.random(in: 0..<4, using: &rng)], count: 12)
                what = "scroll \(viewport.start)"
                _ = source.setViewport(viewport)
            }

            var fresh = DataSource(name: "fresh")
            fresh.prepareViewport(viewport)
            _ = try fresh.apply(source.snapshot)
            _ = fresh.setSearch(SearchSettings(query: Self.query(text, tiebreak: tiebreak), scope: scope, placeholder: nil))
            let context = "seed \(seed) step \(step) (\(what))"
            #expect(source.searchMatchCount == fresh.searchMatchCount, "\(context): match count")
            let shown = Self.visibleIDs(source), expected = Self.visibleIDs(fresh)
            let firstDifference = zip(shown, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(shown.count, expected.count)
            let same = shown == expected
            #expect(same, "\(context): visible rows differ from row \(firstDifference)")
            if let window = source.window {
                let rows = Array(shown[min(window.start, shown.count)..<min(window.start + viewport.count, shown.count)])
                #expect(window.rows.map(\.id) == rows, "\(context): window rows")
            }
        }
    }
}
