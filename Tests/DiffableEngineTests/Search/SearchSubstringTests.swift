import Testing
@testable import DiffableEngine
import DiffableTestSupport

@Suite struct SearchSubstringTests {
    func sub(_ text: String, order: SearchOrder = .source, limit: Int? = nil) -> SearchQuery {
        SearchQuery(text: text, mode: .substring, order: order, limit: limit)
    }

    @Test func caseInsensitiveEvenWithUppercaseQuery() {
        let index = SearchIndex(texts: ["Alice Smith", "bob", "SMITHERS", nil, "Smıth"])
        // The fold is fzf's: dotless ı normalizes to i.
        #expect(index.matchingIndices(sub("smith"), among: nil) == [0, 2, 4])
        #expect(index.matchingIndices(sub("SMITH"), among: nil) == [0, 2, 4])
        #expect(index.matchingIndices(sub("sMiTh"), among: nil) == [0, 2, 4])
    }

    @Test func agreesWithLowercasedContainsOnASCII() {
        var rng = SplitMix64(seed: 11)
        let alphabet: [Character] = ["a", "B", "c", "D", " ", "-"]
        let texts: [String] = (0..<500).map { _ in
            String((0..<Int.random(in: 0...10, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
        }
        let index = SearchIndex(texts: texts)
        for _ in 0..<60 {
            let q = String((0..<Int.random(in: 1...3, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
            let expected = texts.indices.filter { texts[$0].lowercased().contains(q.lowercased()) }
            #expect(index.matchingIndices(sub(q), among: nil) == expected, "query \(q)")
        }
    }

    @Test func unicodeAndAccentFolding() {
        let index = SearchIndex(texts: ["José Álvarez", "JOSE", "Zoë", "Ωμέγα", "naïve café"])
        #expect(index.matchingIndices(sub("jose"), among: nil) == [0, 1])
        #expect(index.matchingIndices(sub("josé"), among: nil) == [0, 1])
        #expect(index.matchingIndices(sub("zoe"), among: nil) == [2])
        #expect(index.matchingIndices(sub("ωμ"), among: nil) == [3])
        #expect(index.matchingIndices(sub("ΩΜ"), among: nil) == [3])
        #expect(index.matchingIndices(sub("cafe"), among: nil) == [4])
        #expect(index.matchingIndices(sub("é"), among: nil) == [0, 1, 2, 4])
    }

    @Test func highlightIsFirstOccurrenceInScalarOffsets() {
        let index = SearchIndex(texts: ["Joanna Annabel", "👍 ab ab", "José Álvarez", "e\u{301}x"])
        #expect(index.highlights(of: 0, for: sub("ann")) == [2..<5])
        // The emoji is one scalar (two UTF-16 units, four UTF-8 bytes).
        #expect(index.highlights(of: 1, for: sub("AB")) == [2..<4])
        #expect(index.highlights(of: 2, for: sub("ál")) == [5..<7])
        // Combining accent: a separate scalar, not folded.
        #expect(index.highlights(of: 3, for: sub("x")) == [2..<3])
        #expect(index.highlights(of: 0, for: sub("zzz")) == [])
        #expect(index.highlights(of: 9, for: sub("a")) == [])
    }

    @Test func scorePrefersWordStartThenEarlierPosition() {
        let index = SearchIndex(texts: ["foobar", "foo bar", "bar foo", "foo-bar", "fooBar", "x bar"])
        let q = sub("bar")
        #expect(index.score(of: 2, for: q) == 1100)       // text start
        #expect(index.score(of: 1, for: q) == 1096)       // after whitespace, position 4
        #expect(index.score(of: 3, for: q) == 896)        // after '-', position 4
        #expect(index.score(of: 4, for: q) == 797)        // camel hump, position 3
        #expect(index.score(of: 0, for: q) == 97)         // mid-word, position 3
        let ranked = index.search(sub("bar", order: .score), among: nil).map(\.index)
        #expect(ranked == [2, 5, 1, 3, 4, 0])
    }
}
