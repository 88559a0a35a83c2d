/// Matches and scores texts of one table for one prepared query.
struct Scanner {
    let table: TextTable
    let query: PreparedQuery
    let workspace = FuzzyWorkspace()
    /// Scores of the query's one-term sets known from earlier keystrokes
    /// of the chain (`TermScores`), read and recorded by ranked scans.
    var knownScores: SetScoreTables?

    /// Scans `candidates` (positions in `table`, ascending, in range) into
    /// `state`. `ids` maps a position to its index in the `SearchIndex`
    /// (`nil` = the same); ranking and matches use those indices. Fuzzy
    /// matching of the k-th candidate resumes at `resume[k]` with
    /// `needle[skip...]` (`resume` = `nil` or an entry < 0: from scratch).
    /// `holdFirstByte`: every candidate is known to hold the needle's first
    /// byte (`TextsContainingByte`), so a one-byte substring needle matches
    /// without a look when nothing is ranked.
    /// `matched`: the candidates are known fuzzy matches (`TailSets`),
    /// the k-th ending at `matched.ends[k]` (-1: found later), its last
    /// needle pair split by a gap when `matched.split[k]` (a pair whose
    /// Bloom bit is `matched.pairBit`).
    /// - Complexity: O(Σ L) matching + scoring of the kept matches.
    @inline(__always)
    func scan<C: Sequence>(_ candidates: C, ids: UnsafeBufferPointer<Int>?,
                           resume: UnsafeBufferPointer<Int32>? = nil, skip: Int = 0,
                           matched: TailMatches? = nil,
                           floor: SharedFloor? = nil, holdFirstByte: Bool = false, into state: inout ChunkResult)
    where C.Element == Int {
        if state.stopped { return }
        if state.keepMatches && state.selection == nil {
            state.matches.reserveCapacity(candidates.underestimatedCount / 4)
        }
        // Work on local copies (moved back at the end): no per-text copy of
        // the optional builder out of `state`.
        var builder = state.selection
        state.selection = nil
        let selecting = state.keepMatches && builder != nil
        let copying = state.copying
        var top = state.top
        state.top = TopK(capacity: 0)
        defer {
            state.selection = builder
            state.top = top
        }
        var k = -1
        var firstK = Int.max
        if case .firstInSource(let k) = state.ranking { firstK = max(k, 0) }
        let bound = FuzzyMatcher.maxScore(queryLength: query.scalars.count)
        let oneChar = query.mode == .fuzzy && query.scalars.count == 1
        // Fuzzy bounds from the bonus masks (the table has one per text).
        let masks = table.masks
        let useMasks = query.mode == .fuzzy && query.isASCII && !query.bytes.isEmpty && masks.count == table.count
        let queryLength = query.scalars.count
        // Unranked substring matching only asks whether the needle occurs
        // (no position bonus), and not even that for a one-byte needle the
        // candidates are known to hold.
        var ranked = true
        if case .none = state.ranking { ranked = false }
        let known1Byte = !ranked && holdFirstByte && query.bytes.count == 1
        // A one-byte fuzzy needle matches every candidate known to hold its
        // byte. Its resume positions (where the byte first occurs) are left
        // unknown (-1: from scratch) and found after the reply
        // (`CompactSegment.pendingResume`), so this key does not read the
        // texts it matches.
        let fuzzy1Byte = holdFirstByte && query.mode == .fuzzy && query.bytes.count == 1 && query.foldedIsExact
        let lastPairBit = matched?.pairBit ?? 0
        // Read once: an optional holding arrays costs reference counting per
        // read, and this loop runs per candidate.
        let extended = query.extended
        let extendedBounds = query.extendedBounds
        let hasExtendedBounds = extendedBounds != nil
        // A ranked ASCII text of an extended query (not of fields) is
        // scored set by set, stopping once it cannot enter.
        let stagedScoring = hasExtendedBounds && extended?.fielded == false && !query.needsOffsets && !query.exactStart
        let setBounds = stagedScoring ? workspace.setBounds(for: extended?.sets.count ?? 0) : nil
        let knownScores = stagedScoring ? self.knownScores : nil
        // The needle form of an extended query (`NeedleOffsets`): every
        // bound is raised by what its other sets may earn, and a text that
        // may enter is scored as the whole query.
        let needleOffsets = query.needleOffsets
        let needleSet = needleOffsets?.needleSet ?? 0
        let needleSetBounds = needleOffsets.map { workspace.setBounds(for: $0.extended.sets.count) }
        let needleKnown = needleOffsets == nil ? nil : self.knownScores
        // Along a chain (the needle resumes), the other sets' bounds are
        // tightened and kept for every candidate, since the next keys read
        // them; at its first key, only for the texts the needle admits.
        let eagerBase = resume != nil || matched != nil
        // The bytes every match holds, checked here before the bounds are
        // called (most texts of a large scan lack one).
        let required = extendedBounds?.required ?? 0
        let presence = table.presence
        let checksPresence = required != 0 && presence.count == table.count
        let anchors = extendedBounds?.anchors
        let refinesExtended = extendedBounds?.refinable ?? false
        let runsRefine = (extendedBounds?.runsRefinable ?? false) && masks.count == table.count
        let fieldViews = extended?.fielded == true ? workspace.fieldViews : nil
        let oneCharUnit = query.pattern.isASCII ? query.unitBytes.first : nil
        let needsOffsets = query.needsOffsets
        let queryIsEmpty = query.isEmpty
        let stop = query.stop
        // A fuzzy term of two chars or more is bounded by its runs before
        // the DP (ASCII texts).
        let runBounded = query.mode == .fuzzy && query.pattern.isASCII && queryLength >= 2 && extended == nil
        let noPairs = UnsafeBufferPointer<UInt32>(start: nil, count: 0)
        query.bytes.withUnsafeBufferPointer { needle in query.pairBits.withUnsafeBufferPointer { pairs in
        query.unitBytes.withUnsafeBufferPointer { units in query.runChars.withUnsafeBufferPointer { runChars in
            for i in candidates {
                k &+= 1
                // A stopped search's result is discarded: leave at once.
                if k & 0xFFF == 0, let stop, stop.isStopped {
                    state.stopped = true
                    return
                }
                // 1. Match (and the score when it is free).
                var known: Int?
                var knownOffsets: FzfOffsets?
                var end = 0
                // The last needle byte never follows the one before it
                // (the candidate's followers): a gap in every alignment.
                var splitLast = false
                var extendedBound: Int?
                if queryIsEmpty {
                    known = 0
                } else if let extended {
                    // Term by term: no needle, no resume position. An
                    // ASCII text is matched on its terms' placements and
                    // scored only if its bound may enter (`FzfQueryBounds`).
                    // Optional chaining reads the bounds in place; binding
                    // them here would copy (retain) their storage per text.
                    // Where a term ended is not recorded (-1: unknown).
                    end = -1
                    if hasExtendedBounds, table.isASCII(i) {
                        if checksPresence && presence[i] & required != required { continue }
                        if let anchors, !anchors.admits(table.foldedText(i)) { continue }
                        let textID = knownScores == nil ? 0 : ids.map { $0[i] } ?? i
                        guard let b = extendedBounds?.bound(table, i, masks: masks.count == table.count ? masks[i] : .unknown,
                                                            query: extended, fields: fieldViews,
                                                            setBounds: setBounds, known: knownScores,
                                                            id: textID) ?? nil else { continue }
                        extendedBound = b
                    } else {
                        guard let (s, offsets) = extendedMatch(extended, i) else { continue }
                        known = s
                        knownOffsets = offsets
                    }
                } else if query.mode == .substring {
                    if ranked {
                        guard let s = SubstringMatcher.score(table, i, needle: needle) else { continue }
                        known = s
                    } else if !known1Byte {
                        guard !table.isNil(i),
                              SubstringMatcher.firstOccurrence(of: needle, in: table.foldedText(i)) != nil
                        else { continue }
                    }
                } else if fuzzy1Byte {
                    // Folded bytes only prefilter a non-ASCII text.
                    if !table.isASCII(i) && !FuzzyMatcher.scalarsMatch(table, i, pattern: query.pattern) { continue }
                    end = -1
                } else if let matched {
                    end = Int(matched.ends[k])
                    splitLast = matched.split[k]
                } else {
                    guard let e = FuzzyMatcher.resumedEnd(table, i, query: query, needle: needle,
                                                          resume: resume.map { Int($0[k]) } ?? 0, skip: skip)
                    else { continue }
                    end = e
                }
                // The index in the `SearchIndex`, read only when needed (a
                // view's selection and a rejected key do without).
                @inline(__always) func id() -> Int { ids.map { $0[i] } ?? i }
                if state.keepMatches {
                    if selecting {
                        let r = end >= 0 && end <= Int(Int32.max) ? Int32(end) : -1
                        if copying { builder?.append(table, i, id: id(), resume: r) } else { builder?.select(i, resume: r) }
                    } else {
                        state.matches.append(id())
                    }
                }
                // 2. Rank.
                switch state.ranking {
                case .none:
                    continue
                case .firstInSource:
                    if state.keys.count < firstK, let (s, key) = scoredKey(i, known: known, offsets: knownOffsets, extended: extended) {
                        state.keys.append(RankKey(score: s, length: key, index: id()))
                    } else if !state.keepMatches {
                        state.stopped = true
                        return
                    }
                case .all:
                    if let (s, key) = scoredKey(i, known: known, offsets: knownOffsets, extended: extended) {
                        state.keys.append(RankKey(score: s, length: key, index: id()))
                    }
                case .best:
                    let length = rankLength(i)
                    // Another thread already keeps k keys better than this
                    // text can score: skip it.
                    let shared = floor?.value ?? 0
                    // What the other sets of the needle's query may earn
                    // (a non-ASCII text is scored whatever its bounds).
                    var base = 0
                    var needleRun = bound
                    // Some other set bounded by the masks alone: tightened
                    // only once the needle's bounds admit the text.
                    var looseBase = false
                    if let needleOffsets, let needleSetBounds {
                        base = table.isASCII(i)
                            ? needleOffsets.bounds.knownSetsBound(masks: masks.count == table.count ? masks[i] : .unknown,
                                                                  wordPairs: eagerBase ? table.wordPairsOf(i) : 0,
                                                                  setBounds: needleSetBounds,
                                                                  known: needleKnown, id: id(), skipping: needleSet,
                                                                  tightening: eagerBase, unknown: &looseBase)
                            : needleOffsets.bounds.maxScore
                    }
                    let best = known ?? extendedBound ?? bound
                    if shared != 0 && SharedFloor.pack(score: best &+ base, length: length) < shared { continue }
                    // Skip the DP when even the best possible score cannot
                    // enter (indices ascend within a chunk, so a full tie
                    // never enters: no need to read the index).
                    // A floor (another thread's, or probed before the scan)
                    // lets the bounds reject before this heap is full.
                    if top.isFull || shared != 0 {
                        if !top.admitsNext(score: best &+ base, length: length) { continue }
                        if refinesExtended || runsRefine, let loose = extendedBound {
                            let textMasks = masks.count == table.count ? masks[i] : .unknown
                            let wordPairs = table.wordPairsOf(i), textID = knownScores == nil ? 0 : id()
                            var tight = loose
                            var enters = true
                            if refinesExtended {
                                // Where its sets' first pairs stand (the text's
                                // word pairs, read only now).
                                tight = extendedBounds?.tightened(tight, masks: textMasks, wordPairs: wordPairs,
                                                                  setBounds: setBounds, known: knownScores, id: textID)
                                    ?? tight
                                enters = top.admitsNext(score: tight &+ base, length: length)
                                    && (shared == 0 || SharedFloor.pack(score: tight &+ base, length: length) >= shared)
                            }
                            if enters && runsRefine, let setBounds {
                                // What its exact sets' runs earn, before they
                                // are scored.
                                tight = extendedBounds?.runsTightened(tight, masks: textMasks, wordPairs: wordPairs,
                                                                      setBounds: setBounds, known: knownScores, id: textID)
                                    ?? tight
                                enters = top.admitsNext(score: tight &+ base, length: length)
                                    && (shared == 0 || SharedFloor.pack(score: tight &+ base, length: length) >= shared)
                            }
                            // Kept for the chain's next keys, which then read
                            // these sets' bounds instead of the masks.
                            if let knownScores, let setBounds {
                                extendedBounds?.recordLooseBounds(setBounds, known: knownScores, id: textID)
                            }
                            if !enters { continue }
                            extendedBound = tight
                        }
                        if known == nil && extendedBound == nil {
                            // A bound from the masks (a few instructions)
                            // rejects most texts before one that reads them.
                            if useMasks {
                                var quick = masks[i].scoreBound(first: query.firstBucket, later: query.laterBuckets,
                                                                pairs: pairs, length: queryLength)
                                // A gap the Bloom filter missed (it held the pair).
                                if splitLast && masks[i].pairs & lastPairBit != 0 { quick &+= FuzzyScoring.gapStart }
                                if !top.admitsNext(score: quick &+ base, length: length) { continue }
                                if shared != 0 && SharedFloor.pack(score: quick &+ base, length: length) < shared { continue }
                                // Where the query's first pair stands: tighter, at a
                                // few more instructions, on what passed.
                                if query.firstPairKeys.classed,
                                   case let wordPairs = table.wordPairsOf(i),
                                   masks[i].firstPairEarnsLess(query.firstPairKeys, first: query.firstBucket,
                                                               wordPairs: wordPairs) {
                                    let run = masks[i].firstPairBound(first: query.firstBucket, later: query.laterBuckets,
                                                                      firstPair: query.firstPairKeys, wordPairs: wordPairs,
                                                                      pairs: pairs,
                                                                      length: queryLength, lastPairSplit: splitLast)
                                    if !top.admitsNext(score: run &+ base, length: length) { continue }
                                    if shared != 0 && SharedFloor.pack(score: run &+ base, length: length) < shared { continue }
                                }
                            }
                            if oneChar && table.isASCII(i) && !needsOffsets, let unit = oneCharUnit {
                                // One char on ASCII: fzf's rule in one pass (the
                                // cost of a bound), so no bound and no DP.
                                guard let s = FuzzyMatcher.oneCharScore(table, i, unit: unit, query: query)
                                else { continue }
                                if !top.admitsNext(score: s &+ base, length: length) { continue }
                                if shared != 0 && SharedFloor.pack(score: s &+ base, length: length) < shared { continue }
                                known = s
                            } else if runBounded && table.isASCII(i) {
                                // Whether the text holds the query as one run
                                // (nil: not looked for yet).
                                var holdsRun: Bool?
                                if useMasks {
                                    // A text that does not hold the query as one
                                    // run has a gap in every alignment: the masks'
                                    // bound without pairs, less a gap, bounds it
                                    // (a byte search, cheaper than the run bound).
                                    let gapped = masks[i].scoreBound(first: query.firstBucket, later: query.laterBuckets,
                                                                     pairs: noPairs, length: queryLength)
                                        &+ FuzzyScoring.gapStart
                                    if !top.admitsNext(score: gapped &+ base, length: length)
                                        || (shared != 0 && SharedFloor.pack(score: gapped &+ base, length: length) < shared) {
                                        let found = SubstringMatcher.firstOccurrence(
                                            of: units, in: query.caseSensitive ? table.original(i) : table.foldedText(i)) != nil
                                        if !found { continue }
                                        holdsRun = true
                                    }
                                }
                                if useMasks && !runChars.isEmpty {
                                    // What runs of the query earn, from the masks
                                    // and word pairs, taken only before the run
                                    // bound's pass: a tie at the floor's score is
                                    // rejected unread.
                                    let textMasks = masks[i]
                                    var missing: UInt32 = splitLast ? 1 << UInt32(pairs.count) : 0
                                    var pair: UInt32 = 1
                                    for bit in pairs {
                                        if textMasks.pairs & bit == 0 { missing |= 1 << pair }
                                        pair &+= 1
                                    }
                                    let wordPairs = table.wordPairsOf(i)
                                    let run = missing == 0 ? textMasks.oneRunBound(runChars, wordPairs: wordPairs) : Int.min / 2
                                    let runEnters = top.admitsNext(score: run &+ base, length: length)
                                        && (shared == 0 || SharedFloor.pack(score: run &+ base, length: length) >= shared)
                                    // A text known to hold the run, whose run may
                                    // enter, goes on as it is.
                                    if !(runEnters && holdsRun == true) {
                                        let gapped = textMasks.gappedBound(runChars, wordPairs: wordPairs,
                                                                           missingPairs: missing)
                                        let gappedEnters = top.admitsNext(score: gapped &+ base, length: length)
                                            && (shared == 0 || SharedFloor.pack(score: gapped &+ base, length: length) >= shared)
                                        if !gappedEnters {
                                            // Only a run can enter: the text must hold
                                            // one (a byte search).
                                            if !runEnters { continue }
                                            if holdsRun == nil, SubstringMatcher.firstOccurrence(
                                                of: units, in: query.caseSensitive ? table.original(i) : table.foldedText(i)) == nil {
                                                continue
                                            }
                                        }
                                    }
                                }
                                // One pass over the text, and tighter than
                                // the two bounds below on most texts.
                                let run = FuzzyMatcher.runBound(table, i, query: query, units: units)
                                if !top.admitsNext(score: run &+ base, length: length) { continue }
                                if shared != 0 && SharedFloor.pack(score: run &+ base, length: length) < shared { continue }
                                needleRun = run
                            } else {
                                var tight = FuzzyMatcher.maxScore(table, i, query: query, needle: needle)
                                if !top.admitsNext(score: tight &+ base, length: length) { continue }
                                if shared != 0 && SharedFloor.pack(score: tight &+ base, length: length) < shared { continue }
                                // About to be scored: first the gaps it cannot avoid.
                                if !oneChar {
                                    tight &+= FuzzyMatcher.splitPairGaps(table, i, query: query, needle: needle)
                                    if !top.admitsNext(score: tight &+ base, length: length) { continue }
                                    if shared != 0 && SharedFloor.pack(score: tight &+ base, length: length) < shared { continue }
                                }
                            }
                        }
                    }
                    if looseBase && !eagerBase, let needleOffsets, let needleSetBounds, top.isFull || shared != 0 {
                        // The other sets tightened, and kept for the next keys.
                        base = needleOffsets.bounds.knownSetsBound(masks: masks[i], wordPairs: table.wordPairsOf(i),
                                                                   setBounds: needleSetBounds, known: needleKnown,
                                                                   id: id(), skipping: needleSet,
                                                                   tightening: true, unknown: &looseBase)
                        let needle = known ?? needleRun
                        if !top.admitsNext(score: needle &+ base, length: length) { continue }
                        if shared != 0 && SharedFloor.pack(score: needle &+ base, length: length) < shared { continue }
                    }
                    let scored: (score: Int, key: Int)?
                    if let needleOffsets {
                        scored = needleScore(needleOffsets, i, setBounds: needleSetBounds, needleRun: needleRun,
                                             known: needleKnown, id: id(), length: length) { b in
                            top.admitsNext(score: b, length: length)
                                && (shared == 0 || SharedFloor.pack(score: b, length: length) >= shared)
                        }
                    } else if let setBounds, extendedBound != nil, top.isFull || shared != 0 {
                        // Set by set, stopped once it cannot enter (the key
                        // is `length`: no tie-break reads the spans here).
                        var offsets = FzfOffsets()
                        scored = (extendedBounds?.asciiScore(
                            table, i, scheme: query.scheme, forward: query.forward, workspace: workspace,
                            offsets: &offsets, setBounds: setBounds, known: knownScores, id: id(),
                            admitted: { b in
                                top.admitsNext(score: b, length: length)
                                    && (shared == 0 || SharedFloor.pack(score: b, length: length) >= shared)
                            }) ?? nil).map { ($0, length) }
                    } else {
                        scored = scoredKey(i, known: known, offsets: knownOffsets, extended: extended)
                    }
                    if let (s, key) = scored {
                        top.insert(RankKey(score: s, length: key, index: id()))
                        if let floor, top.isFull, let worst = top.worst {
                            floor.raise(to: SharedFloor.pack(score: worst.score, length: worst.length))
                        }
                    }
                }
            }
        } } } }
    }
}
