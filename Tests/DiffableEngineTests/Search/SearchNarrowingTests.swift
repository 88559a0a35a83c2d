import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// Narrowing through compacted match sets gives exactly the results of a
/// full search, keystroke after keystroke.
@Suite struct SearchNarrowingTests {
    static func randomQuery(_ rng: inout SplitMix64, base: SearchQuery?) -> SearchQuery {
        let mode: SearchMode = Int.random(in: 0..<4, using: &rng) == 0 ? .substring : .fuzzy
        let order: SearchOrder = Int.random(in: 0..<3, using: &rng) == 0 ? .source : .score
        let limits: [Int?] = [nil, 0, 1, 3, 10, 50]
        let limit = limits.randomElement(using: &rng) ?? nil
        var text = base?.text ?? ""
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: text = SearchFixtures.query(length: Int.random(in: 0...3, using: &rng), rng: &rng)
        case 1: if !text.isEmpty { text.removeLast() }
        case 2: text = SearchFixtures.query(length: 1, rng: &rng) + text
        default: text += SearchFixtures.query(length: 1, rng: &rng)
        }
        return SearchQuery(text: text, mode: base.map { Int.random(in: 0..<8, using: &rng) == 0 ? mode : $0.mode } ?? mode,
                           order: order, limit: limit)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func chainsMatchFullSearches(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        // Above the parallel threshold for some seeds (two scan threads).
        let count = seed % 2 == 0 ? 40_000 : 300
        let index = SearchIndex(texts: SearchFixtures.texts(count: count, rng: &rng))
        var last: SearchMatchSet?
        var query: SearchQuery?
        for _ in 0..<(count > 1000 ? 25 : 200) {
            let next = Self.randomQuery(&rng, base: query)
            let result = index.evaluate(next, narrowing: last, among: nil)
            let full = index.evaluate(next, among: nil)
            #expect(result.hits == full.hits, "\(next)")
            #expect(result.matches.indices == full.matches, "\(next)")
            #expect(result.matches.count == full.matches.count)
            #expect(result.matches.query == next)
            last = result.matches
            query = next
        }
    }

    /// An unscored keystroke (an unlimited query in source order, as a
    /// picker filtering in place sends) keeps exactly the matches of a
    /// scored one, from scratch and narrowing alike.
    @Test(arguments: [7, 8, 9])
    func unscoredKeystrokesKeepTheSameMatches(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let count = seed == 8 ? 40_000 : 2_000
        let index = SearchIndex(texts: SearchFixtures.texts(count: count, rng: &rng))
        var last: SearchMatchSet?
        var query: SearchQuery?
        for _ in 0..<(count > 2_000 ? 25 : 150) {
            var next = Self.randomQuery(&rng, base: query)
            next.order = .source
            next.limit = nil
            let unscored = index.evaluate(next, narrowing: last, among: nil, scoring: false)
            let full = index.evaluate(next, among: nil)
            #expect(unscored.hits.isEmpty)
            #expect(unscored.matches.indices == full.matches, "\(next)")
            #expect(full.hits.map(\.index) == full.matches, "\(next): source order lists the matches")
            last = unscored.matches
            query = next
        }
    }

    @Test func candidatesApplyWhenNotNarrowing() {
        let index = SearchIndex(texts: ["ab", "abc", nil, "b", "xab"])
        let q = SearchQuery(text: "ab", mode: .fuzzy, order: .score, limit: nil)
        let first = index.evaluate(q, narrowing: nil, among: [4, 0, 2])
        #expect(first.matches.indices == [0, 4])
        #expect(first.hits == index.evaluate(q, among: [0, 2, 4]).hits)
        // Refines: the previous matches replace the candidates.
        let next = index.evaluate(SearchQuery(text: "abc"), narrowing: first.matches, among: [1])
        #expect(next.matches.indices == [])
        // Does not refine: the candidates are scanned.
        let other = index.evaluate(SearchQuery(text: "b"), narrowing: first.matches, among: [1, 3])
        #expect(other.matches.indices == [1, 3])
        // A set from another index is ignored.
        let small = SearchIndex(texts: ["abc"])
        #expect(small.evaluate(SearchQuery(text: "abc"), narrowing: first.matches, among: nil).matches.indices == [0])
    }

    @Test func resumeNeedsAPrefixWithTheSameCase() {
        let fuzzy = { (text: String) in SearchQuery(text: text, mode: .fuzzy) }
        #expect(SearchIndex.resumeFrom(fuzzy("abc"), after: fuzzy("ab")) == 2)
        #expect(SearchIndex.resumeFrom(fuzzy("abc"), after: fuzzy("")) == 0)
        #expect(SearchIndex.resumeFrom(fuzzy("xabc"), after: fuzzy("ab")) == nil)
        #expect(SearchIndex.resumeFrom(fuzzy("abC"), after: fuzzy("ab")) == nil)
        #expect(SearchIndex.resumeFrom(fuzzy("AbC"), after: fuzzy("Ab")) == 2)
        #expect(SearchIndex.resumeFrom(SearchQuery(text: "abc", mode: .substring),
                                       after: SearchQuery(text: "ab", mode: .substring)) == nil)
    }
}
