/// Every match of one query (unlimited, ascending), kept with a compacted
/// copy of the matched texts so that a query refining it scans only them,
/// densely (see `SearchIndex.evaluate(_:narrowing:among:within:rankOnly:scoring:)`).
///
/// Valid for the `SearchIndex` that produced it, until that index changes.
public struct SearchMatchSet: Sendable {
    /// The query whose matches these are.
    public let query: SearchQuery
    /// Number of texts the index had (a set from another index is ignored).
    let indexCount: Int
    /// The matches, in index order, split in consecutive segments (one per
    /// scan thread).
    let segments: [CompactSegment]
    /// Storage recycled along the chain of keystrokes.
    let pool: SegmentPool
    /// `segments` with their sparse views copied, built in the background
    /// (see `SearchMatchSet+Copying`).
    let copying: BackgroundBuild<[CompactSegment]>?
    /// The tail sets of the segments once copied, found in the background
    /// (see `SearchMatchSet+TailSets`).
    let tailing: TailWork?
    /// The range of texts the chain of queries leading to this set was
    /// searched among, when known: a query refining this one matches, in
    /// that range, only these matches (a narrowing scan probes its floor
    /// there, `SearchIndex.probedFloor`). Nil once the set is spliced.
    let universe: Range<Int>?
    /// The ranked hits' indices (at most a viewport's `rankOnly`), best
    /// first: texts a refining query likely scores high, probed first for
    /// its floor. Meaningful only with `universe`.
    let best: [Int]
    /// The shortest texts of `universe`, found by the first scan that
    /// probed it and shared along the chain (`SearchIndex.probedFloor`).
    let probeTexts: ProbeTexts
    /// The best hits among these matches, when a window's ranking found
    /// them (see `RankedHits`); kept through appends.
    let ranked: RankedHits?
    /// The scores of one-term sets computed along the chain of keystrokes
    /// (see `TermScores`), shared by its sets while the index is the same.
    let termScores: TermScores

    init(query: SearchQuery, indexCount: Int, segments: [CompactSegment], pool: SegmentPool,
         copying: BackgroundBuild<[CompactSegment]>? = nil, tailing: TailWork? = nil, universe: Range<Int>? = nil,
         best: [Int] = [], probeTexts: ProbeTexts = ProbeTexts(), ranked: RankedHits? = nil,
         termScores: TermScores = TermScores()) {
        self.query = query
        self.termScores = termScores
        self.ranked = ranked
        self.probeTexts = probeTexts
        self.universe = universe
        self.best = universe == nil ? [] : best
        self.indexCount = indexCount
        self.pool = pool
        self.segments = segments.filter { $0.count > 0 }
        self.copying = copying
        self.tailing = tailing
    }

    /// Number of matches.
    /// - Complexity: O(segments)
    public var count: Int { segments.reduce(0) { $0 + $1.count } }

    /// The matching indices, ascending.
    /// - Complexity: O(count)
    public var indices: [Int] { indices(excluding: []) }

    /// The matching indices not in `excluded` (ascending, each a match),
    /// ascending: one pass, no list of every match first.
    /// - Complexity: O(count + excluded.count)
    func indices(excluding excluded: [Int]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(max(0, count - excluded.count))
        var j = 0
        for segment in segments {
            segment.forEachIndex { flat in
                while j < excluded.count && excluded[j] < flat { j &+= 1 }
                if j < excluded.count && excluded[j] == flat { return }
                out.append(flat)
            }
        }
        return out
    }
}

/// The best hits of a match set's query among its matches, as a window's
/// ranking found them: the best `rankOnly` (in the query's order) of the
/// matches at positions below `through`. Matches at `through` or after
/// (appended since) are not ranked yet.
struct RankedHits: Sendable {
    /// The query they were ranked for (order, scheme and tie-breaks too).
    let query: SearchQuery
    let rankOnly: Int
    let hits: [SearchHit]
    let through: Int
}

