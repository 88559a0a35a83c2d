/// Computing a text's masks and word pairs: two passes over its bytes,
/// driven by tables so that a byte costs a few loads and `or`s.
extension BonusMasks {
    /// Appends the masks of texts `texts` of `table` to `out` and their word
    /// pairs to `wordPairsOut`, from the best position bonus any scheme
    /// gives (`CharClass.boundBonus`; non-ASCII texts: `unknown`,
    /// `unknownWordPairs`).
    ///
    /// Building an index spends most of its time here (the wait of the
    /// first keystroke after a list arrives), so a byte is one step
    /// through `Step.table` (its class and bonus after the previous
    /// byte), its bucket doubled into both halves of a word
    /// (`Step.bucketPairs`), and the step's entry (`Step.entries`: which
    /// masks the bonus reaches, the salt of its word-pair key); a second
    /// loop reads the steps back for the pairs. Neither has a branch on
    /// the bonus: word starts come every few bytes, too irregularly to
    /// predict.
    /// - Complexity: O(total length of the texts)
    static func append(_ table: TextTable, _ texts: Range<Int>, to out: inout [BonusMasks],
                       wordPairs wordPairsOut: inout [UInt64]) {
        var stepsOfText: [UInt8] = []
        Step.table.withUnsafeBufferPointer { steps in
            Step.entries.withUnsafeBufferPointer { entries in
                Step.bucketPairs.withUnsafeBufferPointer { buckets in
                    for i in texts {
                        guard table.isASCII(i) else {
                            out.append(.unknown)
                            wordPairsOut.append(unknownWordPairs)
                            continue
                        }
                        let units = table.foldedText(i), classes = table.classBytes(i)
                        let n = min(units.count, classes.count)
                        if stepsOfText.count < n { stepsOfText = Array(repeating: 0, count: max(n, 2 * stepsOfText.count)) }
                        let (masks, pairs) = stepsOfText.withUnsafeMutableBufferPointer { taken in
                            let reached = Self.masks(units: units, classes: classes, count: n, steps: steps,
                                                     entries: entries, buckets: buckets, taken: taken)
                            return (reached, Self.pairs(units: units, count: n, taken: taken, entries: entries))
                        }
                        out.append(BonusMasks(white: masks.white, boundary: masks.boundary, any: masks.any,
                                              pairs: pairs.pairs))
                        wordPairsOut.append(pairs.wordPairs)
                    }
                }
            }
        }
    }

    /// The bonus masks of one ASCII text's first `n` bytes (`units` folded,
    /// `classes` the bytes its bonuses are read from:
    /// `TextTable.classBytes`), each byte's step written to `taken` for
    /// `pairs`. Apart from the pairs, so that each loop keeps its state in
    /// registers.
    /// - Complexity: O(n)
    @inline(__always)
    private static func masks(units: UnsafeBufferPointer<UInt8>, classes: UnsafeBufferPointer<UInt8>, count n: Int,
                              steps: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<Step.Entry>,
                              buckets: UnsafeBufferPointer<UInt64>,
                              taken: UnsafeMutableBufferPointer<UInt8>) -> (white: UInt32, boundary: UInt32, any: UInt32) {
        // `reached`: buckets of bytes with any bonus (low half) and with
        // at least 8 (high half); `white`: with 10, in the low half.
        var reached: UInt64 = 0, white: UInt64 = 0
        // The first byte follows a white space (fzf's start of text). A
        // step is looked up from the two bytes, not from the previous
        // step: no load waits for the one before it.
        var previous = Int(UInt8(ascii: " "))
        var j = 0
        while j < n {
            let byte = Int(classes[j])
            let step = Int(steps[previous &<< 8 | byte])
            previous = byte
            taken[j] = UInt8(truncatingIfNeeded: step)
            let entry = entries[step], bits = buckets[Int(units[j])]
            reached |= bits & entry.reaches
            white |= bits & entry.white
            j &+= 1
        }
        return (UInt32(truncatingIfNeeded: white), UInt32(truncatingIfNeeded: reached >> 32),
                UInt32(truncatingIfNeeded: reached))
    }

