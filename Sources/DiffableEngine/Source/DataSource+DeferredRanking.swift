import Synchronization

/// The rows of a ranked section after its first ranked ones: every other
/// match, ranked on first use. A keystroke in a million-row list with a
/// 50-row window then scores only the texts that can still enter the top
/// rows (see `TopK`) instead of all matches, and sorts none of the rest.
struct DeferredRanking: Sendable {
    /// The section (full-snapshot index) and the flat index of its first item.
    let section: Int
    let start: Int
    /// The other matches, ascending flat indices (what `rest` ranks),
    /// listed on first use.
    let others: DeferredIndices
    /// `unranked` ranked, as rows of the section (computed once, on use).
    let rest: DeferredRows
    let query: SearchQuery

    /// The other matches, ascending flat indices (listing them the first
    /// time: O(matches)).
    var unranked: [Int] { others.indices }

    /// The rest's flat indices, in ranking order (ranks them if needed).
    var rankedFlat: [Int] { rest.rows.map { start + Int($0) } }
}

extension SearchCache {
    /// Flat index of visible row `row` of section `s` (nil: the section is
    /// unfiltered, or `row` is out of range); reaching a deferred row ranks
    /// the rest.
    func rowSource(section s: Int, row: Int) -> Int? {
        guard let rows = rowSources[s] else { return nil }
        if rows.indices.contains(row) { return rows[row] }
        guard let deferred, deferred.section == s, row >= rows.count, row - rows.count < deferred.rest.count else { return nil }
        return deferred.start + deferred.rest.row(row - rows.count)
    }

    /// Row sources with deferred rows ranked and appended.
    /// - Complexity: O(1) without deferred rows; else O(rows), plus ranking
    ///   them the first time.
    var completedRowSources: [Int: [Int]] {
        guard let deferred else { return rowSources }
        var rows = rowSources
        rows[deferred.section, default: []] += deferred.rankedFlat
        return rows
    }

    /// Number of visible rows of section `s` given by row sources
    /// (placeholder included), deferred ones counted.
    func rowCount(section s: Int) -> Int? {
        guard let rows = rowSources[s] else { return nil }
        return rows.count + (deferred?.section == s ? deferred?.rest.count ?? 0 : 0)
    }
}

extension DataSource {
    /// The matches not in `shown` (the best ones), to be ranked on first use.
    /// - Complexity: O(matches + shown log shown)
    /// Neither is listed before a row past the shown ones is read: an
    /// answer whose window stays within the shown rows (every keystroke,
    /// every batch of a list streaming in) costs nothing per match here.
    /// - Complexity: O(shown log shown); O(matches) on first use.
    func deferRanking(of matches: SearchMatchSet, shown: [SearchHit], section: Int, start: Int,
                      query: SearchQuery, index: SearchIndex) -> DeferredRanking {
        let excluded = shown.map(\.index).sorted()
        // The shown hits are distinct matches.
        let others = DeferredIndices(count: matches.count - excluded.count) { matches.indices(excluding: excluded) }
        let rest = DeferredRows(count: others.count) {
            index.rank(others.indices, for: query).map { Int32(truncatingIfNeeded: $0.index - start) }
        }
        return DeferredRanking(section: section, start: start, others: others, rest: rest, query: query)
    }
}

/// Indices computed on first use, once (a `DeferredRanking`'s unranked
/// matches).
final class DeferredIndices: Sendable {
    /// How many indices the closure returns.
    let count: Int
    private let state: Mutex<(indices: [Int]?, compute: (@Sendable () -> [Int])?)>

    /// `compute` must return exactly `count` indices.
    init(count: Int, compute: @escaping @Sendable () -> [Int]) {
        self.count = count
        state = Mutex((nil, compute))
    }

    /// The indices (computed on the first call).
    /// - Complexity: the closure's cost once, then O(1).
    var indices: [Int] {
        state.withLock { state in
            if let indices = state.indices { return indices }
            let indices = state.compute?() ?? []
            assert(indices.count == count, "deferred indices: \(indices.count) computed, \(count) announced")
            state.indices = indices
            state.compute = nil
            return indices
        }
    }
}