extension SearchMatchSet {
    /// This set with `ranked` for its known hits.
    func ranking(_ ranked: RankedHits?) -> SearchMatchSet {
        SearchMatchSet(query: query, indexCount: indexCount, segments: segments, pool: pool, copying: copying,
                       tailing: tailing, universe: universe, best: ranked?.hits.map(\.index) ?? best,
                       probeTexts: probeTexts, ranked: ranked, termScores: termScores)
    }
}

/// The hits of one keystroke and its match set for the next one.
public struct NarrowingResult: Sendable {
    /// The hits in the requested order, capped by the limit.
    public var hits: [SearchHit]
    /// Every match (unlimited), compacted for narrowing.
    public var matches: SearchMatchSet
}

extension SearchIndex {
    /// One keystroke of a narrowing search: `evaluate(_:among:)` that also
    /// returns the match set for the next keystroke. When `previous` is a
    /// match set of this index and `query.refines(previous.query)`, only the
    /// previous matches are scanned, from their compacted copy (`candidates`
    /// is then ignored); otherwise `candidates` (`nil` = all texts).
    ///
    /// Hits are those of `evaluate(query, among: candidates)` (the same as
    /// `evaluate(query, among: nil)` restricted to `candidates` when narrowing
    /// holds), in the same order.
    ///
    ///     var last: SearchMatchSet? = nil
    ///     func keystroke(_ q: SearchQuery) -> [SearchHit] {
    ///         let result = index.evaluate(q, narrowing: last, among: nil)
    ///         last = result.matches
    ///         return result.hits
    ///     }
    /// - Complexity: as `evaluate(_:among:)` over the scanned texts, plus
    ///   O(Σ L) to copy the matched texts (both UTF-8 and folded bytes). A
    ///   narrowing scan reads contiguous memory (no cache miss per text).
    ///
    /// `rankOnly` (for an unlimited query in score order): return only the
    /// best `rankOnly` hits, scoring only texts that can be among them; the
    /// match set still holds every match.
    /// `within`: the candidates are this range of positions (instead of
    /// `candidates`), e.g. one scoped section.
    /// `scoring: false`: no hits, only the match set (an unlimited query in
    /// source order, whose hits would be exactly `matches.indices`).
    /// `pool`: where the match set's storage comes from when not narrowing
    /// (the set's own pool when narrowing); a source keeps one across its
    /// snapshots, so a scan after an edit reuses the storage of the sets the
    /// edit dropped instead of page-faulting fresh memory in.
    public func evaluate(_ query: SearchQuery, narrowing previous: SearchMatchSet?,
                         among candidates: [Int]?, within range: Range<Int>? = nil,
                         rankOnly: Int? = nil, scoring: Bool = true) -> NarrowingResult {
        evaluate(query, narrowing: previous, among: candidates, within: range, rankOnly: rankOnly, scoring: scoring,
                 pool: nil)
    }

