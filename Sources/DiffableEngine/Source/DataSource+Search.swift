import Synchronization
/// What a source's search shows: the query, the sections it filters, and the
/// placeholder row shown when nothing matches.
public struct SearchSettings: Equatable, Sendable {
    /// Text, mode, order and limit. An empty text shows everything.
    public var query: SearchQuery
    /// The ids of the sections the query filters; `nil` = every section.
    /// Other sections are shown unfiltered.
    public var scope: [String]?
    /// Shown as the only row of the first scoped section when the query
    /// matches nothing in any scoped section.
    public var placeholder: Item?
    /// The fields searched instead of the items' text (fzf's `--nth`); the
    /// query is then `fielded`.
    public var fields: SearchFields? {
        didSet { query.fielded = fields != nil }
    }

    public init(query: SearchQuery, scope: [String]? = nil, placeholder: Item? = nil, fields: SearchFields? = nil) {
        self.query = query
        self.scope = scope
        self.placeholder = placeholder
        self.fields = fields
        self.query.fielded = fields != nil
    }

    /// Whether these settings hide anything.
    public var isActive: Bool { !query.text.isEmpty }
}

extension DataSource {
    /// The current search, if any.
    public var searchSettings: SearchSettings? { search }

    /// The id of the placeholder an active search may show: the daemon's
    /// row, not an item of the snapshot (never echoed away, never in the
    /// outline).
    public var placeholderID: String? { search?.isActive == true ? search?.placeholder?.id : nil }

    /// Shows `settings` (or everything, for `nil`): the result is the diff of
    /// the visible snapshot. The version goes up when the visible list changed.
    /// - Complexity: O(n) for the first query after a snapshot change (the
    ///   index is built), then O(m) for a query that narrows the previous
    ///   one (m = previous matches) or O(n) otherwise, plus O(v) to diff the
    ///   visible snapshots (v = visible rows, bounded by the limit in the
    ///   scoped sections).
    public mutating func setSearch(_ settings: SearchSettings?) -> Update {
        let oldVisible = visible
        let oldCache = searchCache
        search = settings
        // Texts of other fields are other texts: nothing kept applies.
        if let settings { searchCache.key(fields: settings.fields) }
        visible = computeVisible()
        prebuildSearchIndexIfIdle()
        prebuildPartialSampleIfIdle()
        let changeset: Changeset
        let windowUpdate: WindowUpdate?
        if window != nil {
            // The frontend holds only its window: no whole-list diff is
            // needed (the window finds its top row by id). The visible list
            // changed when a filtered section's rows, or the placeholder, did.
            changeset = Changeset()
            if visibleChanged(old: oldCache, new: searchCache, oldVisible: oldVisible, newVisible: visible) {
                version += 1
            }
            // A window the request placed (`viewport` with the search) is pinned: no anchor.
            let anchor = window.flatMap {
                $0.pinned || $0.rows.isEmpty ? nil : searchAnchor(old: oldCache, oldVisible: oldVisible, oldStart: $0.start)
            }
            windowUpdate = windowAfter(changeset: nil, oldVisible: oldVisible, mayScan: true, anchor: anchor)
        } else {
            // Both visible snapshots filter the same full snapshot, so rows are
            // compared by their flat index: no id hashing, O(rows of the filtered
            // sections) instead of a general diff.
            changeset = filteredChangeset(oldRows: oldCache.completedRowSources, old: oldVisible)
                ?? oldVisible.difference(to: visible)
            // Debug builds prove every search diff: replayed on the old visible
            // snapshot it must give the new one (O(rows); not evaluated in -O).
            assert((try? oldVisible.applyingBatch(changeset, contentFrom: visible)) == visible,
                   "search diff does not replay to the new visible snapshot")
            if !changeset.isEmpty { version += 1 }
            windowUpdate = nil
        }
        // Hidden items keep their selection: nothing is deselected by a search.
        return Update(changeset: changeset, oldVisible: oldVisible, newVisible: visible, selection: SelectionDelta(),
                      window: windowUpdate)
    }

