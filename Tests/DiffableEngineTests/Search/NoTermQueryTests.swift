import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// A query with no term left (`'`, `^`, `!`, spaces) is taken whole
/// (`Scanner+NoTerm`): every text of what is scanned matches with score 0,
/// in index order, whatever the ranking asked for, and the next key finds
/// what a fresh search finds.
@Suite struct NoTermQueryTests {
    /// Below and above the two-thread threshold (one chunk, two).
    @Test(arguments: [900, 40_000])
    func everyTextMatchesInIndexOrder(count: Int) {
        var rng = SplitMix64(seed: UInt64(70 + count))
        let index = SearchIndex(texts: SearchFixtures.texts(count: count, rng: &rng))
        let range = 300..<(count - 100)
        for (text, mode) in [("'", SearchMode.fuzzy), ("^", .exact), ("  ", .fuzzy), ("!", .fuzzy)] {
            func query(_ order: SearchOrder = .score, limit: Int? = nil, _ typed: String = text) -> SearchQuery {
                SearchQuery(text: typed, mode: mode, order: order, limit: limit)
            }
            let name = text.debugDescription
            let all = index.search(query(), among: nil)
            let everyText = all == (0..<count).map { SearchHit(index: $0, score: 0) }
            #expect(everyText, "\(name): \(all.count) hits")
            let first50 = index.search(query(limit: 50), among: nil).map(\.index) == Array(0..<50)
            #expect(first50, "\(name)")
            let first7 = index.search(query(.source, limit: 7), among: nil).map(\.index) == Array(0..<7)
            #expect(first7, "\(name)")
            let listed = Array(stride(from: 5, to: count, by: 3))
            let firstListed = index.search(query(limit: 20), among: listed).map(\.index) == Array(listed.prefix(20))
            #expect(firstListed, "\(name)")

            // A window's rows in a scoped range: its first rows, every text
            // of the range a match.
            let scoped = index.evaluate(query(), narrowing: nil, among: nil, within: range, rankOnly: 50)
            let window = scoped.hits.map(\.index) == Array(range.prefix(50))
            let matches = scoped.matches.indices == Array(range)
            #expect(window && matches, "\(name)")
            let unscored = index.evaluate(query(.source), narrowing: nil, among: nil, within: range, scoring: false)
            #expect(unscored.hits.isEmpty && unscored.matches.count == range.count, "\(name)")

            // The next key, from this set and afresh.
            let next = query(limit: 50, text + "a")
            let narrowed = index.evaluate(next, narrowing: scoped.matches, among: nil, within: range)
            let fresh = index.evaluate(next, narrowing: nil, among: nil, within: range)
            let same = narrowed.hits == fresh.hits && narrowed.matches.indices == fresh.matches.indices
            #expect(same, "\(name)")
            #expect(!fresh.hits.isEmpty, "\(name)")
        }
    }
}
