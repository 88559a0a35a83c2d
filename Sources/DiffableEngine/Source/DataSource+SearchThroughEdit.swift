/// An unranked search kept through a small `edit` without searching again.
///
/// In a people picker at a million rows, Enter moves the person under the
/// cursor while "mi" filters the list: an `edit` of two items. Searching
/// again would splice the index (one copy of every text) and scan it to
/// find what the edit already says: in source order without
/// a limit, the rows shown are exactly the matches in source order, so the
/// rows shown after the edit are the rows shown before it, moved through the
/// edit (`IndexSplice.translating`), less the removed ones, plus the
/// inserted items that match (matched one by one). The index splice waits
/// for the next search that reads the index. The current query's match
/// set is moved through the edit too (`SearchMatchSet.translated`, in the
/// background), so the next keystroke narrows it instead of scanning from
/// scratch.
///
/// Cost: O(rows shown + changes + inserted texts), integers only.
extension DataSource {
    /// Makes `newFull` the snapshot and returns the new visible snapshot,
    /// keeping what the search can keep: after a small edit (`changes`, its
    /// changeset) the index and the placeholder answer (`carried`), the
    /// rows of an unranked search and its current match set (moved through
    /// the edit); in every case the match-set storage pool. Starts the
    /// background work the new state calls for (see `BackgroundBuild`).
    mutating func replaceSnapshot(with newFull: Snapshot, changes: Changeset?) -> Snapshot {
        var carried: SearchCache?
        var oldRowSources: [Int: [Int]]?
        var oldMatches: (scope: [String]?, matches: SearchMatchSet)?
        if let changes {
            searchCache.adoptFinishedPrebuild(of: snapshot)
            carried = searchCache.carried(over: changes, from: snapshot, to: newFull)
            if carried != nil {
                oldRowSources = searchCache.deferred == nil ? searchCache.rowSources : nil
                searchCache.adoptMovedMatches()
                oldMatches = searchCache.recent.newest
            }
        }
        snapshot = newFull
        let pool = searchCache.pool
        searchCache = carried ?? SearchCache()
        searchCache.pool = pool
        if carried == nil { searchCache.fields = search?.fields }
        var visible = carried == nil ? nil : visibleThroughEdit(oldRowSources: oldRowSources, oldMatches: oldMatches)
        if visible == nil {
            // A ranked search is searched again, narrowing the current
            // query's matches moved through the edit instead of scanning
            // the whole list (a list streaming in: the old matches plus the
            // matching new texts).
            if carried != nil { moveMatchesThroughEdit(oldMatches) }
            visible = computeVisible()
        }
        prebuildSearchIndexIfIdle()
        prebuildPartialSampleIfIdle()
        // A source with a search field (typed in or not) splices in the
        // background: the next keystroke then finds the index ready.
        if search != nil && searchCache.index != nil && snapshot.itemCount >= BackgroundBuilds.minimumItems {
            searchCache.startSplicing()
        }
        return visible ?? snapshot
    }

    /// The visible snapshot after a carried edit (`searchCache.lastSplice`),
    /// from the row sources shown before it, or nil when the search ranks,
    /// limits, defers or follows an outline (the caller then searches).
    /// `oldMatches`: the newest match set before the edit, moved through it
    /// too when it is the current query's (the next keystroke narrows it).
    mutating func visibleThroughEdit(oldRowSources: [Int: [Int]]?,
                                     oldMatches: (scope: [String]?, matches: SearchMatchSet)?) -> Snapshot? {
        guard let search, search.isActive, search.query.order == .source, search.query.limit == nil,
              outline.isEmpty, let oldRowSources, let splice = searchCache.lastSplice,
              searchCache.sectionStarts.count == snapshot.sections.count + 1 else { return nil }
        let starts = searchCache.sectionStarts
        let scoped = scopedSections(search.scope)
        // Every scoped section lists its rows (the placeholder stands for none).
        guard !scoped.isEmpty, Set(oldRowSources.keys) == Set(scoped) else { return nil }

        let matchingEntries = insertedMatches(of: splice, query: search.query, scoped: scoped, starts: starts)
        let matching = matchingEntries.map(\.at)

        var rowSources: [Int: [Int]] = [:]
        var shownAny = false
        var next = 0  // into `matching`, ascending like the sections
        for s in scoped {
            let rows = oldRowSources[s] ?? []
            guard let kept = splice.translating(rows == [SearchCache.placeholderKey] ? [] : rows) else { return nil }
            var added: [Int] = []
            while next < matching.count && matching[next] < starts[s + 1] {
                if matching[next] >= starts[s] { added.append(matching[next]) }
                next += 1
            }
            let merged = added.isEmpty ? kept : (kept + added).sorted()
            shownAny = shownAny || !merged.isEmpty
            rowSources[s] = merged
        }
        if !shownAny, search.placeholder != nil, let first = scoped.first {
            rowSources[first] = [SearchCache.placeholderKey]
        }
        // Copying the set's texts costs about what the rest of the edit
        // does: done in the background, taken by the next search
        // (`SearchCache.adoptMovedMatches`).
        moveMatches(oldMatches, through: splice, inserted: matchingEntries)
        searchCache.deferred = nil
        searchCache.rowSources = rowSources
        return visibleSnapshot(rowSources)
    }

}

