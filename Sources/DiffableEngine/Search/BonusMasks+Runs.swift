/// A score bound from the masks that knows what a run of the query earns.
///
/// `scoreBound` credits every later char with the best bonus any later
/// char has anywhere in the text. Where the query's chars stand together
/// in a run, though, each char follows the query's previous char, so its
/// own bonus is what that pair of classes gives (`inRunCap`): in `.json`
/// the `j` after a `.` earns 8 and `son` after letters at most 7 (a camel
/// hump), whatever the text. A run carries its first char's bonus (or a
/// boundary's within it), so the chars of a run that starts at the query's
/// first char earn at most that carry. An alignment with a gap costs at
/// least `-gapStart` and its chars after the gap earn at most the best
/// bonus of the chars from the gap on.
///
/// So the bound is the best of these kinds of alignment, each read from
/// the masks (each char's best bonus in the text, capped by what its class
/// can earn at all: a `.` earns 8 wherever it stands) and the word pairs
/// (the bonus a letter or digit has where a given char follows it):
/// - one run: the first char at `head` (its bonus where its second char
///   follows it), each later char at the larger of `consecutive`, the
///   carry, and its own bonus capped by its pair's classes;
/// - a first gap before char `g` (the chars before it one run): char `g`
///   at its best bonus, then either no other gap (each later char at the
///   larger of `g`'s bonus where char `g + 1` follows it, and the best a
///   later char earns in a run) or another gap (each later char at the
///   best bonus from `g + 1` on, or that carry).
/// A pair that never stands together in the text (its Bloom bit is
/// missing) rules out every kind of alignment that needs it.
///
/// On a list of paths whose best matches tie (every `.json` path scores
/// 128), this bound is their score, so a longer path is rejected without
/// the pass over its text that `FzfAlgo.runBound` makes.
/// A text whose gapped alignments cannot enter must hold the needle as one
/// run, which a byte search tells before the pass of `FzfAlgo.runBound`.
/// - Complexity: O(m) for a query of m chars (at most
///   `runsMaximumLength`), no allocation.
/// One char of an ASCII needle, as `BonusMasks.oneRunBound` and
/// `gappedBound` read it.
struct RunChar: Sendable {
    /// Its bucket in the masks (`BonusMasks.bucket`).
    let bucket: UInt32
    /// The best bonus its class can earn after any char.
    let anywhere: Int
    /// The best bonus it can earn right after the needle's previous char
    /// (`anywhere` for the first char).
    let inRun: Int
    /// The keys of the pair it starts with the next char of the needle
    /// (`PairKeys.unclassed` for the last).
    let pair: PairKeys
}

extension BonusMasks {
    /// The longest needle the runs bounds take (its per-char values are packed
    /// in 64 bits, 4 bits a char).
    static let runsMaximumLength = 16

    /// The chars of an ASCII needle for the runs bounds. `units`: the compared
    /// chars (their case matters when `caseSensitive`); `folded`: the same
    /// chars folded, as the masks' buckets and the word pairs hold them.
    /// Empty when the needle is not ASCII.
    static func runChars(units: [UInt8], folded: [UInt8], caseSensitive: Bool) -> [RunChar] {
        guard units.count == folded.count, units.allSatisfy({ $0 < 0x80 }) else { return [] }
        return folded.indices.map { k in
            let inRun = k == 0 ? anywhereCap(units[k], caseSensitive: caseSensitive)
                : inRunCap(after: units[k - 1], units[k], caseSensitive: caseSensitive)
            let pair = k + 1 < folded.count ? PairKeys([folded[k], folded[k + 1]]) : .unclassed
            return RunChar(bucket: bucket[Int(folded[k])], anywhere: anywhereCap(units[k], caseSensitive: caseSensitive),
                           inRun: inRun, pair: pair)
        }
    }

    /// The best bonus any scheme gives byte `b` right after byte `a`, in
    /// either case unless `caseSensitive` (`CharClass.boundBonus`).
    static func inRunCap(after a: UInt8, _ b: UInt8, caseSensitive: Bool) -> Int {
        var best = 0
        for x in cases(a, caseSensitive) {
            for y in cases(b, caseSensitive) { best = max(best, bonus(y, after: x)) }
        }
        return best
    }

    /// The best bonus any scheme gives byte `b` after any byte, in either
    /// case unless `caseSensitive`: 10 for a letter or digit, 8 for other
    /// punctuation.
    static func anywhereCap(_ b: UInt8, caseSensitive: Bool) -> Int {
        Int(caseSensitive ? anywhereCaps[Int(b)] : anywhereCapsEitherCase[Int(b)])
    }

    private static let anywhereCaps: [UInt8] = (0...UInt8.max).map { b in
        UInt8((0...UInt8.max).reduce(0) { max($0, bonus(b, after: $1)) })
    }

    private static let anywhereCapsEitherCase: [UInt8] = (0...UInt8.max).map { b in
        cases(b, false).reduce(0) { max($0, anywhereCaps[Int($1)]) }
    }

    private static func bonus(_ b: UInt8, after a: UInt8) -> Int {
        CharClass.boundBonus(prev: CharClass.of(byte: a), cur: CharClass.of(byte: b), byte: b)
    }

