import Synchronization
/// A floor for ranking the best k, taken from the shortest texts before
/// the scan.
///
/// A scan in index order fills its heap with the first matches it meets
/// and raises its floor only as better ones come, so the score bounds
/// reject little until late. fzf ranks equal scores by the shorter text,
/// and on long, similar texts (a file system's paths) a query most texts
/// match has its best rows among the short ones: scoring the shortest
/// texts first gives a floor that, from the first candidate on, rejects
/// most texts on their length and bounds, unread.
///
/// The best rows of a plain fuzzy query are nearly always texts that hold
/// it as one run (`readm` in `…/README.md`). When they are rare and lie
/// late in index order, the scan meets them late and scores most texts
/// before its floor rises; so the probe also scores texts holding the
/// query as one run, found by reading an evenly spread sample of the
/// universe (`floorProbeSample` texts at most), unless the k best probed
/// already score as such a run after a boundary would.
///
/// Exact: the floor is the k-th best (score, length) of k candidates that
/// match, so a text strictly worse than it has k better candidates and is
/// not among the best k (`SharedFloor`). The probed texts must be
/// candidates of the scan: they are taken from its universe, the range of
/// texts the scan (or the chain of keystrokes it narrows) searches among;
/// a text of that range that matches a refining query is one of the
/// previous matches, so it is a candidate of a narrowing scan too.
extension SearchIndex {
    /// Texts the floor is taken from, at most.
    static let floorProbeTexts = 4_096
    /// Candidate counts from which a scan probes for a floor first (below,
    /// the probe would cost a good share of the scan).
    static let floorProbeMinimum = 65_536
    /// Lengths bucketed apart when finding the shortest texts; longer
    /// texts share the last bucket.
    static let floorProbeBuckets = 1_024
    /// Texts of the universe read at most for ones holding the query as
    /// one run.
    static let floorProbeSample = 65_536

    /// Whether a scan of `prepared` ranking its best k may take a floor
    /// from probed texts: a fuzzy or exact query fzf sorts, whose tie-break
    /// is the length (or none), so the probe's keys are the scan's.
    static func floorProbeApplies(_ prepared: PreparedQuery) -> Bool {
        prepared.mode != .substring && prepared.extended?.sortable != false && !prepared.isEmpty
            && !prepared.needsOffsets && (prepared.keyKind == .trimmedLength || prepared.keyKind == .none)
    }

    /// The packed (`SharedFloor.pack`) k-th best key among `probes` (the
    /// previous keystroke's best texts: a refining query's best rows are
    /// often among them) and the shortest texts of `universe` that match,
    /// or nil when fewer than k match. Each text counts once.
    /// - Complexity: O(universe) to find the shortest texts, plus the
    ///   scoring of at most `floorProbeTexts` of them and of the probes.
    /// `known`: the universe's shortest texts when found before (they are
    /// found and kept there otherwise).
    func probedFloor(_ prepared: PreparedQuery, best k: Int, universe: Range<Int>, probes: [Int],
                     table: TextTable, known: ProbeTexts = ProbeTexts()) -> UInt64? {
        guard k > 0, k < Self.floorProbeTexts, universe.lowerBound >= 0, universe.upperBound <= table.count
        else { return nil }
        let taken = Set(probes.filter { universe.contains($0) && !table.isNil($0) })
        let found = known.shortest ?? Self.shortestTexts(table, universe, limit: Self.floorProbeTexts)
        known.shortest = found
        let shortest = found.filter { universe.contains($0) && !table.isNil($0) && !taken.contains($0) }
        let scanner = Scanner(table: table, query: prepared)
        let best = prepared.extendedBounds?.maxScore ?? FuzzyMatcher.maxScore(queryLength: prepared.scalars.count)
        var top = TopK(capacity: k)
        let extended = prepared.extended
        /// Scores text `i` into `top` unless it does not match, or its
        /// bound cannot reach the k kept (a tie is scored: probed texts
        /// come in no order of index).
        func probe(_ i: Int) {
            guard let bound = scanner.boundWithoutScoring(i).map(RankKey.rankedScore) else { return }
            if top.isFull, let worst = top.worst, bound < worst.score
                || (bound == worst.score && scanner.rankLength(i) > worst.length) { return }
            guard let (score, key) = scanner.scoredKey(i, known: nil, offsets: nil, extended: extended) else { return }
            top.insert(RankKey(score: score, length: key, index: i))
        }
        for i in taken.sorted() { probe(i) }
        for i in shortest {
            // Ascending lengths: once the k kept all score the maximum, no
            // later text can raise the floor.
            if top.isFull, let worst = top.worst, worst.score >= best { break }
            probe(i)
        }
        // Unless the k kept already score as a run after a boundary does,
        // texts holding the query as one run are scored too.
        let runScore = FuzzyScoring.match * prepared.scalars.count + FuzzyScoring.boundary * (prepared.scalars.count + 1)
        if !top.isFull || (top.worst?.score ?? 0) < runScore {
            let seen = taken.union(shortest)
            for i in Self.textsHoldingRun(prepared, universe, table: table, limit: 4 * k, known: known) where !seen.contains(i) {
                probe(i)
            }
        }
        guard top.isFull, let worst = top.worst else { return nil }
        return SharedFloor.pack(score: worst.score, length: worst.length)
    }

