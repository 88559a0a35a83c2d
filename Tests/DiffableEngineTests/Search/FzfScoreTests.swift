import Testing
@testable import DiffableEngine

/// fzf's scores worked out by hand from its algorithm (v2, fzf 0.38), for
/// the behaviours that differ from a best-alignment search.
@Suite struct FzfScoreTests {
    func score(_ text: String, _ query: String, scheme: SearchScheme = .default) -> Int? {
        SearchIndex(texts: [text]).score(of: 0, for: SearchQuery(text: query, mode: .fuzzy, scheme: scheme))
    }

    /// Row 0 restarts at every occurrence of the first char: in `ava c` the
    /// second `a` (16) replaces the carried 33, so `c` scores 13 + 16 + 10 =
    /// 39, though `a`…`c` from the start would be 36 − 5 + 26 = 57. In
    /// `avp/c`: 36 − 3 − 1 − 1 + 16 + 9 = 56.
    @Test func firstRowRestarts() {
        #expect(score("ava c", "ac") == 39)
        #expect(score("avp/c", "ac") == 56)
        #expect(score("Ava Chloe Lee", "ac") == 39)
        #expect(score("app/core/header.ts", "ac") == 56)
    }

    /// Scores never drop below 0: after 40 unmatched chars the first char's
    /// 36 is forgotten and `c` scores 0 + 16.
    @Test func gapsClampAtZero() {
        #expect(score("a" + String(repeating: "b", count: 40) + "c", "ac") == 16)
        #expect(score("a" + String(repeating: "b", count: 10) + "c", "ac") == 36 - 3 - 9 + 16)
    }

    /// One char: the first occurrence with a boundary bonus wins (after `-`,
    /// 8: 32) over a later better one (after a space, 10: 36).
    @Test func oneCharTakesTheFirstBoundary() {
        #expect(score("-x x", "x") == 32)
        #expect(score("ax x", "x") == 36)
        #expect(score("x", "x") == 36)
    }

    /// A delimiter counts as a word char for boundaries but earns nothing
    /// itself after a letter; other punctuation earns 8.
    @Test func delimiterBonuses() {
        #expect(score("ab/", "/") == 16)
        #expect(score("a./", "/") == 32)
        #expect(score("a /", "/") == 36)
        #expect(score("a/b", "b") == 34)
        #expect(score("a-b", "b") == 32)
    }

    /// A run keeps its first char's bonus (at least 4); a boundary better
    /// than it starts a new run.
    @Test func runs() {
        #expect(score("abc", "abc") == 36 + 26 + 26)
        #expect(score("xabc", "abc") == 16 + 20 + 20)
        // `a` after `-` (8) after a gap (−3); `b` carries the run's 8.
        #expect(score("x-abc", "xab") == 36 - 3 + (16 + 8) + (16 + 8))
        // `o` (16, first char, bonus 0), `o` (16 + 4), `B` camel 7 > 4 but
        // below a boundary, so the run's bonus is max(7, 4, 0) = 7.
        #expect(score("fooBar", "ooB") == 16 + 20 + 23)
    }

    /// Schemes: `path` gives a space boundary 8 and the text start 9;
    /// `history` gives every boundary 8.
    @Test func schemes() {
        #expect(score("a b", "b", scheme: .path) == 32)
        #expect(score("b", "b", scheme: .path) == 34)
        #expect(score("a/b", "b", scheme: .history) == 32)
        #expect(score("b", "b", scheme: .history) == 32)
    }

    /// Smart case with normalization: an uppercase query without accents
    /// still matches accented letters (`Ü` normalizes to `U`); a query with
    /// an accent matches only that letter (any case when lowercase).
    @Test func caseAndAccents() {
        #expect(score("Über", "Ub") != nil)
        #expect(score("uber", "Ub") == nil)
        #expect(score("Über", "ub") != nil)
        #expect(score("uber", "üb") == nil)
        #expect(score("Über", "üb") != nil)
        #expect(score("über", "Üb") == nil)
    }
}
