/// A ranked keystroke answered within a frame from a sample of the texts,
/// and the exact answer adopted after it (`search` with `progressive`).
///
/// On a million long, similar texts (a file system's paths) a query most
/// texts match can take several frames to rank exactly. A picker would
/// rather show the best rows it can find now and correct them a moment
/// later, as fzf's and nucleo's interactive modes do. The partial answer
/// ranks a sample of at most `partialSampleTexts` texts of the searched
/// section exactly as the full search ranks them among themselves, so
/// every row it shows is a real match, in the full ranking's relative
/// order; the exact search runs meanwhile on a copy of the source (the
/// caller's thread), and `adoptRefinement` takes its result, answering
/// the window's diff from the partial rows to the exact ones.
///
/// The sample: the rows the previous answer ranked first (a refining
/// query's best rows are often among them), the section's shortest texts
/// when its index is current (fzf ranks equal scores by length: on paths
/// the best rows are short ones), then evenly spaced rows.
///
/// Nothing here touches what the exact search on the copy may be using:
/// the sample is ranked by an index of its own, and highlights are read
/// from the rows' own texts.
extension DataSource {
    /// Texts a partial answer ranks, at most.
    static let partialSampleTexts = 8_192
    /// Of which the previous answer's first rows, at most.
    static let partialPreviousRows = 1_024
    /// Of which the section's shortest texts, at most.
    static let partialShortestTexts = 4_096

    /// Whether `setSearchPartially` can answer `settings`: a non-empty
    /// query in score order, shown through a viewport, filtering one
    /// section of a flat list.
    public func partialSearchApplies(to settings: SearchSettings) -> Bool {
        guard settings.isActive, settings.query.order == .score, window != nil, outline.isEmpty else { return false }
        return scopedSections(settings.scope).count == 1
    }

    /// Shows `settings` ranked over a sample of the searched section's
    /// texts (see above): the result is the window's diff; the version goes
    /// up when the visible list changed. The placeholder is not shown (the
    /// sample not matching says nothing of the rest). The match count is
    /// the sample's (`searchIsPartial`). nil when `partialSearchApplies`
    /// is false (nothing changed).
    /// - Complexity: O(sample × L × query length), plus O(section) to find
    ///   the shortest texts when the index is current.
    public mutating func setSearchPartially(_ settings: SearchSettings) -> Update? {
        guard partialSearchApplies(to: settings), let s = scopedSections(settings.scope).first,
              snapshot.sections.indices.contains(s) else { return nil }
        let oldVisible = visible
        let oldCache = searchCache
        search = settings
        if searchCache.fields != settings.fields {
            // The cache would be rebuilt for other fields: start from an
            // empty one (the exact search rebuilds it on its copy).
            searchCache.key(fields: settings.fields)
        }
        let items = snapshot.sections[s].items
        var start = 0
        for section in snapshot.sections[..<s] { start += section.items.count }
        let reach = (window?.viewport).map { $0.start + 3 * $0.count } ?? Self.partialPreviousRows
        let sample = partialSample(section: s, start: start, items: items,
                                   previous: Array((oldCache.rowSources[s] ?? []).prefix(min(reach, Self.partialPreviousRows))))
        let rows = sample.rows
        // Only the rows the window can reach are ranked (the others are
        // counted): the exact answer replaces them soon.
        var query = settings.query
        query.stop = nil
        query.limit = min(query.limit ?? reach, reach)
        let result = sample.index.evaluate(query, among: nil)
        // Rows added to the sample after its base are out of source order:
        // the hits are ranked again with the rows' places as the last key.
        var keys = sample.index.rankKeys(of: result.hits, for: query)
        for k in keys.indices { keys[k].index = rows[keys[k].index] }
        keys.sort { $0.precedes($1) }
        searchCache.deferred = nil
        searchCache.rowSources = [s: keys.map { start + $0.index }]
        searchCache.partialMatchCount = result.matches.count
        answersProgressively = true
        visible = visibleSnapshot(searchCache.rowSources)
        if visibleChanged(old: oldCache, new: searchCache, oldVisible: oldVisible, newVisible: visible) {
            version += 1
        }
        let windowUpdate = windowAfter(changeset: nil, oldVisible: oldVisible, mayScan: false, anchor: .some(nil))
        return Update(changeset: Changeset(), oldVisible: oldVisible, newVisible: visible, selection: SelectionDelta(),
                      window: windowUpdate)
    }

    /// Whether the search shown is a partial answer (`setSearchPartially`)
    /// not yet refined.
    public var searchIsPartial: Bool { searchCache.partialMatchCount != nil }

    /// Takes `exact` as this source's state: the same source as before the
    /// partial answer now shown, with the same search set by `setSearch`
    /// (on a copy, meanwhile). Answers the window's diff from the rows the
    /// frontend holds (the partial ones) to the exact ones; the version
    /// goes up once more when they differ.
    /// - Complexity: O(window rows + sections), plus the comparison of the
    ///   two visible lists (`visibleChanged`).
    public mutating func adoptRefinement(_ exact: DataSource) -> Update {
        let oldVisible = visible
        let oldCache = searchCache
        let held = window?.rows ?? []
        let partialVersion = version
        self = exact
        answersProgressively = true
        let steps = WindowDiff.steps(from: held, to: window?.rows ?? [])
        let changed = !steps.isEmpty
            || visibleChanged(old: oldCache, new: searchCache, oldVisible: oldVisible, newVisible: visible)
        version = partialVersion + (changed ? 1 : 0)
        let update = window.map {
            WindowUpdate(total: FlatLayout(visible).total, start: $0.start, count: $0.viewport.count, steps: steps)
        }
        return Update(changeset: Changeset(), oldVisible: oldVisible, newVisible: visible, selection: SelectionDelta(),
                      window: update)
    }

