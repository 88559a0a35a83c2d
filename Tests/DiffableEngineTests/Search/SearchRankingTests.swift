import Testing
@testable import DiffableEngine
import DiffableTestSupport

@Suite struct SearchRankingTests {
    static let modes: [SearchMode] = [.fuzzy, .substring]

    @Test func emptyQueryMatchesEverythingIncludingNil() {
        let index = SearchIndex(texts: ["bb", nil, "a", "ccc"])
        let q = SearchQuery(text: "", mode: .fuzzy, order: .source)
        #expect(index.matchingIndices(q, among: nil) == [0, 1, 2, 3])
        #expect(index.search(q, among: nil) == [0, 1, 2, 3].map { SearchHit(index: $0, score: 0) })
        #expect(index.search(q, among: [3, 1]).map(\.index) == [1, 3])
        // Score order: all 0. A fuzzy query with no term keeps the input
        // order, as fzf; a substring one ties on the shorter text (nil = 0)
        // then the lower index.
        var byScore = q
        byScore.order = .score
        #expect(index.search(byScore, among: nil).map(\.index) == [0, 1, 2, 3])
        byScore.mode = .substring
        #expect(index.search(byScore, among: nil).map(\.index) == [1, 2, 0, 3])
        #expect(index.search(SearchQuery(text: "a"), among: nil).map(\.index) == [2])
    }

    @Test func candidatesAreNormalized() {
        let index = SearchIndex(texts: ["a", "b", "a", "a"])
        let q = SearchQuery(text: "a", mode: .substring, order: .source)
        #expect(index.matchingIndices(q, among: [3, 0, 3, 99, -1, 1]) == [0, 3])
        #expect(index.matchingIndices(q, among: []) == [])
        #expect(SearchIndex().search(q, among: nil) == [])
    }