    /// Up to `limit` ASCII texts of `universe` holding a plain fuzzy
    /// query of two chars or more as one run (compared as the query
    /// compares them), ascending, found among at most `floorProbeSample`
    /// texts spread evenly over the universe; none for other queries.
    /// When the chain's previous run probe read its whole sample for a
    /// part of this query (`known`), only its texts are read again: a text
    /// holding this query holds that part.
    /// - Complexity: O(sample × text length)
    static func textsHoldingRun(_ prepared: PreparedQuery, _ universe: Range<Int>, table: TextTable,
                                limit: Int, known: ProbeTexts = ProbeTexts()) -> [Int] {
        guard prepared.mode == .fuzzy, prepared.extended == nil, prepared.pattern.isASCII,
              prepared.unitBytes.count >= 2, limit > 0, !universe.isEmpty else { return [] }
        let needle = prepared.unitBytes
        let caseSensitive = prepared.caseSensitive
        @inline(__always) func text(_ i: Int) -> UnsafeBufferPointer<UInt8> {
            caseSensitive ? table.original(i) : table.foldedText(i)
        }
        var out: [Int] = []
        var complete = true
        needle.withUnsafeBufferPointer { needle in
            if let earlier = known.runs, earlier.caseSensitive == caseSensitive,
               needle.firstRange(of: earlier.needle) != nil {
                for i in earlier.texts where SubstringMatcher.firstOccurrence(of: needle, in: text(i)) != nil {
                    out.append(i)
                }
                return
            }
            // Runs of consecutive texts, searched as one stretch of bytes
            // (a hit that spans two texts is skipped), spread evenly.
            let block = 64
            let blocks = max(1, min(floorProbeSample, universe.count) / block)
            let step = universe.count / blocks
            let offsets = caseSensitive ? table.offsets : table.foldedOffsets
            guard let all = (caseSensitive ? table.bytes : table.folded).baseAddress else { return }
            for b in 0..<blocks {
                var i = universe.lowerBound + b * step
                let end = min(i + block, universe.upperBound)
                var from = offsets[i]
                while i < end {
                    let stretch = UnsafeBufferPointer(start: all + from, count: offsets[end] - from)
                    guard let hit = SubstringMatcher.firstOccurrence(of: needle, in: stretch) else { break }
                    let at = from + hit
                    while offsets[i + 1] <= at { i += 1 }
                    if at + needle.count <= offsets[i + 1] && table.isASCII(i) {
                        out.append(i)
                        if out.count >= limit {
                            complete = false
                            return
                        }
                    }
                    i += 1
                    if i < end { from = offsets[i] }
                }
            }
        }
        if complete { known.runs = (needle, caseSensitive, out) }
        return out
    }

    /// Up to `limit` non-nil texts of `range`, the shortest in UTF-8
    /// bytes (lengths past `floorProbeBuckets` count as equal), ascending
    /// by (length, index).
    ///
    /// A large range is read once, by two threads: a sample of every 64th
    /// text gives a length `cut` that about twice `limit` texts do not
    /// pass, and the pass keeps the texts up to it (at `cut` itself only
    /// each half's first `limit`, which are the first in index order).
    /// When fewer than `limit` are kept, the sample misjudged the lengths
    /// and the two-pass reading (`shortestTextsByHistogram`) answers.
    /// - Complexity: O(range + limit log limit), on two threads
    static func shortestTexts(_ table: TextTable, _ range: Range<Int>, limit: Int) -> [Int] {
        let stride = 64
        guard limit > 0, range.count >= 65_536, range.count >= 16 * limit else {
            return shortestTextsByHistogram(table, range, limit: limit)
        }
        let buckets = floorProbeBuckets
        @Sendable @inline(__always) func bucket(_ i: Int) -> Int {
            min(table.offsets[i &+ 1] &- table.offsets[i], buckets &- 1)
        }
        var sampled = [Int](repeating: 0, count: buckets)
        var i = range.lowerBound
        while i < range.upperBound {
            if !table.isNil(i) { sampled[bucket(i)] &+= 1 }
            i &+= stride
        }
        let wanted = 2 * limit / stride + 16
        var sampledCut = buckets - 1
        var below = 0
        for (length, n) in sampled.enumerated() {
            below &+= n
            if below >= wanted { sampledCut = length; break }
        }
        let cut = sampledCut
        let half = range.lowerBound + range.count / 2
        let halves = [range.lowerBound..<half, half..<range.upperBound]
        let kept = Parallel.map(2, placeholder: [(length: Int, index: Int)]()) { h in
            var out: [(length: Int, index: Int)] = []
            out.reserveCapacity(2 * limit)
            var atCut = 0
            for i in halves[h] where !table.isNil(i) {
                let length = bucket(i)
                if length < cut {
                    out.append((length, i))
                } else if length == cut && atCut < limit {
                    out.append((length, i))
                    atCut &+= 1
                }
            }
            return out
        }
        var all = kept[0] + kept[1]
        guard all.count >= limit else { return shortestTextsByHistogram(table, range, limit: limit) }
        all.sort { $0.length != $1.length ? $0.length < $1.length : $0.index < $1.index }
        return all.prefix(limit).map(\.index)
    }

