/// Tail sets: per entry of a fuzzy match set, the bytes its text holds
/// after the match, so that the next keystroke decides most texts without
/// reading them.
///
/// ## Why
///
/// Greedy subsequence matching is incremental: a text matches `q + c` if
/// and only if it matches `q` and holds `c` after the end of `q`'s greedy
/// match (its resume position). So the second keystroke of a common
/// first letter ("s", then "sr", where most texts are candidates)
/// would spend its time reading every candidate's text from its resume
/// position to find one byte, though the answer is a single bit of
/// information per text.
///
/// ## What is kept
///
/// `CompactSegment.tails[k]` is the `BytePresence` set (a bit per ASCII
/// letter and digit, exact; 28 shared bits for every other byte) of the
/// folded bytes of entry `k`'s text from its resume position on. A
/// narrowing scan whose needle has bytes `needle[skip...]` left to match:
///
/// - rejects the text when a byte it needs has no bit in the set (exact
///   for every byte: a byte that occurs sets its bit), without reading it;
/// - accepts it unread when exactly one byte is left, its bit is its own
///   (a letter or a digit) and set, and the text is ASCII (no scalar
///   boundary to confirm). Its own resume position (where that byte
///   first occurs) is then left unknown (-1) and found after the reply by
///   the match set's background task (`PendingResume`), as a first
///   keystroke's are;
/// - otherwise matches as before (`FuzzyMatcher.matchEnd`).
///
/// Ranking the best k of the matches (a viewport's rows) bounds each
/// text's score before scoring it: `BonusMasks` subtract a gap for each
/// query pair a 32-bit Bloom filter of the text's adjacent pairs lacks,
/// and a short filter lets many texts through by a false positive ("sr"
/// in "Sarah Rodriguez"), each then read for a tighter bound.
/// So each entry also keeps the followers of the query's last byte (the
/// bytes right after one of its occurrences from the end of the match
/// on): a next byte outside them is never adjacent to it in any
/// alignment, a gap the bound subtracts without reading the text.
///
/// The sets describe folded text, so only case-insensitive fuzzy queries
/// keep and use them (smart case matches a query with an uppercase letter
/// against the original text).
///
/// ## Cost
///
/// 16 bytes per entry of a match set. They are found after the reply by a
/// background task of their own (`SearchMatchSet+TailSets`), which reads
/// each matched text from its resume position to its end; a keystroke
/// that comes before they are all found does without them.
enum TailSets {
    /// Whether a scan for `query` keeps tail sets in the segments it
    /// builds (non-empty, fuzzy, case-insensitive): the needle's last byte,
    /// whose followers they hold, else nil.
    static func kept(for query: PreparedQuery) -> UInt8? {
        guard query.mode == .fuzzy, query.foldedIsExact else { return nil }
        return query.bytes.last
    }

    /// The tail set of text `i` of `table` from `resume` on, with the
    /// followers of `last` (the needle's last byte) from `resume - 1` on
    /// (`TailSet.unknown` when `resume` is unknown).
    /// - Complexity: O(bytes after `resume`)
    @inline(__always)
    static func tail(_ table: TextTable, _ i: Int, from resume: Int32, last: UInt8,
                     bits: UnsafeBufferPointer<UInt64>) -> TailSet {
        guard resume > 0 else { return .unknown }
        let folded = table.foldedText(i)
        let n = folded.count
        let start = min(Int(resume), n)
        var set = TailSet(bytes: BytePresence.of(UnsafeBufferPointer(rebasing: folded[start...]), bits), followers: 0)
        guard let base = folded.baseAddress else { return set }
        // The needle's last byte matched at `start - 1` at the earliest.
        var j = ByteScan.find(last, base, from: start &- 1, end: n)
        while j &+ 1 < n {
            set.followers |= bits[Int(base[j &+ 1])]
            j = ByteScan.find(last, base, from: j &+ 1, end: n)
        }
        return set
    }
}

/// What a match set entry's text holds after its match (see `TailSets`).
struct TailSet: Sendable, BitwiseCopyable {
    /// `BytePresence` set of the folded bytes from the resume position on.
    var bytes: UInt64
    /// `BytePresence` set of the bytes that immediately follow the query's
    /// last byte, at or after the resume position minus one (where an
    /// alignment of the query ends at the earliest): a byte outside it
    /// stands apart from that last byte in every alignment of the query
    /// extended by it, a gap that costs at least `-gapStart`.
    var followers: UInt64

    /// Rejects nothing, bounds nothing.
    static let unknown = TailSet(bytes: .max, followers: .max)
}

extension TailSets {
    /// Candidates per block of `forEachBlock`.
    static let blockSize = 4096