    /// Score order is total and sorted by (score ↓, length ↑, index ↑); the
    /// limited result is a prefix of the unlimited one; source order is
    /// ascending; scores agree with `score(of:for:)`; runs are repeatable.
    @Test(arguments: [300, 40_000]) func totalOrderAndLimitPrefix(count: Int) {
        var rng = SplitMix64(seed: UInt64(count))
        let texts = SearchFixtures.texts(count: count, rng: &rng)
        let index = SearchIndex(texts: texts)
        let rounds = count > 1000 ? 4 : 30
        for round in 0..<rounds {
            let mode = Self.modes[round % 2]
            let text = SearchFixtures.query(length: Int.random(in: 0...3, using: &rng), rng: &rng)
            let q = SearchQuery(text: text, mode: mode, order: .score)
            let all = index.search(q, among: nil)
            #expect(all == index.search(q, among: nil))
            let matches = index.matchingIndices(q, among: nil)
            #expect(all.map(\.index).sorted() == matches)
            // Fuzzy ties on fzf's length: without surrounding whitespace;
            // none for a query with no term left, which fzf leaves in
            // input order.
            let length = { (i: Int) -> Int in
                let scalars = Array(texts[i]?.unicodeScalars ?? "".unicodeScalars)
                guard mode == .fuzzy else { return scalars.count }
                if q.matchesEverything { return 0 }
                let inner = scalars.drop { FzfText.isSpace($0.value) }.reversed().drop { FzfText.isSpace($0.value) }
                return inner.count
            }
            for (a, b) in zip(all, all.dropFirst()) {
                let ordered = a.score > b.score || (a.score == b.score
                    && (length(a.index) < length(b.index) || (length(a.index) == length(b.index) && a.index < b.index)))
                #expect(ordered)
            }
            if count <= 1000 {
                for hit in all { #expect(index.score(of: hit.index, for: q) == hit.score) }
            }
            for limit in [0, 1, 5, 50] {
                var limited = q
                limited.limit = limit
                #expect(index.search(limited, among: nil) == Array(all.prefix(limit)))
                limited.order = .source
                let source = index.search(limited, among: nil)
                #expect(source.map(\.index) == Array(matches.prefix(limit)))
            }
            var source = q
            source.order = .source
            let result = index.evaluate(source, among: nil)
            #expect(result.matches == matches)
            #expect(result.hits.map(\.index) == matches)
            #expect(index.rank(matches, for: q) == all)
        }
    }

    /// Narrowing: when the next keystroke refines the previous query, searching
    /// among the previous unlimited matches gives exactly the full search.
    @Test func narrowingEqualsFullSearch() {
        var rng = SplitMix64(seed: 42)
        let texts = SearchFixtures.texts(count: 2_000, rng: &rng)
        let index = SearchIndex(texts: texts)
        var narrowed = 0
        for session in 0..<80 {
            let mode = Self.modes[session % 2]
            var previous = SearchQuery(text: "", mode: mode, order: .score, limit: 20)
            var previousMatches = index.matchingIndices(previous, among: nil)
            for _ in 0..<5 {
                var next = previous
                next.text += SearchFixtures.query(length: 1, rng: &rng)
                let full = index.evaluate(next, among: nil)
                if next.refines(previous) {
                    narrowed += 1
                    let narrow = index.evaluate(next, among: previousMatches)
                    #expect(narrow == full, "\(previous.text) → \(next.text)")
                    let twoStep = index.rank(index.matchingIndices(next, among: previousMatches), for: next)
                    #expect(twoStep == full.hits)
                }
                previous = next
                previousMatches = full.matches
            }
        }
        #expect(narrowed > 300)
    }

    /// The floor another scan thread publishes: a text strictly worse than
    /// it (lower score, or the same score and longer) is skipped, a tie is
    /// kept (the index decides ties), and matches are all still listed.
    @Test func sharedFloorSkipsOnlyStrictlyWorseTexts() {
        let index = SearchIndex(texts: ["ab", "xab", "abc", "ab", "a"])
        let query = SearchQuery(text: "a", mode: .fuzzy, order: .score, limit: 5)
        let best = index.score(of: 0, for: query) ?? 0
        #expect(index.score(of: 2, for: query) == best, "abc scores as ab, but is longer")
        let floor = SharedFloor()
        floor.raise(to: SharedFloor.pack(score: best, length: 2))
        floor.raise(to: SharedFloor.pack(score: best - 1, length: 0))  // lower: ignored
        var state = ChunkResult(keepMatches: true, ranking: .best(5))
        index.withTable { table in
            Scanner(table: table, query: PreparedQuery(query)).scan(0..<5, ids: nil, floor: floor, into: &state)
        }
        state.finish()
        #expect(Set(state.keys.map(\.index)) == [0, 3, 4], "ties and better texts kept, worse ones skipped")
        #expect(state.matches == [0, 1, 2, 3, 4])
    }

    @Test func refinesRules() {
        func q(_ t: String, _ m: SearchMode = .fuzzy) -> SearchQuery { SearchQuery(text: t, mode: m) }
        #expect(q("ab").refines(q("a")))
        #expect(q("ab").refines(q("")))
        #expect(q("axb").refines(q("ab")))                 // fuzzy: subsequence
        #expect(!q("axb", .substring).refines(q("ab", .substring)))
        #expect(q("xab", .substring).refines(q("ab", .substring)))
        #expect(q("AB", .substring).refines(q("a", .substring)))
        #expect(q("aB").refines(q("a")))                   // sensitive refines insensitive
        #expect(q("Ab").refines(q("A")))
        #expect(!q("ab").refines(q("A")))                  // insensitive never refines sensitive
        #expect(!q("ab", .substring).refines(q("a")))      // mode change
    }
}

/// The packed radix sort must give exactly the comparison sort's order,
/// for keys that pack (small ranges, negative scores, duplicates of score
/// and length) and keys that do not (huge spans fall back).
@Suite struct RankSortTests {
    @Test(arguments: 0..<40) func packedOrderIsTheRankingOrder(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0x5EED)
        let count = Int.random(in: 0...3000, using: &rng)
        let scoreRange: ClosedRange<Int> = switch seed % 4 {
        case 0: 0...3
        case 1: -500...500
        case 2: Int.min / 2...Int.max / 2  // does not pack: comparison sort
        default: 0...200_000
        }
        let lengths = seed % 5 == 0 ? 0...1 : 0...400
        let indices = Array(0..<count * 3).shuffled(using: &rng).prefix(count)
        let keys = indices.map {
            RankKey(score: Int.random(in: scoreRange, using: &rng), length: Int.random(in: lengths, using: &rng), index: $0)
        }
        let expected = keys.sorted { $0.precedes($1) }
        let got = RankSort.sorted(keys)
        #expect(got.map(\.index) == expected.map(\.index))
        #expect(got.map(\.score) == expected.map(\.score))
        #expect(got.map(\.length) == expected.map(\.length))
    }

    @Test func radixSortSortsByTheUsedBits() {
        var rng = SplitMix64(seed: 7)
        for bits in [1, 11, 12, 33, 64] {
            var words = (0..<5000).map { _ in bits == 64 ? rng.next() : rng.next() & ((1 << UInt64(bits)) - 1) }
            let expected = words.sorted()
            RankSort.radixSort(&words, bits: bits)
            #expect(words == expected, "bits \(bits)")
        }
    }
}