    /// `shortestTexts` read twice: a histogram of the lengths, then the
    /// texts under the length it gives.
    /// - Complexity: O(range + limit log limit)
    static func shortestTextsByHistogram(_ table: TextTable, _ range: Range<Int>, limit: Int) -> [Int] {
        let buckets = floorProbeBuckets
        var histogram = [Int](repeating: 0, count: buckets)
        let offsets = table.offsets
        @inline(__always) func bucket(_ i: Int) -> Int { min(offsets[i &+ 1] &- offsets[i], buckets &- 1) }
        for i in range where !table.isNil(i) { histogram[bucket(i)] &+= 1 }
        // The smallest length whose texts and shorter ones reach `limit`.
        var cut = buckets - 1
        var below = 0
        for (length, n) in histogram.enumerated() {
            if below &+ n >= limit { cut = length; break }
            below &+= n
        }
        var out: [(length: Int, index: Int)] = []
        out.reserveCapacity(min(limit, range.count))
        for i in range where !table.isNil(i) {
            let length = bucket(i)
            if length < cut || (length == cut && out.count < limit) { out.append((length, i)) }
        }
        out.sort { $0.length != $1.length ? $0.length < $1.length : $0.index < $1.index }
        return out.prefix(limit).map(\.index)
    }
}

/// The shortest texts of a universe (`SearchIndex.shortestTexts`), kept
/// for the scans that probe the same universe of the same index: the
/// keystrokes of a chain, and the first key of a new query
/// (`RecentMatchSets.probeTexts`). Both depend on the texts alone. Locked:
/// a progressive search's exact pass, stopped by a newer key, may still
/// read them on its worker while that key runs.
final class ProbeTexts: Sendable {
    private struct State {
        var shortest: [Int]?
        var runs: (needle: [UInt8], caseSensitive: Bool, texts: [Int])?
    }
    private let state = Mutex(State())

    init() {}

    var shortest: [Int]? {
        get { state.withLock { $0.shortest } }
        set { state.withLock { $0.shortest = newValue } }
    }

    /// The last run probe that read its whole sample: its needle, case,
    /// and every text of the sample holding it (`textsHoldingRun`).
    var runs: (needle: [UInt8], caseSensitive: Bool, texts: [Int])? {
        get { state.withLock { $0.runs } }
        set { state.withLock { $0.runs = newValue } }
    }
}

extension Scanner {
    /// An upper bound of text `i`'s score found without scoring it: nil
    /// when the text does not match (an ASCII text of an extended query not
    /// of fields, decided on its terms' placements: `FzfQueryBounds`),
    /// `Int.max` when no bound cheaper than scoring applies.
    /// - Complexity: O(terms × length) for an extended query, O(pairs) for
    ///   a plain fuzzy one (its masks).
    func boundWithoutScoring(_ i: Int) -> Int? {
        let masks = table.masks.count == table.count ? table.masks[i] : BonusMasks.unknown
        if let extended = query.extended {
            guard !extended.fielded, table.isASCII(i), query.extendedBounds != nil else { return Int.max }
            return query.extendedBounds?.bound(table, i, masks: masks, query: extended, fields: nil) ?? nil
        }
        guard query.mode == .fuzzy, query.isASCII, !query.bytes.isEmpty, table.masks.count == table.count
        else { return Int.max }
        return query.pairBits.withUnsafeBufferPointer {
            masks.firstPairBound(first: query.firstBucket, later: query.laterBuckets, firstPair: query.firstPairKeys,
                                 wordPairs: table.wordPairsOf(i), pairs: $0, length: query.scalars.count)
        }
    }
}
