/// Which bytes of an ASCII text sit at a word boundary: a summary, computed
/// once per text when the index is built, from which a score bound for any
/// fuzzy query takes a few instructions instead of a pass over the text.
///
/// Ranking the best k of many matches (a common two-letter query over a
/// large source)
/// spends most of its time proving that a text cannot enter the top: its
/// tightest bound (`FuzzyMatcher.maxScore(_:_:query:needle:)`) reads the
/// whole text. Most texts are rejected by a looser bound that knows only
/// the best position bonus each query byte can have in the text: the masks
/// say which bytes occur at a position with a bonus of 10, of 8 or 9, and
/// of any other bonus (at most 7) (bytes are grouped into 32 buckets, case-insensitive;
/// a shared bucket only loosens the bound). A run of the query carries its
/// first char's bonus on to the chars after it, so the best bonus of the
/// query's first char is also what its later chars may earn, unless the
/// text tells that the first char stands before the second only where it
/// earns less. A text's *word pairs* (8 bytes, kept apart from the masks
/// so that scans that never read them do not carry them) are a 64-bit
/// Bloom filter of the byte pairs that stand next to each other with a
/// letter or digit first, keyed by that first byte's bonus
/// (`PairKeys.key`: 10, 9, 8 or 7; a bonus of 0 adds no key): `.swift`
/// holds `sw` after a `.` (8), so `sw` in `src/view/grid.swift` scores at
/// most 56, not the 62 of an `s` at the start (10) carried onto a `w`.
///
/// - Complexity: 16 bytes per text, and 8 of word pairs; O(length) to
///   compute.
struct BonusMasks: Sendable, Equatable {
    /// Buckets of bytes at a position whose bonus is `boundaryWhite` (10).
    var white: UInt32
    /// Buckets of bytes at a position whose bonus is at least 8.
    var boundary: UInt32
    /// Buckets of bytes at a position with any bonus (else at most 7).
    var any: UInt32
    /// A 32-bit Bloom filter of the byte pairs that stand next to each other
    /// (`pairBit`): a query pair absent from it is split by a gap in every
    /// alignment, which costs at least `-gapStart`.
    var pairs: UInt32

    /// Bounds nothing (a text the masks do not describe, e.g. non-ASCII).
    static let unknown = BonusMasks(white: .max, boundary: .max, any: .max, pairs: .max)

    /// The word pairs of a text the masks do not describe: every key set.
    static let unknownWordPairs: UInt64 = .max