    /// Whether two visible snapshots of this full snapshot differ: a
    /// section's rows (a section without row sources shows all its items),
    /// or the placeholder shown in the same place.
    ///
    /// Deferred rows are compared without ranking them: another count,
    /// another ranked prefix, another set of other matches or another query
    /// is a change; the same prefix and set for the same query is none. (The
    /// same prefix and set under another query counts as a change even when
    /// the rest keeps its order: deciding would rank both rests.)
    /// - Complexity: O(rows of the filtered sections), compared as integers.
    func visibleChanged(old oldCache: SearchCache, new newCache: SearchCache, oldVisible old: Snapshot,
                        newVisible new: Snapshot) -> Bool {
        var oldRows = oldCache.rowSources, newRows = newCache.rowSources
        for s in Set([oldCache.deferred?.section, newCache.deferred?.section].compactMap { $0 }) {
            if oldCache.rowCount(section: s) != newCache.rowCount(section: s) { return true }
            let a = oldCache.deferred, b = newCache.deferred
            if let a, let b, a.section == s, b.section == s, oldRows[s]?.count == newRows[s]?.count {
                if oldRows[s] != newRows[s] || a.unranked != b.unranked { return true }
                // Another query over the same rows may order the rest
                // otherwise; proving it does not would rank every match
                // twice, the cost a window avoids: it
                // counts as a change.
                if a.query != b.query { return true }
                oldRows[s] = nil; newRows[s] = nil
                continue
            }
            oldRows[s] = oldCache.completedRowSources[s]
            newRows[s] = newCache.completedRowSources[s]
        }
        var start = 0
        for (s, section) in snapshot.sections.enumerated() {
            defer { start += section.items.count }
            let a = oldRows[s], b = newRows[s]
            if a == nil && b == nil { continue }
            // A side without row sources is rows start ..< start + count.
            func key(_ rows: [Int]?, _ i: Int) -> Int { rows?[i] ?? start + i }
            let count = a?.count ?? section.items.count
            guard count == (b?.count ?? section.items.count) else { return true }
            for i in 0..<count where key(a, i) != key(b, i) { return true }
            if a == [SearchCache.placeholderKey], old.sections.indices.contains(s), new.sections.indices.contains(s),
               old.sections[s].items.first != new.sections[s].items.first { return true }
        }
        return false
    }

    /// How many items of the scoped sections match the current query
    /// (before `limit`); nil without an active search.
    public var searchMatchCount: Int? {
        guard let search, search.isActive else { return nil }
        if let partial = searchCache.partialMatchCount { return partial }
        if let matches = searchCache.matches { return matches.count }
        // An unranked search carried through an edit keeps no match set
        // (`visibleThroughEdit`); with no limit on a flat list, the rows
        // shown are the matches.
        guard search.query.limit == nil, outline.isEmpty else { return 0 }
        return searchShownCount
    }

    /// How many rows of the scoped sections are visible (at most `limit`);
    /// nil without an active search.
    public var searchShownCount: Int? {
        guard let search, search.isActive else { return nil }
        let deferred = searchCache.deferred?.rest.count ?? 0
        // Counted in place (no filtered copy of a million row numbers); the
        // rows of sections outside the scope are not the search's.
        return deferred + searchCache.rowSources.reduce(0) { total, entry in
            isSearched(section: entry.key) ? entry.value.reduce(total) { $0 + ($1 >= 0 ? 1 : 0) } : total
        }
    }

    /// Whether the active search filters visible section `s` (it is in the
    /// search's scope). - Complexity: O(scope)
    public func isSearched(section s: Int) -> Bool {
        guard let search, search.isActive, visible.sections.indices.contains(s) else { return false }
        guard let scope = search.scope else { return true }
        let id = visible.sections[s].id
        return scope.contains(id)
    }

    /// The highlighted scalar ranges of the visible row at `path` (empty when
    /// the row is not filtered by the search or nothing is highlighted).
    /// - Complexity: O(L × query length) for a text of length L.
    public func highlights(at path: ItemPath) -> [Range<Int>] {
        if searchCache.fields != nil { return fieldHighlights(at: path).map(\.range) }
        return joinedHighlights(at: path).ranges
    }

    /// The highlighted ranges of the visible row at `path`, each with the
    /// index of the field it is in (`SearchSettings.fields`) and in scalar
    /// offsets of that field's text; without fields, field 0 and offsets in
    /// the item's text.
    /// - Complexity: O(L × query length) for a text of length L.
    public func fieldHighlights(at path: ItemPath) -> [(field: Int, range: Range<Int>)] {
        let (ranges, text) = joinedHighlights(at: path)
        guard searchCache.fields != nil else { return ranges.map { (0, $0) } }
        guard let text else { return [] }
        return SearchFields.split(ranges, in: text)
    }

    /// The highlights of the row at `path` in its search text, and that
    /// text when the search has fields (what splits them by field).
    private func joinedHighlights(at path: ItemPath) -> (ranges: [Range<Int>], text: String?) {
        guard let search, search.isActive, isSearched(section: path.section),
              let flat = searchCache.rowSource(section: path.section, row: path.row), flat >= 0 else { return ([], nil) }
        if searchCache.pendingSplice == nil && searchCache.partialMatchCount == nil {
            guard let index = searchCache.index else { return ([], nil) }
            let ranges = index.highlights(of: flat, for: search.query)
            return (ranges, ranges.isEmpty || searchCache.fields == nil ? nil : index.text(at: flat))
        }
        // The index waits for the next search to splice an edit in, so its
        // positions are stale (or a partial answer leaves the index to the
        // exact search running on a copy): read the row's own text.
        guard visible.sections.indices.contains(path.section),
              visible.sections[path.section].items.indices.contains(path.row) else { return ([], nil) }
        let text = searchCache.text(of: visible.sections[path.section].items[path.row])
        return (SearchIndex(texts: [text]).highlights(of: 0, for: search.query), text)
    }

