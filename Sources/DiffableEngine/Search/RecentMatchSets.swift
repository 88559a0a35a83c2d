/// The match sets of a source's recent queries, kept for the keys a person
/// types next: a Backspace returns to a query whose matches are here (they
/// are reused as they are, so an unranked search scans nothing), and a new
/// key narrows from the smallest set its query refines, not only from the
/// last one ("mol", Backspace, "mo" then "mox" narrow from the "mo" set).
///
/// Bounded by `limit` sets and `byteBudget` bytes of compacted storage (a
/// view's root counted once); the oldest sets go first, the newest and the
/// set it was narrowed from last. A view of the index
/// itself costs 12 bytes per match, a copy about twice the texts' bytes
/// plus 37 per match, and a fuzzy set's tail sets 16 more per match
/// (`TailSets`, which the budget leaves room for), so that for a source
/// of a million texts it keeps a typical chain of first letters and
/// their refinements. Valid for one `SearchIndex` (the
/// source drops it with its `SearchCache` when the snapshot changes).
struct RecentMatchSets: Sendable {
    /// At most this many sets.
    let limit: Int
    /// At most this many bytes of compacted storage (the newest set is kept
    /// whatever its size).
    let byteBudget: Int

    init(limit: Int = 8, byteBudget: Int = 64 << 20) {
        self.limit = limit
        self.byteBudget = byteBudget
    }

    private struct Entry: Sendable {
        let scope: [String]?
        let matches: SearchMatchSet
    }
    private var entries: [Entry] = []

    /// Number of sets kept.
    var count: Int { entries.count }

    /// The most recently remembered set and the scope it was searched in.
    var newest: (scope: [String]?, matches: SearchMatchSet)? {
        entries.last.map { ($0.scope, $0.matches) }
    }

    /// Whether two queries have the same matches: the same text, or fuzzy
    /// or exact texts that parse to the same terms (`src` and `src `, a
    /// space typed before the next term). Order and limit do not change
    /// them; case sensitivity follows from the text and mode.
    /// - Complexity: O(query length)
    static func sameMatches(_ a: SearchQuery, _ b: SearchQuery) -> Bool {
        guard a.mode == b.mode, a.fielded == b.fielded else { return false }
        if a.text == b.text { return true }
        return a.mode != .substring
            && FzfQuery(a.matchedText, fuzzy: a.mode == .fuzzy) == FzfQuery(b.matchedText, fuzzy: b.mode == .fuzzy)
    }

    /// Whether `a` ranks as `b` does: the same matches, order, limit,
    /// scheme and tie-breaks.
    static func sameRanking(_ a: SearchQuery, _ b: SearchQuery) -> Bool {
        var relabeled = a
        relabeled.text = b.text
        return relabeled == b && sameMatches(a, b)
    }

    /// The set to start `query` from in `scope`: the same query's when kept
    /// (`isSameQuery`), else the smallest kept set that `query` refines
    /// (not one of a query that matches everything: `matchesEverything`).
    /// - Complexity: O(sets × query length)
    func base(for query: SearchQuery, scope: [String]?) -> (set: SearchMatchSet?, isSameQuery: Bool) {
        var best: SearchMatchSet?
        for entry in entries.reversed() where entry.scope == scope {
            if Self.sameMatches(entry.matches.query, query) { return (entry.matches, true) }
            if query.refines(entry.matches.query), !entry.matches.query.matchesEverything,
               best.map({ entry.matches.count < $0.count }) ?? true {
                best = entry.matches
            }
        }
        return (best, false)
    }

    /// The probed texts of a kept set of an index of `indexCount` texts
    /// over `universe` (the newest first), for a query that narrows from
    /// none of them: the shortest texts of a universe do not depend on the
    /// query. Every kept set is of the current index (a new index starts
    /// with none, an edit's splice gives its sets fresh ones).
    /// - Complexity: O(sets)
    func probeTexts(indexCount: Int, universe: Range<Int>?) -> ProbeTexts? {
        entries.last { $0.matches.indexCount == indexCount && $0.matches.universe == universe }?.matches.probeTexts
    }

    /// Keeps `matches` (searched in `scope`) as the most recent set,
    /// replacing an older set of the same query, then drops the oldest sets
    /// beyond `limit` or `byteBudget`, never the newest nor, within
    /// `limit`, `base`: the set `matches` was narrowed from. The next key
    /// may extend a term that made `matches` a set no later query refines
    /// (an inverse term: `'view !te` then `'view !tes`), and then narrows
    /// from `base`, whose matches hold the newest's.
    /// - Complexity: O(sets × segments)
    mutating func remember(_ matches: SearchMatchSet, scope: [String]?, base: SearchMatchSet? = nil) {
        entries.removeAll { $0.scope == scope && Self.sameMatches($0.matches.query, matches.query) }
        entries.append(Entry(scope: scope, matches: matches))
        let isBase = { (entry: Entry) in
            base.map { entry.scope == scope && Self.sameMatches(entry.matches.query, $0.query) } ?? false
        }
        while entries.count > limit || retainedBytes > byteBudget {
            guard let oldest = entries.dropLast().firstIndex(where: { !isBase($0) })
                    ?? (entries.count > limit ? 0 : nil) else { break }
            entries.remove(at: oldest)
        }
    }

    /// Bytes of compacted storage the kept sets hold alive (each buffer once).
    var retainedBytes: Int {
        var seen = Set<ObjectIdentifier>()
        var total = 0
        for entry in entries {
            // A copy made in the background counts once it is made.
            let copies = entry.matches.copying.flatMap { $0.isReady ? $0.value() : nil } ?? []
            for segment in entry.matches.segments + copies {
                for owner in [segment, segment.root] where seen.insert(ObjectIdentifier(owner)).inserted {
                    total += owner.storageBytes
                }
            }
        }
        return total
    }
}

extension SearchMatchSet {
    /// These matches, as those of `query` (which has the same matches:
    /// `RecentMatchSets.sameMatches`).
    func reused(for query: SearchQuery) -> SearchMatchSet {
        SearchMatchSet(query: query, indexCount: indexCount, segments: segments, pool: pool, copying: copying,
                       tailing: tailing, universe: universe, best: best, probeTexts: probeTexts, ranked: ranked,
                       termScores: termScores)
    }
}

