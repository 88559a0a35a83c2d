import Testing
@testable import DiffableEngine
import DiffableTestSupport

@Suite struct SearchFuzzyTests {
    func fz(_ text: String, order: SearchOrder = .score, limit: Int? = nil) -> SearchQuery {
        SearchQuery(text: text, mode: .fuzzy, order: order, limit: limit)
    }

    @Test func exactScores() {
        let index = SearchIndex(texts: ["abc", "foo bar", "fooBar", "foobar", "a1", "src/main.swift"])
        #expect(index.score(of: 0, for: fz("a")) == 36)        // 16 + 2×10
        #expect(index.score(of: 0, for: fz("ab")) == 62)       // 36 + 16 + carried 10
        #expect(index.score(of: 0, for: fz("ac")) == 49)       // 36 − 3 + 16
        #expect(index.score(of: 1, for: fz("fb")) == 57)       // 36 − 3 − 2 + 16 + 10
        #expect(index.score(of: 2, for: fz("fb")) == 55)       // 36 − 3 − 1 + 16 + 7
        #expect(index.score(of: 3, for: fz("fb")) == 48)       // 36 − 3 − 1 + 16
        #expect(index.score(of: 4, for: fz("1")) == 30)        // 16 + 2×7 (letter→digit)
        #expect(index.score(of: 5, for: fz("m")) == 34)        // 16 + 2×9 (after '/')
        #expect(index.score(of: 0, for: fz("x")) == nil)
        #expect(index.score(of: 0, for: fz("ba")) == nil)       // order matters
    }

    @Test func boundaryBeatsMiddle() {
        let index = SearchIndex(texts: ["foobar", "foo bar", "foo_bar", "foo/bar"])
        let s = (0..<4).map { index.score(of: $0, for: fz("b")) ?? -1 }
        #expect(s[1] > s[3] && s[3] > s[2] && s[2] > s[0])
        #expect(index.search(fz("b"), among: nil).map(\.index) == [1, 3, 2, 0])
    }

    @Test func consecutiveBeatsScattered() {
        let index = SearchIndex(texts: ["xaxbxcx", "xxabcxx"])
        #expect((index.score(of: 1, for: fz("abc")) ?? 0) > (index.score(of: 0, for: fz("abc")) ?? 0))
        #expect(index.search(fz("abc"), among: nil).map(\.index) == [1, 0])
    }

    @Test func camelCaseBonus() {
        let index = SearchIndex(texts: ["getusername", "getUserName"])
        #expect((index.score(of: 1, for: fz("gun")) ?? 0) > (index.score(of: 0, for: fz("gun")) ?? 0))
        #expect(index.highlights(of: 1, for: fz("gun")) == [0..<1, 3..<4, 7..<8])
    }

    @Test func smartCase() {
        let index = SearchIndex(texts: ["FooBar", "foobar", "FOOBAR", "José", "JOSÉ"])
        #expect(index.matchingIndices(fz("fb"), among: nil) == [0, 1, 2])
        #expect(index.matchingIndices(fz("FB"), among: nil) == [0, 2])
        #expect(index.matchingIndices(fz("FoB"), among: nil) == [0])
        // Lowercase query: accent- and case-insensitive.
        #expect(index.matchingIndices(fz("jose"), among: nil) == [3, 4])
        // Uppercase query: case-sensitive; accents are still normalized
        // unless the query has one (as fzf does).
        #expect(index.matchingIndices(fz("JOSÉ"), among: nil) == [4])
        #expect(index.matchingIndices(fz("JOSE"), among: nil) == [4])
        #expect(index.matchingIndices(fz("josé"), among: nil) == [3, 4])
        #expect(index.matchingIndices(fz("Jose"), among: nil) == [3])
        #expect(fz("aB").isCaseSensitive && !fz("ab").isCaseSensitive)
        #expect(!SearchQuery(text: "AB", mode: .substring).isCaseSensitive)
    }

    @Test func exactHighlights() {
        let index = SearchIndex(texts: ["foo bar", "fooBar baz", "👍 foo-bar", "abcabc", "José Álvarez"])
        #expect(index.highlights(of: 0, for: fz("fb")) == [0..<1, 4..<5])
        #expect(index.highlights(of: 0, for: fz("bar")) == [4..<7])
        // "b" of "baz" (after a space) beats the camel hump "B": 67 vs 64.
        #expect(index.highlights(of: 1, for: fz("fbz")) == [0..<1, 7..<8, 9..<10])
        #expect(index.score(of: 1, for: fz("fbz")) == 67)
        #expect(index.highlights(of: 2, for: fz("fb")) == [2..<3, 6..<7])
        // Prefers the run at the text start (boundary) over a later one.
        #expect(index.highlights(of: 3, for: fz("abc")) == [0..<3])
        #expect(index.highlights(of: 4, for: fz("jal")) == [0..<1, 5..<7])
        #expect(index.highlights(of: 0, for: fz("zz")) == [])
        #expect(index.highlights(of: 0, for: fz("")) == [])
    }

    @Test func hugeTextHighlightFallsBackToGreedy() {
        // 36 query chars × 120k scalars > maxCells: greedy (leftmost) alignment,
        // not the better word-start one at the end.
        let word = "abcdefghijklmnopqrstuvwxyz0123456789"
        let text = "x-a-" + word.dropFirst() + String(repeating: "-", count: 120_000) + " " + word
        let index = SearchIndex(texts: [text])
        let q = fz(word)
        #expect(index.highlights(of: 0, for: q) == [2..<3, 4..<39])
    }

    /// The highlights are an alignment of the query: one position per query
    /// char, ascending, each holding that char. (fzf's backtrace does not
    /// always realize the reported score: scores clamp at 0 and the first
    /// row restarts; `FzfComparisonTests` checks scores through rankings.)
    @Test func highlightsAreAnAlignment() {
        var rng = SplitMix64(seed: 3)
        let texts = SearchFixtures.texts(count: 400, rng: &rng)
        let index = SearchIndex(texts: texts)
        for _ in 0..<40 {
            let q = fz(SearchFixtures.query(length: Int.random(in: 1...3, using: &rng), rng: &rng))
            // One plain term (a space or an operator makes several terms).
            guard let term = FzfQuery(q.text, fuzzy: true).singleFuzzyTerm else { continue }
            for hit in index.search(q, among: nil) {
                let text = texts[hit.index] ?? ""
                let positions = SearchFixtures.positions(index.highlights(of: hit.index, for: q))
                #expect(positions.count == term.units.count)
                #expect(positions == positions.sorted() && Set(positions).count == positions.count)
                let scalars = Array(text.unicodeScalars)
                let picked = String(String.UnicodeScalarView(positions.compactMap { $0 < scalars.count ? scalars[$0] : nil }))
                #expect(FzfModel.matches(picked, String(String.UnicodeScalarView(term.typed.compactMap(Unicode.Scalar.init))))
                        && picked.unicodeScalars.count == positions.count,
                        "\(q.text) in \(text)")
            }
        }
    }
}