    /// Starts building the search index in the background when the source
    /// has a search field with nothing typed in it, no index, and enough
    /// items for the build to be felt (see `BackgroundBuild`).
    mutating func prebuildSearchIndexIfIdle() {
        guard let search, !search.isActive, searchCache.index == nil, searchCache.prebuild == nil,
              snapshot.itemCount >= BackgroundBuilds.minimumItems else { return }
        let snapshot = snapshot
        // The first keystroke with a placeholder also asks whether its id is
        // an item (a scan of every id): answer that meanwhile too.
        let memo = searchCache.itemMemo, placeholderID = search.placeholder?.id
        let fuzzy = search.query.mode == .fuzzy
        let fields = searchCache.fields
        searchCache.prebuild = BackgroundBuild {
            if let placeholderID {
                _ = memo.isItem(placeholderID) { Self.hasItem(placeholderID, in: snapshot) }
            }
            return SearchIndex(snapshot: snapshot, bonusMasks: fuzzy, fields: fields)
        }
    }

    /// Rebuilds the visible snapshot for the current full snapshot and search.
    mutating func computeVisible() -> Snapshot {
        searchCache.deferred = nil
        searchCache.partialMatchCount = nil
        guard let search, search.isActive else {
            searchCache.rowSources = outline.isEmpty ? [:] : expandedRowSources(except: [])
            return visibleSnapshot(searchCache.rowSources)
        }
        searchCache.applyPendingSplice()
        if searchCache.index == nil {
            searchCache.adopt(searchCache.prebuild?.value()
                              ?? SearchIndex(snapshot: snapshot, bonusMasks: search.query.mode == .fuzzy,
                                             fields: searchCache.fields), of: snapshot)
        }
        // Only fuzzy ranking reads the bonus masks: an index built for
        // substring queries gets them from the first fuzzy one.
        if search.query.mode == .fuzzy { searchCache.index?.trackBonusMasks() }
        searchCache.adoptMovedMatches()
        guard let index = searchCache.index else { return snapshot }
        // Stopped while it waited for the index (keys typed while a large
        // list's index is built): its answer is discarded, so no scan is
        // prepared; what is shown stays.
        if search.query.stop?.isStopped == true { return visible }
        let starts = searchCache.sectionStarts
        let scoped = scopedSections(search.scope)

        // Narrowing: a query that refines a recent one (same scope) only
        // re-examines that one's matches (their compacted copy); the same
        // query again (a Backspace) reuses its matches.
        let recent = searchCache.recent.base(for: search.query, scope: search.scope)
        // Without one, the newest set still lends its storage pool.
        let previous = recent.set ?? searchCache.recent.newest.flatMap { $0.scope == search.scope ? $0.matches : nil }
        var candidates: [Int]?
        var candidateRange: Range<Int>?
        if recent.set != nil {
            candidates = nil
        } else if scoped.count < snapshot.sections.count {
            // Consecutive scoped sections are one range of the index (the
            // usual single searched section): no list of its positions.
            let inRange = scoped.filter { $0 + 1 < starts.count }
            if let first = inRange.first, let last = inRange.last, last - first + 1 == inRange.count {
                candidateRange = starts[first]..<starts[last + 1]
            } else {
                var flat: [Int] = []
                for s in inRange { flat.append(contentsOf: starts[s]..<starts[s + 1]) }
                candidates = flat
            }
        }
        // With a viewport, an unlimited ranked search of one flat section
        // ranks only the rows the window can reach now (its end, plus two
        // windows of scrolling); the others are ranked when first read.
        var rankOnly: Int?
        if let viewport = window?.viewport, search.query.order == .score, search.query.limit == nil,
           outline.isEmpty, scoped.count == 1 {
            rankOnly = viewport.start + 3 * viewport.count
        }
        // In source order without a limit the hits are the matches, in
        // index order: nothing is scored (a first letter matches a third of
        // a million rows, and scoring them was most of the keystroke).
        let unranked = search.query.order == .source && search.query.limit == nil
        let result: NarrowingResult
        if unranked, recent.isSameQuery, let same = recent.set {
            result = NarrowingResult(hits: [], matches: same.reused(for: search.query))
        } else if let rankOnly, recent.isSameQuery, let same = recent.set,
                  let reranked = index.reranking(search.query, from: same, rankOnly: rankOnly) {
            // The same ranked query (a list appended to, a Backspace): its
            // window's hits and the matches added since are all it ranks.
            result = reranked
        } else {
            result = index.evaluate(search.query, narrowing: previous, among: candidates, within: candidateRange,
                                    rankOnly: rankOnly, scoring: !unranked, pool: searchCache.pool,
                                    recent: searchCache.recent)
        }
        searchCache.recent.remember(result.matches, scope: search.scope, base: recent.set)
        searchCache.deferred = nil

        let shown = unranked ? result.matches.indices : result.hits.map(\.index)
        var rowSources: [Int: [Int]] = [:]
        if scoped.count == 1, let s = scoped.first {
            rowSources[s] = shown
        } else {
            for s in scoped { rowSources[s] = [] }
            for index in shown {
                rowSources[section(ofFlat: index, starts: starts)]?.append(index)
            }
        }
        if rankOnly != nil, let s = scoped.first, result.matches.count > result.hits.count {
            // Rows ranked later, when read, are ranked whole: a stop
            // signal ends only this keystroke's scan.
            var unstoppable = search.query
            unstoppable.stop = nil
            searchCache.deferred = deferRanking(of: result.matches, shown: result.hits, section: s,
                                                start: starts[s], query: unstoppable, index: index)
        }
        if !outline.isEmpty {
            // A match is shown with its ancestors (expanded for the search
            // only), in tree order; unscoped sections follow the expansion.
            for s in scoped { rowSources[s] = withAncestors(rowSources[s] ?? [], section: s, start: starts[s]) }
            for (s, rows) in expandedRowSources(except: Set(scoped)) { rowSources[s] = rows }
        }
        if shown.isEmpty, search.placeholder != nil, let first = scoped.first,
           snapshot.sections.indices.contains(first) {
            rowSources[first] = [SearchCache.placeholderKey]
        }
        searchCache.rowSources = rowSources
        return visibleSnapshot(rowSources)
    }

