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
/// a shared bucket only loosens the bound).
///
/// - Complexity: 16 bytes per text; O(length) to compute.
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

    /// Appends the masks of texts `texts` of `table` to `out`, from the
    /// best position bonus any scheme gives (`CharClass.boundBonus`;
    /// non-ASCII texts: `unknown`).
    /// - Complexity: O(total length of the texts)
    static func append(_ table: TextTable, _ texts: Range<Int>, to out: inout [BonusMasks]) {
        CharClass.ascii.withUnsafeBufferPointer { cls in
            CharClass.bonus.withUnsafeBufferPointer { bonusTable in
                CharClass.pathNonWordBonus.withUnsafeBufferPointer { pathNonWord in
                bucket.withUnsafeBufferPointer { buckets in
                    for i in texts {
                        guard table.isASCII(i) else {
                            out.append(.unknown)
                            continue
                        }
                        let units = table.foldedText(i)
                        let classes = table.classBytes(i)
                        let n = min(units.count, classes.count)
                        var white: UInt32 = 0, boundary: UInt32 = 0, any: UInt32 = 0, pairs: UInt32 = 0
                        var prev = Int(CharClass.white)
                        // `pairBit` of folded ASCII, which has no capitals to
                        // lower: the previous unit's first product is kept.
                        var previousKey: UInt64 = 0
                        // Without a branch on the bonus: word starts come
                        // every few bytes, too irregularly to predict.
                        for j in 0..<n {
                            let unit = units[j]
                            let byte = Int(classes[j])
                            let cur = Int(cls[byte])
                            let b = max(Int(bonusTable[prev &* 8 &+ cur]), Int(pathNonWord[byte]))
                            prev = cur
                            let bit = buckets[Int(unit)]
                            any |= b > 0 ? bit : 0
                            boundary |= b >= FuzzyScoring.boundary ? bit : 0
                            white |= b >= FuzzyScoring.boundaryWhite ? bit : 0
                            if j > 0 {
                                let pair: UInt32 = 1 << UInt32(truncatingIfNeeded: (previousKey ^ (UInt64(unit) &* pairSecond)) >> 59)
                                assert(pair == pairBit(units[j &- 1], unit), "folded ASCII has no capitals")
                                pairs |= pair
                            }
                            previousKey = UInt64(unit) &* pairFirst
                        }
                        out.append(BonusMasks(white: white, boundary: boundary, any: any, pairs: pairs))
                    }
                }
                }
            }
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

    /// An upper bound of the score of a fuzzy query of `length` bytes whose
    /// first byte is in bucket `first`, whose later bytes are in `later`,
    /// and whose adjacent pairs have the Bloom bits `pairs`. Without pairs
    /// it is at least `FuzzyMatcher.maxScore(_:_:query:needle:)`; each pair
    /// that never stands together in the text opens a gap in every
    /// alignment and lowers it by `-gapStart`.
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
}