    /// `v`, and its other case when it is an ASCII letter and case does
    /// not matter.
    private static func cases(_ v: UInt8, _ caseSensitive: Bool) -> [UInt8] {
        guard !caseSensitive else { return [v] }
        switch v {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return [v, v - 0x20]
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return [v, v + 0x20]
        default: return [v]
        }
    }

    /// The bound described above of a needle of `chars` (`runChars`, 2 to
    /// `runsMaximumLength` of them), in a text with these masks and
    /// `wordPairs`, for its alignments as one run: a few instructions a
    /// char, taken first (a text whose run may enter is read anyway).
    /// - Complexity: O(m), no allocation
    @inline(__always)
    func oneRunBound(_ chars: UnsafeBufferPointer<RunChar>, wordPairs: UInt64) -> Int {
        let m = chars.count
        guard m >= 2, m <= Self.runsMaximumLength, let c = chars.baseAddress else { return .max }
        let first = Swift.min(bonus(c[0].bucket), c[0].anywhere)
        let head = Self.firstPairBonus(c[0].pair, best: first, wordPairs: wordPairs)
        var run = head &* FuzzyScoring.firstCharMultiplier
        var carry = Swift.max(head, FuzzyScoring.consecutive)
        var k = 1
        while k < m {
            let inRun = Swift.min(Swift.min(bonus(c[k].bucket), c[k].anywhere), c[k].inRun)
            if inRun >= FuzzyScoring.boundary { carry = Swift.max(carry, inRun) }
            run &+= Swift.max(inRun, carry)
            k &+= 1
        }
        return FuzzyScoring.match &* m &+ run
    }

    /// The bound described above for the needle's alignments with a gap.
    /// `missingPairs`: bit k set when the needle's chars k - 1 and k never
    /// stand together in the text (the Bloom filter, or what the scan knows
    /// beyond it).
    /// - Complexity: O(m), no allocation
    @inline(__always)
    func gappedBound(_ chars: UnsafeBufferPointer<RunChar>, wordPairs: UInt64, missingPairs: UInt32) -> Int {
        let m = chars.count
        guard m >= 2, m <= Self.runsMaximumLength, let c = chars.baseAddress else { return .max }
        let consecutive = FuzzyScoring.consecutive
        // Each later char's best bonus, the best from it on (at least
        // `consecutive`), and the best a char from it on earns in a run, 4
        // bits each. Two-argument `max` only: the variadic one is a call.
        var own: UInt64 = 0, fromHere: UInt64 = 0, inRunFromHere: UInt64 = 0
        var best = consecutive, bestInRun = consecutive
        var k = m &- 1
        while k >= 1 {
            let b = Swift.min(bonus(c[k].bucket), c[k].anywhere)
            best = Swift.max(best, b)
            bestInRun = Swift.max(bestInRun, Swift.min(b, c[k].inRun))
            let shift = UInt64(truncatingIfNeeded: k &* 4)
            own |= UInt64(truncatingIfNeeded: b) &<< shift
            fromHere |= UInt64(truncatingIfNeeded: best) &<< shift
            inRunFromHere |= UInt64(truncatingIfNeeded: bestInRun) &<< shift
            k &-= 1
        }
        let first = Swift.min(bonus(c[0].bucket), c[0].anywhere)
        let head = Self.firstPairBonus(c[0].pair, best: first, wordPairs: wordPairs)
        // The run from the first char: its bonuses so far and its carry.
        var run = head &* FuzzyScoring.firstCharMultiplier
        var carry = Swift.max(head, consecutive)
        var gapped = Int.min / 2
        k = 1
        while k < m {
            let a = Int(truncatingIfNeeded: own &>> UInt64(truncatingIfNeeded: k &* 4) & 0xF)
            // The first gap before char k: the pairs before it stand.
            if missingPairs & ((1 as UInt32) &<< UInt32(truncatingIfNeeded: k) &- 1) & ~1 == 0 {
                let before = k == 1 ? first &* FuzzyScoring.firstCharMultiplier : run
                var after = 0
                if k &+ 1 < m {
                    let rest = m &- 1 &- k
                    let shift = UInt64(truncatingIfNeeded: (k &+ 1) &* 4)
                    let later = Int(truncatingIfNeeded: fromHere &>> shift & 0xF)
                    let laterInRun = Int(truncatingIfNeeded: inRunFromHere &>> shift & 0xF)
                    // Char k's bonus where char k + 1 follows it: what a run
                    // from char k carries (read only where it may matter).
                    let carried = a > laterInRun ? Self.firstPairBonus(c[k].pair, best: a, wordPairs: wordPairs) : a
                    // Another gap later: each later char at the best from
                    // k + 1 on, or that carry.
                    after = rest &* Swift.max(carried, later) &+ FuzzyScoring.gapStart
                    // No other gap: one run from char k.
                    if missingPairs &>> UInt32(truncatingIfNeeded: k &+ 1) == 0 {
                        after = Swift.max(after, rest &* Swift.max(carried, laterInRun))
                    }
                }
                gapped = Swift.max(gapped, before &+ a &+ after)
            }
            // The run from the first char goes on through char k.
            let inRun = Swift.min(a, c[k].inRun)
            if inRun >= FuzzyScoring.boundary { carry = Swift.max(carry, inRun) }
            run &+= Swift.max(inRun, carry)
            k &+= 1
        }
        return FuzzyScoring.match &* m &+ gapped &+ FuzzyScoring.gapStart
    }
}