    /// The full snapshot with the sections named in `rowSources` cut down to
    /// those flat rows (`placeholderKey`: the search placeholder).
    /// - Complexity: O(sections + listed rows), integers only.
    func visibleSnapshot(_ rowSources: [Int: [Int]]) -> Snapshot {
        guard !rowSources.isEmpty else { return snapshot }
        var sections = snapshot.sections
        var start = 0
        for s in sections.indices {
            defer { start += snapshot.sections[s].items.count }
            guard let rows = rowSources[s] else { continue }
            let items = snapshot.sections[s].items
            if rows == [SearchCache.placeholderKey], let placeholder = search?.placeholder, !containsItem(placeholder.id) {
                sections[s].items = [placeholder]
                continue
            }
            // A row map, not copies: O(rows) integers (see `ItemList+Mapped`).
            let rest = searchCache.deferred?.section == s ? searchCache.deferred?.rest : nil
            sections[s].items = ItemList(rows: rows, offset: start, of: items, rest: rest)
        }
        return Snapshot(sections: sections)
    }

    /// Items of the sections `scope` names (nil: all), in the full snapshot
    /// or, with `visible`, shown now. - Complexity: O(sections)
    public func itemCount(inScope scope: [String]?, visible inVisible: Bool) -> Int {
        let sections = inVisible ? visible.sections : snapshot.sections
        guard let scope else { return sections.reduce(0) { $0 + $1.items.count } }
        let wanted = Set(scope)
        return sections.reduce(0) { wanted.contains($1.id) ? $0 + $1.items.count : $0 }
    }

    /// Indices of the scoped sections, ascending (unknown ids are ignored).
    func scopedSections(_ scope: [String]?) -> [Int] {
        guard let scope else { return Array(snapshot.sections.indices) }
        let wanted = Set(scope)
        return snapshot.sections.indices.filter { wanted.contains(snapshot.sections[$0].id) }
    }

    /// Whether the full snapshot has an item with this id.
    /// - Complexity: O(items) the first time an id is asked about after a
    ///   snapshot change, then O(1) while the same id is asked again.
    public func containsItem(_ id: String) -> Bool {
        searchCache.itemMemo.isItem(id) { Self.hasItem(id, in: snapshot) }
    }

    /// Whether `snapshot` has an item `id`. - Complexity: O(items)
    static func hasItem(_ id: String, in snapshot: Snapshot) -> Bool {
        snapshot.sections.contains { $0.items.firstIndex(ofID: id) != nil }
    }

    /// The section holding flat position `flat` (in `0..<starts.last`).
    func section(ofFlat flat: Int, starts: [Int]) -> Int {
        // Last section whose start is <= flat (sections may be empty).
        var low = 0, high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= flat { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
