import Dispatch

extension SearchIndex {
    /// Candidate counts from which a scan is split across `parallelism` threads.
    static let parallelThreshold = 16_384
    /// Number of threads a large scan uses: two. A large scan gains from a
    /// second thread, and more would compete for the cores with the
    /// frontend reading the reply.
    static let parallelism = 2

    /// A scan from scratch keeps its matches as a view of the index when they
    /// are at least 1/`viewDivisor` of the range, else copies them. Fuzzy:
    /// 1/2, since the next keystroke rescans a sparser view much more
    /// slowly than a dense copy. Substring: 1/16, since its next keystroke
    /// (a byte search from the first occurrence on) costs about the same on
    /// a view as on a copy, and the copy would be most of a first letter's
    /// cost (figures: protocol/benchmarks.md).
    static func viewDivisor(_ mode: SearchMode) -> Int { mode == .substring ? 16 : 2 }

    /// A narrowing scan keeps the matches of a piece of a segment as a view
    /// of its root when the piece holds at least 1/`narrowingViewDivisor`
    /// of the root texts its entries span (a piece of a copied root spans
    /// only its own), else copies them. Fuzzy: 1/4. Substring: 1/16, for
    /// the reason `viewDivisor` gives. A piece is one scan thread's share,
    /// so it can be dense within its span yet sparse over the whole root:
    /// the density is measured over the span, so such a piece stays a
    /// view, which reads as fast as a copy and costs no copying.
    static func narrowingViewDivisor(_ mode: SearchMode) -> Int { mode == .substring ? 16 : 4 }

    /// The shared engine of `search`, `matchingIndices`, `rank`, `evaluate`.
    func run(_ query: SearchQuery, among candidates: [Int]?, keepMatches: Bool,
             scoring: Bool = true) -> SearchResult {
        run(query, source: .index(candidates.map(normalized)), keepMatches: keepMatches, scoring: scoring,
            compact: false).result
    }