    /// The pair Bloom filter and word pairs of one ASCII text's first `n`
    /// folded bytes, whose steps `masks` wrote to `taken`.
    /// - Complexity: O(n)
    @inline(__always)
    private static func pairs(units: UnsafeBufferPointer<UInt8>, count n: Int, taken: UnsafeMutableBufferPointer<UInt8>,
                              entries: UnsafeBufferPointer<Step.Entry>) -> (pairs: UInt32, wordPairs: UInt64) {
        guard n > 1 else { return (0, 0) }
        var pairs: UInt32 = 0, wordPairs: UInt64 = 0
        // `pairBit` of folded ASCII, which has no capitals to lower: the
        // previous unit's first product is kept, and the salt of its bonus
        // (0: no classed key).
        var previousKey = UInt64(units[0]) &* pairFirst
        var previousSalt = entries[Int(taken[0])].salt
        var j = 1
        while j < n {
            let unit = units[j]
            let product = previousKey ^ (UInt64(unit) &* pairSecond)
            let pair: UInt32 = 1 << UInt32(truncatingIfNeeded: product >> 59)
            assert(pair == pairBit(units[j &- 1], unit), "folded ASCII has no capitals")
            pairs |= pair
            let classed: UInt64 = 1 << ((product ^ previousSalt) >> 58)
            wordPairs |= previousSalt != 0 ? classed : 0
            previousKey = UInt64(unit) &* pairFirst
            previousSalt = entries[Int(taken[j])].salt
            j &+= 1
        }
        return (pairs, wordPairs)
    }

    /// The tables `append` steps through.
    enum Step {
        /// A step is `bonus << 3 | class`: the byte's class and the best
        /// bonus any scheme gives it after the previous byte.
        static let classMask = 7

        /// `table[previousByte << 8 | byte]`: the step of `byte` after
        /// `previousByte`, its bonus `CharClass.boundBonus`'s (64 KiB, of
        /// which a text touches the few pairs it holds).
        static let table: [UInt8] = (0..<(256 << 8)).map { k in
            let previous = CharClass.ascii[k >> 8], byte = UInt8(k & 0xFF)
            let current = CharClass.ascii[Int(byte)]
            let bonus = max(Int(CharClass.bonus[Int(previous) &* 8 &+ Int(current)]), Int(CharClass.pathNonWordBonus[Int(byte)]))
            assert(bonus <= FuzzyScoring.boundaryWhite && current <= 7, "a step fits its byte")
            assert(current <= CharClass.delimiter || [0, 7, 8, 9, 10].contains(bonus),
                   "a letter or digit earns one of the bonuses PairKeys looks up")
            return UInt8(bonus << 3) | current
        }

        /// What a step adds to a text's masks and word pairs.
        struct Entry {
            /// All ones in the low half when the bonus is above 0, in the
            /// high half when it is at least `FuzzyScoring.boundary`.
            var reaches: UInt64
            /// All ones in the low half when the bonus is `boundaryWhite`.
            var white: UInt64
            /// `bonus × PairKeys.salt` for a letter or digit, else 0 (no
            /// classed key: `PairKeys` classifies only those).
            var salt: UInt64
        }

        /// `entries[step]`.
        static let entries: [Entry] = (0..<128).map { step in
            let bonus = step >> 3, current = UInt8(step & classMask)
            let low: UInt64 = bonus > 0 ? 0xFFFF_FFFF : 0
            let high: UInt64 = bonus >= FuzzyScoring.boundary ? 0xFFFF_FFFF_0000_0000 : 0
            return Entry(reaches: low | high, white: bonus >= FuzzyScoring.boundaryWhite ? 0xFFFF_FFFF : 0,
                         salt: current > CharClass.delimiter ? UInt64(bonus) &* PairKeys.salt : 0)
        }

        /// `bucket[byte]` in both halves of a word.
        static let bucketPairs: [UInt64] = BonusMasks.bucket.map { UInt64($0) | UInt64($0) << 32 }
    }
}
