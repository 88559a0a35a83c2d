/// A ranked search with a window kept through an edit that only inserts,
/// without searching the whole list again.
///
/// A list streaming in (`appendItems` in batches while the user types)
/// under a ranked query with a viewport shows the best rows first and ranks
/// the rest on first read (`DeferredRanking`). Inserting items keeps the
/// order of the old ones (their scores and texts are unchanged, and indices
/// shift together), so an old match outside the best K shown rows still has
/// K better ones: the new best K are the best of the old K and the inserted
/// matches. Only those are ranked (their texts in a small index, in list
/// order, so ties fall as the full ranking breaks them); every other match
/// joins the deferred rest, ranked from its texts when first read. The old
/// match set moves through the edit in the background, as for an unranked
/// search, so the next keystroke narrows it.
///
/// Cost: O(K + inserted texts + deferred matches) integer steps, plus
/// matching the inserted texts and ranking K + their matches; the index
/// splice waits as for any carried edit.
extension DataSource {
    /// The visible snapshot after a carried edit that only inserted items,
    /// for a ranked unlimited search of one flat section with a window, or
    /// nil when the edit or the search is of another kind (the caller then
    /// searches). `oldRows`, `oldDeferred`: the section's shown rows and
    /// deferred rest before the edit.
    mutating func rankedVisibleThroughEdit(oldRows: [Int: [Int]], oldDeferred: DeferredRanking?,
                                           oldMatches: (scope: [String]?, matches: SearchMatchSet)?) -> Snapshot? {
        guard let search, search.isActive, search.query.order == .score, search.query.limit == nil,
              outline.isEmpty, let viewport = window?.viewport, let splice = searchCache.lastSplice,
              splice.removed.isEmpty, searchCache.sectionStarts.count == snapshot.sections.count + 1 else { return nil }
        let scoped = scopedSections(search.scope)
        guard scoped.count == 1, let s = scoped.first, oldRows.count == 1, let shownOld = oldRows[s],
              shownOld != [SearchCache.placeholderKey], oldDeferred.map({ $0.section == s }) ?? true
        else { return nil }
        let starts = searchCache.sectionStarts
        let start = starts[s]
        let section = start..<starts[s + 1]

        // The old rows and rest where the edit put them.
        guard let shownMoved = Self.translated(shownOld, through: splice) else { return nil }
        var restMoved: [Int] = []
        if let oldDeferred {
            guard let moved = splice.translating(oldDeferred.unranked) else { return nil }
            restMoved = moved
        }

        // The inserted texts of the section that match.
        let added = splice.inserted.filter { section.contains($0.at) }
        let addedMatches = SearchIndex(texts: added.map(\.text)).matchingIndices(search.query, among: nil)
            .map { added[$0] }

        // The best of the old shown rows and the inserted matches, ranked
        // among themselves in list order.
        let texts = SectionTexts(snapshot: snapshot, section: s, start: start, fields: searchCache.fields)
        let candidates = (shownMoved + addedMatches.map(\.at)).sorted()
        let ranked = SearchIndex(texts: candidates.map { texts.text(atFlat: $0) })
            .rank(Array(candidates.indices), for: search.query).map { candidates[$0.index] }
        guard ranked.count == candidates.count else { return nil }
        // With a rest, only the old rows' count is known to be the best
        // overall; without one, every match is here.
        let kept = oldDeferred == nil ? viewport.start + 3 * viewport.count : shownOld.count
        let shown = Array(ranked.prefix(kept))
        let unranked = Self.merged(restMoved, ranked.dropFirst(kept).sorted())

        searchCache.deferred = unranked.isEmpty ? nil
            : DeferredRanking(section: s, start: start, unranked: unranked,
                              rest: texts.deferredRows(unranked, query: search.query), query: search.query)
        if let oldMatches, oldMatches.scope == search.scope, oldMatches.matches.query == search.query {
            let set = oldMatches.matches
            searchCache.movedMatches = (search.scope, BackgroundBuild { set.translated(through: splice, inserted: addedMatches) })
        }
        var rowSources: [Int: [Int]] = [s: shown]
        if shown.isEmpty, search.placeholder != nil { rowSources[s] = [SearchCache.placeholderKey] }
        searchCache.rowSources = rowSources
        return visibleSnapshot(rowSources)
    }

    /// The ascending union of two ascending lists of distinct positions.
    /// - Complexity: O(a + b)
    static func merged(_ a: [Int], _ b: [Int]) -> [Int] {
        if b.isEmpty { return a }
        var out: [Int] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i] < b[j]) {
                out.append(a[i]); i += 1
            } else {
                out.append(b[j]); j += 1
            }
        }
        return out
    }

    /// `positions` (any order, distinct) after `splice`, in the same order;
    /// nil if one was removed.
    /// - Complexity: O(positions log positions + changes)
    static func translated(_ positions: [Int], through splice: IndexSplice) -> [Int]? {
        let ascending = positions.sorted()
        guard let moved = splice.translating(ascending), moved.count == ascending.count else { return nil }
        var to: [Int: Int] = [:]
        to.reserveCapacity(ascending.count)
        for (old, new) in zip(ascending, moved) { to[old] = new }
        var out: [Int] = []
        out.reserveCapacity(positions.count)
        for p in positions {
            guard let q = to[p] else { return nil }
            out.append(q)
        }
        return out
    }
}

/// The searched texts of one section of a snapshot, by flat index.
private struct SectionTexts: Sendable {
    let snapshot: Snapshot
    let section: Int
    let start: Int
    let fields: SearchFields?

    func text(atFlat flat: Int) -> String? {
        let items = snapshot.sections[section].items
        let row = flat - start
        guard row >= 0, row < items.count else { return nil }
        let item = items[row]
        return fields.map { $0.text(of: item) } ?? item.text
    }

    /// The rows of `flats` (ascending) ranked for `query`, computed on
    /// first read from their texts (in list order, so ties fall as in the
    /// full ranking).
    func deferredRows(_ flats: [Int], query: SearchQuery) -> DeferredRows {
        let texts = self
        return DeferredRows(count: flats.count) {
            SearchIndex(texts: flats.map { texts.text(atFlat: $0) }).rank(Array(flats.indices), for: query)
                .map { Int32(truncatingIfNeeded: flats[$0.index] - texts.start) }
        }
    }
}