    /// The sample of section `s` (items `start ..< start + items.count` of
    /// the flat list) a partial answer ranks: the one kept for this
    /// snapshot (`PartialSampleMemo`), with the `previous` answer's first
    /// rows (flat indices) added; made when there is none, or when it was
    /// made before the search index could say which texts are the shortest.
    private func partialSample(section s: Int, start: Int, items: ItemList, previous: [Int]) -> PartialSampleMemo.Sample {
        let count = items.count
        let memo = searchCache.partialSample
        let indexed = searchCache.pendingSplice == nil && searchCache.index.map { start + count <= $0.count } == true
        var sample = memo.sample(section: s)
        if sample == nil {
            let base = Self.baseSample(start: start, count: count, index: indexed ? searchCache.index : nil)
            sample = PartialSampleMemo.Sample(section: s, hasShortest: indexed, base: base,
                                              texts: base.map { searchCache.text(of: items[$0]) })
        } else if indexed, sample?.hasShortest == false, let index = searchCache.index, memo.beginUpgrade() {
            // Made before the index was there: the shortest texts are
            // added in the background, after the reply (this key keeps the
            // sample it has rather than wait for one pass over the list).
            let cache = searchCache
            BackgroundBuilds.start {
                let base = Self.baseSample(start: start, count: count, index: index)
                memo.finishUpgrade(PartialSampleMemo.Sample(section: s, hasShortest: true, base: base,
                                                            texts: base.map { cache.text(of: items[$0]) }))
            }
        }
        guard var sample else { return PartialSampleMemo.Sample(section: s, hasShortest: false, base: [], texts: []) }
        let extra = previous.compactMap { flat -> Int? in
            let row = flat - start
            return row >= 0 && row < count && !sample.rowSet.contains(row) ? row : nil
        }
        if !extra.isEmpty {
            sample = sample.adding(extra, limit: Self.partialSampleTexts) {
                searchCache.text(of: items[$0])
            }
        }
        memo.keep(sample)
        return sample
    }

    /// The frontend asks for progressive answers before it has typed
    /// anything (`search` with `progressive` and an empty query, declaring
    /// its field): from now on the sample partial answers rank is prepared
    /// in the background while nothing is typed
    /// (`prebuildPartialSampleIfIdle`), as after a first partial answer, so
    /// the first keystroke ranks it at once instead of making it while
    /// the index is built on both cores.
    /// - Complexity: O(1)
    public mutating func expectProgressiveAnswers() {
        answersProgressively = true
    }

    /// Whether this source's frontend asks for progressive answers (it sent
    /// one, or `expectProgressiveAnswers`).
    public var expectsProgressiveAnswers: Bool { answersProgressively }

    /// Prepares the sample partial answers rank in the background, when
    /// this source answers progressively, has a viewport and a search field
    /// with nothing typed in it over one section of 50,000 items or more,
    /// and has no sample for this snapshot: the first keystroke then ranks
    /// it at once instead of making it while the exact search takes both
    /// cores.
    mutating func prebuildPartialSampleIfIdle() {
        guard answersProgressively, let search, !search.isActive, window != nil, outline.isEmpty,
              snapshot.itemCount >= BackgroundBuilds.minimumItems else { return }
        let scoped = scopedSections(search.scope)
        guard scoped.count == 1, let s = scoped.first, snapshot.sections.indices.contains(s) else { return }
        let memo = searchCache.partialSample
        guard memo.sample(section: s) == nil, memo.beginUpgrade() else { return }
        let items = snapshot.sections[s].items
        let start = snapshot.sections[..<s].reduce(0) { $0 + $1.items.count }
        let count = items.count
        let index = searchCache.pendingSplice == nil ? searchCache.index.flatMap { start + count <= $0.count ? $0 : nil } : nil
        let cache = searchCache
        BackgroundBuilds.start {
            let base = Self.baseSample(start: start, count: count, index: index)
            memo.finishUpgrade(PartialSampleMemo.Sample(section: s, hasShortest: index != nil, base: base,
                                                        texts: base.map { cache.text(of: items[$0]) }))
        }
    }

    /// The rows of a sample chosen without regard to any query, ascending:
    /// the shortest texts (from `index`, when given), then evenly spaced
    /// rows; every row of a section no larger than the sample.
    /// - Complexity: O(count) with the index, O(sample) without.
    private static func baseSample(start: Int, count: Int, index: SearchIndex?) -> [Int] {
        let limit = Self.partialSampleTexts - Self.partialPreviousRows
        guard count > limit else { return Array(0..<count) }
        var picked = Set<Int>()
        picked.reserveCapacity(limit)
        if let index {
            let shortest = index.withTable {
                SearchIndex.shortestTexts($0, start..<start + count, limit: Self.partialShortestTexts)
            }
            for flat in shortest { picked.insert(flat - start) }
        }
        // Evenly spaced rows fill the rest: every part of the list has a say.
        let rest = limit - picked.count
        if rest > 0 {
            for k in 0..<rest { picked.insert(k * count / rest) }
        }
        return picked.sorted()
    }
}
