import Testing
@testable import DiffableEngine

/// A chain's per-term tables hold a score, a run bound or a loose bound
/// per text; a scan reads the tightest it may trust.
@Suite struct TermScoresTests {
    static func tables(_ count: Int) -> (TermScores, SetScoreTables) {
        let scores = TermScores()
        let query = FzfQuery("swift core", fuzzy: true)
        return (scores, SetScoreTables(scores.tables(for: query, scheme: .default, forward: true, count: count)))
    }

    /// A loose bound is read as a bound, but not as a run bound, so the
    /// text is still run-bounded before it is scored; the run bound then
    /// replaces it, and a score replaces both.
    @Test func aLooseBoundGivesWayToTheRunBoundAndTheScore() {
        let (scores, tables) = Self.tables(4)
        defer { tables.deallocate(); _ = scores }
        #expect(tables.bound(set: 0, id: 1) == nil)
        tables.record(set: 0, id: 1, looseBound: 150)
        #expect(tables.bound(set: 0, id: 1) == 150)
        #expect(tables.runBound(set: 0, id: 1) == nil)
        #expect(tables.score(set: 0, id: 1) == nil)
        // A second loose bound does not overwrite the first.
        tables.record(set: 0, id: 1, looseBound: 170)
        #expect(tables.bound(set: 0, id: 1) == 150)
        tables.record(set: 0, id: 1, bound: 120)
        #expect(tables.bound(set: 0, id: 1) == 120)
        #expect(tables.runBound(set: 0, id: 1) == 120)
        #expect(tables.score(set: 0, id: 1) == nil)
        // A loose bound never replaces a run bound.
        tables.record(set: 0, id: 1, looseBound: 100)
        #expect(tables.runBound(set: 0, id: 1) == 120)
        tables.record(set: 0, id: 1, score: 96)
        #expect(tables.score(set: 0, id: 1) == 96)
        #expect(tables.bound(set: 0, id: 1) == 96)
        // Texts and sets are apart.
        #expect(tables.bound(set: 0, id: 2) == nil)
        #expect(tables.bound(set: 1, id: 1) == nil)
    }

    /// A score with the loose flag's bit set is still a score.
    @Test func aLargeScoreIsNotALooseBound() {
        let (scores, tables) = Self.tables(2)
        defer { tables.deallocate(); _ = scores }
        let large = Int(TermScores.looseFlag) + 5
        tables.record(set: 0, id: 0, score: large)
        #expect(tables.score(set: 0, id: 0) == large)
        #expect(tables.bound(set: 0, id: 0) == large)
        #expect(tables.runBound(set: 0, id: 0) == large)
        // Bounds that do not fit beside the flags are not kept.
        tables.record(set: 0, id: 1, looseBound: large)
        tables.record(set: 0, id: 1, bound: large)
        #expect(tables.bound(set: 0, id: 1) == nil)
    }
}