extension DataSource {
    /// The inserted texts of a carried edit (`splice`) in the scoped
    /// sections that match `query`, ascending.
    ///
    /// An edit that only appends texts extends the index in place first and
    /// matches them there; other edits match them in an index of their own
    /// (the source's index is spliced later, in the background or by the
    /// next search).
    /// - Complexity: O(inserted texts' bytes)
    mutating func insertedMatches(of splice: IndexSplice, query: SearchQuery, scoped: [Int],
                                  starts: [Int]) -> [(at: Int, text: SplicedText)] {
        var inScope = [Bool](repeating: false, count: snapshot.sections.count)
        for s in scoped where inScope.indices.contains(s) { inScope[s] = true }
        let total = starts.last ?? 0
        let inserted = splice.inserted
        // The inserted entries in scope, by their place in `inserted` (their
        // texts are not copied until they match); every section in scope
        // needs no section lookup.
        let everySection = scoped.count == snapshot.sections.count
        var candidates: [Int] = []
        candidates.reserveCapacity(inserted.count)
        for k in inserted.indices {
            let at = inserted[k].at
            if at >= 0 && at < total && (everySection || inScope[section(ofFlat: at, starts: starts)]) {
                candidates.append(k)
            }
        }
        if searchCache.appendPendingTextsInPlace(), let index = searchCache.index, index.count == total {
            // Both ascending: each match is the next candidate at its place.
            var next = 0
            return index.matchingIndices(query, among: candidates.map { inserted[$0].at }).compactMap { at in
                while next < candidates.count && inserted[candidates[next]].at < at { next += 1 }
                return next < candidates.count && inserted[candidates[next]].at == at ? inserted[candidates[next]] : nil
            }
        }
        return SearchIndex(texts: candidates.map { inserted[$0].text.string }).matchingIndices(query, among: nil)
            .map { inserted[candidates[$0]] }
    }

    /// Moves `oldMatches` (the newest match set before the edit) through
    /// the edit when it is the current query's over the current scope:
    /// taken by the next search that reads it (`adoptMovedMatches`), which
    /// then narrows it instead of scanning the whole list.
    mutating func moveMatches(_ oldMatches: (scope: [String]?, matches: SearchMatchSet)?, through splice: IndexSplice,
                              inserted matching: [(at: Int, text: SplicedText)]) {
        guard let search, let oldMatches, oldMatches.scope == search.scope, oldMatches.matches.query == search.query
        else { return }
        let set = oldMatches.matches
        // The index, when the splice is in it, has the inserted texts.
        let index = searchCache.pendingSplice == nil ? searchCache.index : nil
        searchCache.movedMatches = (search.scope, BackgroundBuild {
            set.translated(through: splice, inserted: matching, index: index)
        })
    }

    /// `moveMatches` for a search that is searched again after the edit
    /// (ranked, limited): its inserted matches found here.
    /// - Complexity: O(inserted texts' bytes); the move itself runs when
    ///   the search takes it.
    mutating func moveMatchesThroughEdit(_ oldMatches: (scope: [String]?, matches: SearchMatchSet)?) {
        guard let search, search.isActive, outline.isEmpty, let splice = searchCache.lastSplice,
              let oldMatches, oldMatches.scope == search.scope, oldMatches.matches.query == search.query,
              searchCache.sectionStarts.count == snapshot.sections.count + 1 else { return }
        let scoped = scopedSections(search.scope)
        moveMatches(oldMatches, through: splice,
                    inserted: insertedMatches(of: splice, query: search.query, scoped: scoped, starts: searchCache.sectionStarts))
    }
}