    /// Calls `body` with the matches among a segment's candidates (its
    /// entries `range`, at table positions `positions`, nil: `range`
    /// itself), a block at a time: those whose tail set holds every needle
    /// byte still to match, then taken on their bit (`takesOnBit`: resume
    /// position -1, found later) or matched from their resume position.
    /// `tails` and `resume` are the entries' own (`range` rebased to 0);
    /// `skip`: the needle bytes their resume positions have matched.
    /// Deciding them in a loop of their own, before the ranking scan, keeps
    /// that loop as it is for the other scans: with the tail tests inside
    /// it, it spills registers.
    /// - Complexity: O(candidates), plus matching those not decided by a bit.
    static func forEachBlock(
        of positions: UnsafeBufferPointer<Int>?, _ range: Range<Int>, tails: UnsafeBufferPointer<TailSet>,
        resume: UnsafeBufferPointer<Int32>, skip: Int, filter: TailFilter, takesOnBit: Bool, scanner: Scanner,
        _ body: (UnsafeBufferPointer<Int>, TailMatches) -> Void
    ) {
        let block = UnsafeMutablePointer<Int>.allocate(capacity: blockSize)
        let ends = UnsafeMutablePointer<Int32>.allocate(capacity: blockSize)
        let split = UnsafeMutablePointer<Bool>.allocate(capacity: blockSize)
        defer { block.deallocate(); ends.deallocate(); split.deallocate() }
        let table = scanner.table, query = scanner.query
        let acceptsOnBit = filter.acceptsOnBit && takesOnBit
        query.bytes.withUnsafeBufferPointer { needle in
            var k = 0
            let count = range.count
            while k < count {
                let stop = min(k &+ blockSize, count)
                var n = 0
                while k < stop {
                    defer { k &+= 1 }
                    let i = positions.map { $0[k] } ?? range.lowerBound &+ k
                    let tail = tails[k]
                    let start = Int(resume[k])
                    // A tail set describes the text from a known resume position.
                    let known = start > 0
                    if known && tail.bytes & filter.need != filter.need { continue }
                    var end = -1
                    if !(known && acceptsOnBit && table.isASCII(i)) {
                        guard let e = FuzzyMatcher.resumedEnd(table, i, query: query, needle: needle,
                                                              resume: start, skip: skip) else { continue }
                        end = e
                    }
                    block[n] = i
                    ends[n] = end >= 0 && end <= Int(Int32.max) ? Int32(truncatingIfNeeded: end) : -1
                    // With more than one byte left there is no last pair to
                    // prove split (`lastBit` 0).
                    split[n] = known && filter.lastBit != 0 && tail.followers & filter.lastBit == 0
                    n &+= 1
                }
                if n > 0 {
                    body(UnsafeBufferPointer(start: block, count: n),
                         TailMatches(ends: UnsafeBufferPointer(start: ends, count: n),
                                     split: UnsafeBufferPointer(start: split, count: n), pairBit: filter.lastPairBit))
                }
            }
        }
    }
}

/// A block of known matches (`TailSets.forEachBlock`) for `Scanner.scan`.
struct TailMatches {
    /// Where each match ends (-1: found later).
    let ends: UnsafeBufferPointer<Int32>
    /// Whether the needle's last pair is split by a gap in every alignment.
    let split: UnsafeBufferPointer<Bool>
    /// The Bloom bit of that last pair (`BonusMasks.pairBit`).
    let pairBit: UInt32
}

/// What a narrowing scan tests against a candidate's tail set.
struct TailFilter {
    /// The bits of every needle byte still to match.
    let need: UInt64
    /// Exactly one byte is left and its bit is its own: a set bit in an
    /// ASCII text is a match.
    let acceptsOnBit: Bool
    /// With one byte left: its bit, and the Bloom bit (`BonusMasks.pairBit`)
    /// of the pair it makes with the byte before it, whose gap a
    /// candidate's followers may prove (0: not applicable).
    let lastBit: UInt64
    let lastPairBit: UInt32

    /// Nil when the scan cannot use tail sets (not fuzzy, case-sensitive,
    /// not resuming, nothing left to match).
    init?(_ query: PreparedQuery, skip: Int?) {
        guard let skip, query.mode == .fuzzy, query.foldedIsExact, skip < query.bytes.count else { return nil }
        let rest = query.bytes[skip...]
        need = rest.reduce(0) { $0 | BytePresence.bits[Int($1)] }
        acceptsOnBit = rest.count == 1 && rest.first.map(BytePresence.isExact) == true
        if rest.count == 1, skip > 0, query.isASCII, let c = rest.first {
            lastBit = BytePresence.bits[Int(c)]
            lastPairBit = BonusMasks.pairBit(query.bytes[skip - 1], c)
        } else {
            lastBit = 0
            lastPairBit = 0
        }
    }
}