    /// Scans `source` for `query`: matches (listed, or compacted into
    /// segments when `compact`), and hits unless `scoring` is false.
    /// - Complexity: O(c × L) for c candidates of length L, plus scoring
    ///   (see `search(_:among:)`) and O(Σ L) to copy compacted matches.
    /// `rankOnly`: for an unlimited query in score order, rank only the
    /// best `rankOnly` hits (the others are matched, not necessarily scored).
    /// `tailSets`: the `.compact` segments' tail sets are found and may be
    /// read (`TailSets`).
    /// `universe`: for a `.compact` source, the range of texts its match set
    /// was searched among (nil: unknown), where a floor may be probed
    /// (`probedFloor`), first among `probes` (indices in it), then among
    /// the universe's shortest texts (`probeTexts`, found once).
    /// `narrowedFrom`: the query every candidate of a `.compact` source
    /// matches (the sets they share are not placed again).
    func run(_ query: SearchQuery, source: ScanSource, keepMatches: Bool, scoring: Bool,
             compact: Bool, pool: SegmentPool = SegmentPool(),
             rankOnly: Int? = nil, tailSets: Bool = false,
             universe: Range<Int>? = nil, probes: [Int] = [], probeTexts: ProbeTexts = ProbeTexts(),
             narrowedFrom: SearchQuery? = nil,
             termScores: TermScores? = nil) -> (result: SearchResult, segments: [CompactSegment]) {
        var knowing = PreparedQuery(query)
        if let narrowedFrom { knowing.knowSets(matchedBy: narrowedFrom) }
        // The query as a whole: its floor is probed and its sets' scores
        // kept for it. A narrowed query typed term after term is scanned as
        // its last term (`needleForm`).
        let whole = knowing
        let limit = query.limit.map { max($0, 0) } ?? rankOnly.map { max($0, 0) }
        let ranking: ScanRanking
        if !scoring {
            ranking = .none
        } else if query.order == .source {
            ranking = .firstInSource(limit ?? Int.max)
        } else if let limit {
            ranking = .best(limit)
        } else {
            ranking = .all
        }
        // Only the best k are scored as the whole query in the needle form.
        var needleRanks = false
        switch ranking {
        case .none, .best: needleRanks = true
        case .all, .firstInSource: needleRanks = false
        }
        let prepared = narrowedFrom == nil || !needleRanks ? whole
            : whole.needleForm(scheme: query.scheme, tiebreak: query.tiebreak) ?? whole
        let total: Int
        switch source {
        case .index(let list): total = list?.count ?? count
        case .range(let range): total = range.count
        case .compact(let segments, _): total = segments.reduce(0) { $0 + $1.count }
        }
        let chunks = total >= Self.parallelThreshold ? Self.parallelism : 1
        // Chunk boundaries; for segments, snapped to a segment boundary
        // within 1/8 of the total (so a chunk's matches can stay a view of
        // one segment).
        var bounds = (0...chunks).map { total * $0 / chunks }
        if case .compact(let segments, _) = source, chunks > 1 {
            var starts: [Int] = []
            var start = 0
            for segment in segments { starts.append(start); start += segment.count }
            for c in 1..<chunks {
                if let near = starts.min(by: { abs($0 - bounds[c]) < abs($1 - bounds[c]) }),
                   abs(near - bounds[c]) * 8 <= total, near > bounds[c - 1] {
                    bounds[c] = near
                }
            }
        }

        let chunkBounds = bounds
        var sharedFloor: SharedFloor?
        if chunks > 1, case .best = ranking { sharedFloor = SharedFloor() }
        // A stopped scan's answer is discarded: no floor is probed for it.
        if case .best(let k) = ranking, total >= Self.floorProbeMinimum, Self.floorProbeApplies(whole),
           query.stop?.isStopped != true {
            var probed: Range<Int>?
            switch source {
            case .index(nil): probed = 0..<count
            case .index: probed = nil
            case .range(let range): probed = range
            case .compact: probed = universe
            }
            if let probed, let value = withTable({ probedFloor(whole, best: k, universe: probed, probes: probes, table: $0,
                                                                       known: probeTexts) }) {
                let seeded = sharedFloor ?? SharedFloor()
                seeded.raise(to: value)
                sharedFloor = seeded
            }
        }
        let floor = sharedFloor
        // A ranked extended query reads and records its one-term sets'
        // scores in the chain's tables.
        var knownScores: SetScoreTables?
        if case .best = ranking, let termScores, let extended = whole.extended, !extended.fielded,
           !whole.needsOffsets, !whole.exactStart, termScores.claim() {
            knownScores = SetScoreTables(termScores.tables(for: extended, scheme: query.scheme,
                                                           forward: whole.forward, count: count))
        }
        defer {
            if let knownScores {
                knownScores.deallocate()
                termScores?.release()
            }
        }
        let setScores = knownScores
        let averageBytes = count > 0 ? (bytes.count + count - 1) / count : 0
        // What views of a scan from scratch select from: the index's own texts.
        var narrowing = false
        if case .compact = source { narrowing = true }
        let root = compact && !narrowing ? CompactSegment(root: self, pool: pool) : nil
        let tailsAfter = TailSets.kept(for: prepared)
        // A narrowing scan that may take candidates on their tail sets
        // leaves their resume positions to its match set's background task.
        var skipped: Int?
        if case .compact(_, let skip) = source { skipped = skip }
        let takesOnBit = tailSets && TailFilter(prepared, skip: skipped)?.acceptsOnBit == true
        let results: [ChunkResult] = withTable { table in
            /// A narrowing scan's view, with what its background task finds.
            @Sendable func buildView(_ view: SegmentBuilder, _ root: CompactSegment) -> CompactSegment {
                view.build(base: root, pendingResume: takesOnBit ? PendingResume(prepared) : nil, tailsAfter: tailsAfter)
            }
            @Sendable func scanChunk(_ c: Int) -> ChunkResult {
                let lo = chunkBounds[c], hi = max(chunkBounds[c + 1], chunkBounds[c])
                var state = ChunkResult(keepMatches: keepMatches, ranking: ranking)
                switch source {
                case .index, .range:
                    var scanner = Scanner(table: table, query: prepared)
                    scanner.knownScores = setScores
                    // A list of candidates copies its matches as it goes; a
                    // range selects them first (positions in the index), then
                    // keeps the selection as a view of the index when it is
                    // dense enough (`viewDivisor`), else copies it.
                    var listed: [Int]?
                    if case .index(let list?) = source { listed = list }
                    if compact {
                        state.selection = listed != nil
                            ? SegmentBuilder(texts: hi - lo, bytes: (hi - lo) * averageBytes, pool: pool)
                            : SegmentBuilder(texts: (hi - lo) / 4, bytes: 0, pool: pool)
                        state.copying = listed != nil
                    }
                    var texts = lo..<hi
                    if case .range(let range) = source { texts = range.lowerBound + lo ..< range.lowerBound + hi }
                    if let listed {
                        listed.withUnsafeBufferPointer { scanner.scan($0[lo..<hi], ids: nil, floor: floor, into: &state) }
                    } else if scanner.takesEveryText {
                        scanner.takeEvery(texts, into: &state)
                    } else if let first = scanner.query.bytes.first,
                              BytePresence.isExact(first), table.presence.count == table.count {
                        // A one-byte substring query kept unranked (a picker's
                        // first letter) takes each block whole: every text in
                        // it matches, and substring matches resume nowhere.
                        var unranked = false
                        if case .none = state.ranking { unranked = true }
                        let takeWhole = unranked && prepared.mode == .substring && prepared.bytes.count == 1
                            && state.keepMatches && !state.copying && state.selection != nil
                        let oneCharBest = scanner.takesOneCharBest(state)
                        BytePresence.forEachBlock(of: table.presence, texts, holding: first) { block in
                            if takeWhole {
                                state.selection?.select(contentsOf: block, resume: 0)
                            } else if oneCharBest {
                                scanner.scanOneCharBest(block, floor: floor, into: &state)
                            } else {
                                scanner.scan(block, ids: nil, floor: floor, holdFirstByte: true, into: &state)
                            }
                        }
                    } else if let byte = prepared.extendedBounds?.requiredByte, table.presence.count == table.count {
                        // An extended query: only the texts holding a byte
                        // every match holds are visited.
                        BytePresence.forEachBlock(of: table.presence, texts, holding: byte) { block in
                            scanner.scan(block, ids: nil, floor: floor, into: &state)
                        }
                    } else {
                        scanner.scan(scanner.query.bytes.first.map {
                            TextsContainingByte(table, texts, byte: $0, original: false)
                        } ?? TextsContainingByte(everyTextIn: texts), ids: nil, floor: floor,
                                     holdFirstByte: !scanner.query.bytes.isEmpty, into: &state)
                    }
                    if let built = state.selection {
                        // Resume positions a one-byte fuzzy scan left unknown.
                        let pending = PendingResume(prepared)
                        if listed != nil {
                            state.built = [built.build(tailsAfter: tailsAfter)]
                        } else if built.count * Self.viewDivisor(prepared.mode) >= texts.count, let root {
                            state.built = [built.build(base: root, pendingResume: pending, tailsAfter: tailsAfter)]
                        } else if built.count >= Self.backgroundCopyMinimum, let root {
                            // Copied in the background, after the reply.
                            state.built = [built.build(base: root, copyLater: true, pendingResume: pending, tailsAfter: tailsAfter)]
                        } else {
                            var copy = SegmentBuilder(texts: built.count, bytes: built.count * averageBytes, pool: pool)
                            for (p, r) in zip(built.positions, built.resume) {
                                copy.append(table, p, id: p, resume: r < 0 ? pending?.resume(table, p) ?? r : r)
                            }
                            built.discard()
                            state.built = [copy.build(tailsAfter: tailsAfter)]
                        }
                    }
                case .compact(let segments, let skip):
                    // The entries of the segments that fall in lo..<hi. A
                    // piece holding at least 1/4 of the root texts its
                    // entries span yields a view of that root (listing
                    // positions is cheaper than copying, and the next scan
                    // stays nearly sequential); a sparser one copies its
                    // matches.
                    var copyBuilder: SegmentBuilder?
                    var viewBuilder: SegmentBuilder?
                    var viewRoot: CompactSegment?
                    var start = 0
                    for segment in segments {
                        let range = max(lo - start, 0)..<max(min(hi - start, segment.count), max(lo - start, 0))
                        start += segment.count
                        if range.isEmpty { continue }
                        let root = segment.root
                        let span = segment.positions.map { $0[range.upperBound - 1] - $0[range.lowerBound] + 1 }
                            ?? range.count
                        let inline = range.count * Self.narrowingViewDivisor(prepared.mode) < span
                        if compact {
                            if inline {
                                if let view = viewBuilder, let viewRoot { state.built.append(buildView(view, viewRoot)) }
                                viewBuilder = nil
                                viewRoot = nil
                                let perText = root.averageTextBytes
                                state.selection = copyBuilder
                                    ?? SegmentBuilder(texts: hi - lo, bytes: (hi - lo) * perText, pool: pool)
                                copyBuilder = nil
                            } else {
                                if let copy = copyBuilder { state.built.append(copy.build(tailsAfter: tailsAfter)) }
                                copyBuilder = nil
                                if let view = viewBuilder, let viewRoot, viewRoot !== root {
                                    state.built.append(buildView(view, viewRoot))
                                    viewBuilder = nil
                                }
                                viewRoot = root
                                state.selection = viewBuilder ?? SegmentBuilder(texts: hi - lo, bytes: 0, pool: pool)
                                viewBuilder = nil
                            }
                            state.copying = inline
                        }
                        let resume = skip.map { _ in UnsafeBufferPointer(rebasing: segment.resume[range]) }
                        let tailSets = tailSets ? segment.tails.map { UnsafeBufferPointer(rebasing: $0[range]) } : nil
                        segment.withTable { table in
                            var scanner = Scanner(table: table, query: prepared)
                            scanner.knownScores = setScores
                            if let tailSets, let resume, let filter = TailFilter(prepared, skip: skip) {
                                // Candidates decided by their tail sets first,
                                // a block at a time; the block's matches ranked.
                                TailSets.forEachBlock(of: segment.positions.map { UnsafeBufferPointer(rebasing: $0[range]) },
                                                      range, tails: tailSets, resume: resume, skip: skip ?? 0,
                                                      filter: filter,
                                                      takesOnBit: !state.copying, scanner: scanner) { block, matched in
                                    scanner.scan(block, ids: segment.textIds, matched: matched, floor: floor, into: &state)
                                }
                            } else if let positions = segment.positions {
                                scanner.scan(positions[range], ids: segment.textIds, resume: resume, skip: skip ?? 0,
                                             floor: floor, into: &state)
                            } else {
                                scanner.scan(range, ids: segment.textIds, resume: resume, skip: skip ?? 0,
                                             floor: floor, into: &state)
                            }
                        }
                        if inline { copyBuilder = state.selection } else { viewBuilder = state.selection }
                        state.selection = nil
                    }
                    if let copy = copyBuilder { state.built.append(copy.build(tailsAfter: tailsAfter)) }
                    if let view = viewBuilder, let viewRoot { state.built.append(buildView(view, viewRoot)) }
                }
                state.selection = nil
                state.finish()
                return state
            }
            return Parallel.map(chunks, placeholder: ChunkResult()) { scanChunk($0) }
        }

        var matches: [Int] = []
        if keepMatches && !compact {
            if results.count == 1 {
                matches = results[0].matches
            } else {
                matches.reserveCapacity(results.reduce(0) { $0 + $1.matches.count })
                for r in results { matches.append(contentsOf: r.matches) }
            }
        }
        var keys = results.count == 1 ? results[0].keys : results.flatMap(\.keys)
        switch ranking {
        case .none:
            keys = []
        case .firstInSource(let k):
            if keys.count > k { keys.removeSubrange(k...) }
        case .best(let k):
            keys = RankSort.sorted(keys)
            if keys.count > k { keys.removeSubrange(k...) }
        case .all:
            keys = RankSort.sorted(keys)
        }
        let segments = compact ? results.flatMap(\.built) : []
        return (SearchResult(matches: matches, hits: keys.map(\.hit)), segments)
    }
}