    func evaluate(_ query: SearchQuery, narrowing previous: SearchMatchSet?,
                  among candidates: [Int]?, within range: Range<Int>?,
                  rankOnly: Int?, scoring: Bool, pool spare: SegmentPool?,
                  recent: RecentMatchSets? = nil) -> NarrowingResult {
        let source: ScanSource
        let pool = previous?.pool ?? spare ?? SegmentPool()
        pool.keystrokeBegins()
        var tailSets = false
        let universe: Range<Int>?
        var narrowedFrom: SearchQuery?
        if let previous, previous.indexCount == count, query.refines(previous.query),
           !previous.query.matchesEverything {
            source = .compact(previous.scanSegments, resumeFrom: Self.resumeFrom(query, after: previous.query))
            tailSets = previous.tailSetsIfFound()
            universe = previous.universe
            narrowedFrom = previous.query
        } else if let range {
            source = .range(range.clamped(to: 0..<count))
            universe = range.clamped(to: 0..<count)
        } else {
            source = .index(candidates.map(normalized))
            universe = candidates == nil ? 0..<count : nil
        }
        // Any text of the universe is a valid probe (`probedFloor`), so the
        // shortest ones found for it before serve while the universe is
        // the same.
        let probeTexts = previous.flatMap { $0.indexCount == count && $0.universe == universe ? $0.probeTexts : nil }
            ?? recent?.probeTexts(indexCount: count, universe: universe) ?? ProbeTexts()
        // Scores depend only on the texts: valid while the index is the same.
        let termScores = previous.flatMap { $0.indexCount == count ? $0.termScores : nil } ?? TermScores()
        let (result, segments) = run(query, source: source, keepMatches: true, scoring: scoring, compact: true,
                                     pool: pool, rankOnly: query.order == .score ? rankOnly : nil, tailSets: tailSets,
                                     universe: universe, probes: previous?.best ?? [], probeTexts: probeTexts,
                                     narrowedFrom: narrowedFrom, termScores: termScores)
        let copying = SearchMatchSet.copying(segments)
        var ranked: RankedHits?
        if let rankOnly, scoring, query.order == .score, query.limit == nil, query.stop?.isStopped != true {
            ranked = RankedHits(query: query, rankOnly: rankOnly, hits: result.hits, through: count)
        }
        return NarrowingResult(hits: result.hits,
                               matches: SearchMatchSet(query: query, indexCount: count, segments: segments,
                                                       pool: pool, copying: copying,
                                                       tailing: SearchMatchSet.tailing(segments, after: copying),
                                                       universe: universe, best: result.hits.map(\.index),
                                                       probeTexts: probeTexts, ranked: ranked,
                                                       termScores: termScores))
    }

    /// `evaluate(query, narrowing: set, …, rankOnly: rankOnly)` for the
    /// same query's match set when its best hits are known (`set.ranked`,
    /// ranked for this query and `rankOnly`): only those hits and the
    /// matches added after them are ranked, since the best `rankOnly` of
    /// all the matches are among them. The set is kept, with these hits.
    /// Nil when the known hits do not apply.
    ///
    /// This is what makes a list streaming in under a ranked query cost
    /// its batch, not its length: each batch ranks the window's hits and
    /// the batch's matches.
    /// - Complexity: O((rankOnly + matches added) × L), plus O(segments)
    ///   and the ids of the segments holding added matches.
    func reranking(_ query: SearchQuery, from set: SearchMatchSet, rankOnly: Int) -> NarrowingResult? {
        guard let ranked = set.ranked, RecentMatchSets.sameRanking(ranked.query, query), ranked.rankOnly == rankOnly,
              set.indexCount == count,
              query.order == .score, query.limit == nil else { return nil }
        var candidates = ranked.hits.map(\.index).sorted()
        if ranked.through < count {
            for segment in set.segments { segment.forEachIndex(from: ranked.through) { candidates.append($0) } }
        }
        let result = run(query, source: .index(normalized(candidates)), keepMatches: false, scoring: true,
                         compact: false, rankOnly: rankOnly).result
        let kept = query.stop?.isStopped == true ? nil
            : RankedHits(query: query, rankOnly: rankOnly, hits: result.hits, through: count)
        return NarrowingResult(hits: result.hits, matches: set.ranking(kept))
    }

    /// When fuzzy matching of `query` can resume where `previous` (whose
    /// match set is scanned) ended: the number of needle bytes already
    /// matched. True when `previous` is empty, or both are fuzzy with the
    /// same case sensitivity and `previous`'s needle is a prefix of
    /// `query`'s (greedy matching is incremental); for extended queries,
    /// when the last term resumes (`FzfQuery.lastTermResumes`).
    /// - Complexity: O(query length)
    static func resumeFrom(_ query: SearchQuery, after previous: SearchQuery) -> Int? {
        let old = PreparedQuery(previous)
        if old.isEmpty { return 0 }
        let new = PreparedQuery(query)
        if old.mode == .fuzzy, new.mode == .fuzzy, let o = old.extended, let n = new.extended {
            return n.lastTermResumes(after: o)
        }
        guard old.mode == .fuzzy, new.mode == .fuzzy, old.extended == nil, new.extended == nil,
              old.caseSensitive == new.caseSensitive,
              new.bytes.starts(with: old.bytes) else { return nil }
        return old.bytes.count
    }
}
