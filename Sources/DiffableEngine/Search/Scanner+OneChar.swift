/// The first letter of a picker's query on a large list: one
/// case-insensitive ASCII char, fuzzy, the best k ranked.
///
/// Every text of a block of `BytePresence.forEachBlock` holds the char, so
/// each ASCII one is a match, kept without reading it; the ranking rejects
/// nearly all of them on their masks' bound and length against the floor.
/// The general loop (`Scanner.scan`) decides the same per text, through
/// checks that serve every kind of query; this loop keeps only the few a
/// one-char query needs, folded into one comparison of packed keys
/// (`SharedFloor.pack`: a text enters only above the heap's worst key
/// and not below another thread's floor). Texts the general loop treats
/// apart (non-ASCII, surrounding whitespace) go through it, one by one.
extension Scanner {
    /// Whether `scanOneCharBest` may replace `scan(…, holdFirstByte: true, …)`
    /// for `state`: a fuzzy query of one case-insensitive ASCII char,
    /// ranking its best k by score and length (or score alone), with masks.
    func takesOneCharBest(_ state: ChunkResult) -> Bool {
        guard case .best = state.ranking else { return false }
        return query.mode == .fuzzy && query.bytes.count == 1 && query.unitBytes.count == 1 && query.foldedIsExact
            && query.extended == nil && !query.needsOffsets && !query.exactStart
            && (query.keyKind == .trimmedLength || query.keyKind == .none)
            && table.masks.count == table.count
    }

    /// `scan(block, ids: nil, floor: floor, holdFirstByte: true, into: &state)`
    /// when `takesOneCharBest(state)`: the same matches kept and the same
    /// best k.
    /// - Complexity: O(block) reads of flags, offsets and masks, plus the
    ///   scoring of the texts whose bound may enter.
    @inline(never)
    func scanOneCharBest(_ block: UnsafeBufferPointer<Int>, floor: SharedFloor?, into state: inout ChunkResult) {
        if state.stopped { return }
        guard let unit = query.unitBytes.first, let base = block.baseAddress else { return }
        let flags = table.flags
        let offsets = table.foldedOffsets
        let masks = table.masks
        let firstBucket = query.firstBucket
        let laterBuckets = query.laterBuckets
        let byLength = query.keyKind == .trimmedLength
        let keepMatches = state.keepMatches
        let copying = state.copying
        let stop = query.stop
        // The flags of a text this loop takes whole: ASCII, no surrounding
        // whitespace, not nil.
        let plain = SearchIndex.Flag.isASCII
        let apart = SearchIndex.Flag.isASCII | SearchIndex.Flag.hasOuterSpace | SearchIndex.Flag.isNil
        var builder = state.selection
        state.selection = nil
        var top = state.top
        state.top = TopK(capacity: 0)
        defer {
            state.selection = builder
            state.top = top
        }
        /// The lowest packed key that may still enter: above the full
        /// heap's worst, and not below the shared floor.
        @inline(__always) func bar() -> UInt64 {
            var low = floor?.value ?? 0
            if top.isFull, let worst = top.worst {
                low = max(low, SharedFloor.pack(score: worst.score, length: worst.length) &+ 1)
            }
            return low
        }
        var low = bar()
        query.pairBits.withUnsafeBufferPointer { pairs in
            for n in 0..<block.count {
                if n & 0xFFF == 0, let stop, stop.isStopped {
                    state.stopped = true
                    return
                }
                let i = base[n]
                if flags[i] & apart != plain {
                    // Handed to the general loop with the state it keeps.
                    state.selection = builder
                    state.top = top
                    builder = nil
                    scan(UnsafeBufferPointer(start: base + n, count: 1), ids: nil, floor: floor, holdFirstByte: true,
                         into: &state)
                    builder = state.selection
                    top = state.top
                    state.selection = nil
                    state.top = TopK(capacity: 0)
                    if state.stopped { return }
                    low = bar()
                    continue
                }
                if keepMatches {
                    if builder != nil {
                        if copying { builder?.append(table, i, id: i, resume: -1) } else { builder?.select(i, resume: -1) }
                    } else {
                        state.matches.append(i)
                    }
                }
                let length = byLength ? min(offsets[i &+ 1] &- offsets[i], 65535) : 0
                let quick = masks[i].scoreBound(first: firstBucket, later: laterBuckets, pairs: pairs, length: 1)
                if SharedFloor.pack(score: quick, length: length) < low { continue }
                // Another thread may have raised the floor meanwhile.
                low = bar()
                if SharedFloor.pack(score: quick, length: length) < low { continue }
                guard let score = FuzzyMatcher.oneCharScore(table, i, unit: unit, query: query),
                      SharedFloor.pack(score: score, length: length) >= low else { continue }
                top.insert(RankKey(score: score, length: length, index: i))
                if let floor, top.isFull, let worst = top.worst {
                    floor.raise(to: SharedFloor.pack(score: worst.score, length: worst.length))
                }
                low = bar()
            }
        }
    }
}