    /// The bucket of each byte: letters by their lowercase, digits
    /// together, a few path punctuation marks apart, the rest together.
    static let bucket: [UInt32] = (0..<256).map { v -> UInt32 in
        let b = UInt8(v)
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return 1 << UInt32(b - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return 1 << UInt32(b - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return 1 << 26
        case UInt8(ascii: "/"): return 1 << 27
        case UInt8(ascii: "_"): return 1 << 28
        case UInt8(ascii: "."): return 1 << 29
        case UInt8(ascii: "-"): return 1 << 30
        default: return 1 << 31
        }
    }

    /// The Bloom bit of byte `a` followed by byte `b` (ASCII letters in
    /// either case alike, as in the folded text).
    /// - Complexity: O(1)
    @inline(__always) static func pairBit(_ a: UInt8, _ b: UInt8) -> UInt32 {
        @inline(__always) func lower(_ v: UInt8) -> UInt64 { UInt64(v &- 0x41 < 26 ? v | 0x20 : v) }
        let key = (lower(a) &* pairFirst) ^ (lower(b) &* pairSecond)
        return 1 << UInt32(truncatingIfNeeded: key >> 59)
    }

    /// The multipliers of a pair's first and second byte in `pairBit`.
    static let pairFirst: UInt64 = 0x9E37_79B9_7F4A_7C15
    static let pairSecond: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    /// The Bloom bits of the adjacent pairs of `needle`.
    static func pairBits(_ needle: [UInt8]) -> [UInt32] {
        zip(needle, needle.dropFirst()).map { pairBit($0, $1) }
    }

    /// The best bonus a byte of `bits` (buckets) can have in this text.
    /// - Complexity: O(1)
    @inline(__always) func bonus(_ bits: UInt32) -> Int {
        if white & bits != 0 { return FuzzyScoring.boundaryWhite }
        if boundary & bits != 0 { return FuzzyScoring.boundaryDelimiter }
        if any & bits != 0 { return FuzzyScoring.camel123 }
        return 0
    }

    /// The best bonus the needle's first byte can have where its second
    /// byte follows it (`keys` of that pair, in a text's `wordPairs`): 10,
    /// 9, 8, 7 or 0 (the first
    /// byte is a letter or digit), or `best` when the keys do not classify
    /// it. Never above `best`, which a false positive cannot raise.
    /// - Complexity: O(1), no branch
    @inline(__always) static func firstPairBonus(_ keys: PairKeys, best: Int, wordPairs: UInt64) -> Int {
        var b = wordPairs & keys.other != 0 ? FuzzyScoring.camel123 : 0
        b = wordPairs & keys.boundary != 0 ? FuzzyScoring.boundary : b
        b = wordPairs & keys.delimiter != 0 ? FuzzyScoring.boundaryDelimiter : b
        b = wordPairs & keys.white != 0 ? FuzzyScoring.boundaryWhite : b
        return keys.classed ? min(b, best) : best
    }

    /// Whether `firstPairBound` may be below `scoreBound`: the query's first
    /// char (bucket `first`) earns less where its second char follows it
    /// (`keys`, looked up in the text's `wordPairs`) than its best.
    /// - Complexity: O(1)
    @inline(__always) func firstPairEarnsLess(_ keys: PairKeys, first: UInt32, wordPairs: UInt64) -> Bool {
        guard keys.classed else { return false }
        let best = bonus(first)
        return Self.firstPairBonus(keys, best: best, wordPairs: wordPairs) < best
    }

    /// An upper bound of the score of a fuzzy query of `length` bytes whose
    /// first byte is in bucket `first`, whose later bytes are in `later`,
    /// and whose adjacent pairs have the Bloom bits `pairs`. Without pairs
    /// it is at least `FuzzyMatcher.maxScore(_:_:query:needle:)`; each pair
    /// that never stands together in the text opens a gap in every
    /// alignment and lowers it by `-gapStart`. It credits every later char
    /// with the first char's best bonus, which a run carries on;
    /// `firstPairBound` knows where the run can start.
    /// - Complexity: O(pairs)
    @inline(__always) func scoreBound(first: UInt32, later: UInt32, pairs needed: UnsafeBufferPointer<UInt32>,
                                      length m: Int) -> Int {
        let best = bonus(first)
        let rest = m > 1 ? max(best, FuzzyScoring.consecutive, bonus(later)) : 0
        var gaps = 0
        for bit in needed where pairs & bit == 0 { gaps &+= 1 }
        return FuzzyScoring.match * m + best * FuzzyScoring.firstCharMultiplier + rest * (m - 1)
            + gaps * FuzzyScoring.gapStart
    }

    /// `scoreBound`, tighter when the query's first char earns less where
    /// its second char follows it than its best (`firstPair`, the keys of
    /// the query's first pair): never above `scoreBound`. Two kinds of
    /// alignment are bounded apart: the first char directly before the
    /// second (its bonus, doubled, and the bonus its run carries are at
    /// most `firstPairBonus`), or a gap after the first char (then no later
    /// char carries its bonus). A later char earns at most the best bonus
    /// of the later bytes (`later`), or `consecutive` in a run, or the
    /// carried bonus of a run starting at the first char: a run starting
    /// later carries a later byte's bonus.
    ///
    /// `lastPairSplit`: the last pair never stands together in the text
    /// (known beyond the Bloom filter).
    /// - Complexity: O(pairs); a few more instructions than `scoreBound`,
    ///   so it is taken where `firstPairEarnsLess`.
    func firstPairBound(first: UInt32, later: UInt32, firstPair: PairKeys, wordPairs: UInt64,
                        pairs needed: UnsafeBufferPointer<UInt32>, length m: Int,
                        lastPairSplit: Bool = false) -> Int {
        let best = bonus(first)
        guard m > 1 else { return FuzzyScoring.match &* m &+ best &* FuzzyScoring.firstCharMultiplier }
        let own = bonus(later)
        let last = needed.count &- 1
        // Gaps every alignment has after the second char.
        var gaps = 0
        var j = 1
        while j < needed.count {
            gaps &+= pairs & needed[j] == 0 || (lastPairSplit && j == last) ? 1 : 0
            j &+= 1
        }
        let rest = max(FuzzyScoring.consecutive, own)
        let base = FuzzyScoring.match &* m &+ gaps &* FuzzyScoring.gapStart
        // A gap after the first char: the second at its own bonus.
        let gapped = base &+ best &* FuzzyScoring.firstCharMultiplier &+ own &+ rest &* (m &- 2)
            &+ FuzzyScoring.gapStart
        let firstPairStands = needed.isEmpty || (pairs & needed[0] != 0 && !(lastPairSplit && last == 0))
        guard firstPairStands else { return gapped }
        let head = Self.firstPairBonus(firstPair, best: best, wordPairs: wordPairs)
        let run = base &+ head &* FuzzyScoring.firstCharMultiplier &+ max(head, rest) &* (m &- 1)
        return max(run, gapped)
    }
}

/// The keys of a needle's first pair in a text's word pairs, one per
/// bonus its first byte may have there.
struct PairKeys: Sendable {
    let white: UInt64
    let delimiter: UInt64
    let boundary: UInt64
    let other: UInt64
    /// The first byte is an ASCII letter or digit, and a second follows.
    let classed: Bool

