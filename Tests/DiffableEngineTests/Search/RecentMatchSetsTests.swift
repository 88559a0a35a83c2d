import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// A Backspace returns to the matches of the query it goes back to, and a
/// new key narrows from the smallest recent set it refines; what is shown
/// is always what a fresh search shows.
@Suite struct RecentMatchSetsTests {
    static func substring(_ text: String) -> SearchQuery { SearchQuery(text: text, mode: .substring, order: .source) }

    @Test func theSameQueryReusesItsSetAndARefinementStartsFromTheSmallest() {
        var rng = SplitMix64(seed: 11)
        let index = SearchIndex(texts: SearchFixtures.texts(count: 3_000, rng: &rng))
        var recent = RecentMatchSets()
        let a = index.evaluate(Self.substring("a"), narrowing: nil, among: nil).matches
        recent.remember(a, scope: ["list"])
        let an = index.evaluate(Self.substring("ab"), narrowing: a, among: nil).matches
        recent.remember(an, scope: ["list"])
        #expect(an.count > 0 && an.count < a.count)

        let back = recent.base(for: SearchQuery(text: "a", mode: .substring, order: .score, limit: 3), scope: ["list"])
        #expect(back.isSameQuery, "order and limit do not change the matches")
        #expect(back.set?.segments.first === a.segments.first)
        let longer = recent.base(for: Self.substring("abc"), scope: ["list"])
        #expect(!longer.isSameQuery)
        #expect(longer.set?.segments.first === an.segments.first, "the smaller of the two sets it refines")
        #expect(recent.base(for: Self.substring("abc"), scope: ["other"]).set == nil, "another scope's matches")
        #expect(recent.base(for: Self.substring("x"), scope: ["list"]).set == nil, "refines neither")
        #expect(recent.base(for: SearchQuery(text: "ab", mode: .fuzzy), scope: ["list"]).set == nil,
                "fuzzy matches are not substring matches")

        // Remembering the same query again replaces its entry.
        recent.remember(index.evaluate(Self.substring("a"), narrowing: an, among: nil).matches, scope: ["list"])
        #expect(recent.count == 2)
    }

    @Test func keepsTheNewestSetsWithinItsLimits() {
        var rng = SplitMix64(seed: 12)
        let index = SearchIndex(texts: SearchFixtures.texts(count: 3_000, rng: &rng))
        let queries = ["a", "b", "c", "1", "2", "x", "é", "-", "/", "ab"]
        var recent = RecentMatchSets(limit: 4)
        var tight = RecentMatchSets(byteBudget: 1)
        for q in queries {
            let set = index.evaluate(Self.substring(q), narrowing: nil, among: nil).matches
            recent.remember(set, scope: nil)
            tight.remember(set, scope: nil)
        }
        #expect(recent.count == 4)
        #expect(recent.base(for: Self.substring("ab"), scope: nil).isSameQuery)
        #expect(recent.base(for: Self.substring("-"), scope: nil).isSameQuery)
        #expect(recent.base(for: Self.substring("x"), scope: nil).set == nil, "the oldest went first")
        #expect(tight.count == 1, "over the budget only the newest stays")
        #expect(tight.base(for: Self.substring("ab"), scope: nil).isSameQuery)
    }

    /// The set the newest one was narrowed from goes last: `'view !te`
    /// narrows from `'view`, and `'view !tes` (which refines `'view`, not
    /// `'view !te`) then narrows from it too. Queries that parse alike
    /// (`'view` and `'view `) are the same query.
    @Test func theBaseOfTheNewestSetStaysLongest() {
        var rng = SplitMix64(seed: 13)
        let index = SearchIndex(texts: SearchFixtures.texts(count: 3_000, rng: &rng))
        func fuzzy(_ text: String) -> SearchQuery { SearchQuery(text: text, mode: .fuzzy, order: .source) }
        var recent = RecentMatchSets(limit: 2)
        let view = index.evaluate(fuzzy("'a"), narrowing: nil, among: nil).matches
        recent.remember(view, scope: nil)
        #expect(recent.base(for: fuzzy("'a "), scope: nil).isSameQuery, "a trailing space parses away")
        let t = index.evaluate(fuzzy("'a !b"), narrowing: view, among: nil).matches
        recent.remember(t, scope: nil, base: view)
        let te = index.evaluate(fuzzy("'a !b1"), narrowing: view, among: nil).matches
        recent.remember(te, scope: nil, base: view)
        #expect(recent.count == 2)
        let next = recent.base(for: fuzzy("'a !b12"), scope: nil)
        #expect(next.set?.query.text == "'a", "narrowed from the base, which was kept")
        var plain = RecentMatchSets(limit: 2)
        for set in [view, t, te] { plain.remember(set, scope: nil) }
        #expect(plain.base(for: fuzzy("'a !b12"), scope: nil).set == nil, "without a base, the oldest goes")
        // Over the byte budget, the newest and its base stay.
        var tight = RecentMatchSets(byteBudget: 1)
        tight.remember(view, scope: nil)
        tight.remember(t, scope: nil, base: view)
        tight.remember(te, scope: nil, base: view)
        #expect(tight.count == 2)
        #expect(tight.base(for: fuzzy("'a !b12"), scope: nil).set?.query.text == "'a")
    }

    /// Typing and Backspacing in a picker shows, at every key, what a fresh
    /// source shows for that query, in source and in score order; going
    /// back to a query reuses its matches.
    @Test(arguments: [SearchOrder.source, .score])
    func backspacesShowWhatAFreshSearchShows(order: SearchOrder) throws {
        var rng = SplitMix64(seed: 13)
        let texts = SearchFixtures.texts(count: 20_000, rng: &rng)
        let items = texts.enumerated().map { Item(id: "i\($0.offset)", text: $0.element) }
        let snapshot = Snapshot(sections: [Section(id: "added", items: []), Section(id: "list", items: items)])
        var source = DataSource(name: "picker")
        _ = try source.apply(snapshot)
        for mode in [SearchMode.substring, .fuzzy] {
            var sets: [String: SearchMatchSet] = [:]
            for text in ["a", "ab", "abc", "ab", "a", "", "b", "a", "ab", "x"] {
                let query = SearchQuery(text: text, mode: mode, order: order)
                let settings = SearchSettings(query: query, scope: ["list"])
                _ = source.setSearch(settings)
                var fresh = DataSource(name: "fresh")
                _ = try fresh.apply(snapshot)
                _ = fresh.setSearch(settings)
                #expect(source.visible == fresh.visible, "\(mode) \(order) “\(text)”")
                guard !text.isEmpty, let matches = source.searchCache.matches else { continue }
                if let earlier = sets[text], order == .source {
                    #expect(matches.segments.first === earlier.segments.first, "“\(text)” again: its matches reused")
                }
                sets[text] = matches
            }
        }
    }
}
