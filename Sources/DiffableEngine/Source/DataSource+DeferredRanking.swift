/// The rows of a ranked section after its first ranked ones: every other
/// match, ranked on first use. A keystroke in a million-row list with a
/// 50-row window then scores only the texts that can still enter the top
/// rows (see `TopK`) instead of all matches, and sorts none of the rest.
struct DeferredRanking: Sendable {
    /// The section (full-snapshot index) and the flat index of its first item.
    let section: Int
    let start: Int
    /// The other matches, ascending flat indices (what `rest` ranks).
    let unranked: [Int]
    /// `unranked` ranked, as rows of the section (computed once, on use).
    let rest: DeferredRows
    let query: SearchQuery

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
    func deferRanking(of matches: SearchMatchSet, shown: [SearchHit], section: Int, start: Int,
                      query: SearchQuery, index: SearchIndex) -> DeferredRanking {
        let unranked = matches.indices(excluding: shown.map(\.index).sorted())
        let candidates = unranked
        let rest = DeferredRows(count: unranked.count) {
            index.rank(candidates, for: query).map { Int32(truncatingIfNeeded: $0.index - start) }
        }
        return DeferredRanking(section: section, start: start, unranked: unranked, rest: rest, query: query)
    }
}

extension DataSource {
    /// Where the window's top row (row `oldStart` of `oldVisible`) is after a
    /// search changed the visible list: its flat index in the new list, or
    /// `.some(nil)` when the search hid it; nil when this cannot tell
    /// (outlines, the placeholder) and the caller looks it up by id.
    ///
    /// Both lists filter the same full snapshot, so the row is followed by
    /// its place in the full snapshot (`oldCache`'s row source) instead of
    /// comparing ids down the new list: a keystroke whose old top row is no
    /// longer a match costs a binary search, not a scan of a million ids
    /// that would also rank every deferred match.
    /// - Complexity: O(ranked rows of its section + log matches); ranks the
    ///   deferred rows only when the row is one of them.
    func searchAnchor(old oldCache: SearchCache, oldVisible: Snapshot, oldStart: Int) -> Int?? {
        guard outline.isEmpty, oldVisible.sections.count == snapshot.sections.count,
              visible.sections.count == snapshot.sections.count,
              let (s, oldRow) = FlatLayout(oldVisible).position(of: oldStart), let oldRow else { return nil }
        var sectionStart = 0
        for section in snapshot.sections[..<s] { sectionStart += section.items.count }
        let flat: Int
        if let source = oldCache.rowSource(section: s, row: oldRow) {
            flat = source
        } else if oldCache.rowSources[s] == nil {
            flat = sectionStart + oldRow
        } else {
            return nil
        }
        guard flat >= 0 else { return nil }  // the placeholder
        let layout = FlatLayout(visible)
        guard let rows = searchCache.rowSources[s] else {
            return .some(layout.index(of: ItemPath(section: s, row: flat - sectionStart)))
        }
        if let r = rows.firstIndex(of: flat) { return .some(layout.index(of: ItemPath(section: s, row: r))) }
        guard let deferred = searchCache.deferred, deferred.section == s else { return .some(nil) }
        var low = 0, high = deferred.unranked.count
        while low < high {
            let mid = (low + high) / 2
            if deferred.unranked[mid] < flat { low = mid + 1 } else { high = mid }
        }
        guard low < deferred.unranked.count, deferred.unranked[low] == flat else { return .some(nil) }
        guard let k = deferred.rankedFlat.firstIndex(of: flat) else { return .some(nil) }
        return .some(layout.index(of: ItemPath(section: s, row: rows.count + k)))
    }
}