    /// No classification: the first byte's best bonus bounds its pair's.
    static let unclassed = PairKeys(white: 0, delimiter: 0, boundary: 0, other: 0, classed: false)

    /// A bonus `b` salts a classed key with `b × salt` (0: no key; a bonus
    /// of 0 is told apart by the plain pair Bloom filter). A letter or
    /// digit earns 10, 9, 8, 7 or 0 (`CharClass.boundBonus`).
    static let salt: UInt64 = 0x9FB2_1C65_1E98_DF25

    /// The word-pairs bit of ASCII byte `a` followed by `b`, `a` earning
    /// `bonus` (letters in either case alike).
    static func key(_ a: UInt8, _ b: UInt8, bonus: Int) -> UInt64 {
        @inline(__always) func lower(_ v: UInt8) -> UInt64 { UInt64(v &- 0x41 < 26 ? v | 0x20 : v) }
        let product = (lower(a) &* BonusMasks.pairFirst) ^ (lower(b) &* BonusMasks.pairSecond)
        return 1 << ((product ^ (UInt64(bonus) &* salt)) >> 58)
    }

    /// The keys of `needle`'s first pair (its bytes folded as the texts').
    init(_ needle: [UInt8]) {
        guard needle.count >= 2, needle[0] < 0x80, needle[1] < 0x80,
              CharClass.of(byte: needle[0]) > CharClass.delimiter else {
            self = .unclassed
            return
        }
        let a = needle[0], b = needle[1]
        self.init(white: Self.key(a, b, bonus: FuzzyScoring.boundaryWhite),
                  delimiter: Self.key(a, b, bonus: FuzzyScoring.boundaryDelimiter),
                  boundary: Self.key(a, b, bonus: FuzzyScoring.boundary),
                  other: Self.key(a, b, bonus: FuzzyScoring.camel123), classed: true)
    }

    init(white: UInt64, delimiter: UInt64, boundary: UInt64, other: UInt64, classed: Bool) {
        self.white = white
        self.delimiter = delimiter
        self.boundary = boundary
        self.other = other
        self.classed = classed
    }
}
