/// Computing a text's masks and word pairs: one pass over its bytes,
/// driven by tables so that a byte costs a few loads and `or`s.
extension BonusMasks {
    /// Writes the masks of texts `texts` of `table` to `masks[i]` and their
    /// word pairs to `wordPairs[i]` (uninitialized room, text `i` at `i`),
    /// from the best position bonus any scheme gives
    /// (`CharClass.boundBonus`; non-ASCII texts: `unknown`,
    /// `unknownWordPairs`).
    ///
    /// Building an index spends much of its time here (the wait of the
    /// first keystroke after a list arrives), so a byte is a few loads from
    /// one table buffer (`Step.tables`): its step (class and bonus after
    /// the previous byte), its bucket doubled into both halves of a word,
    /// the step's entry (which masks the bonus reaches, how it salts a
    /// word-pair key), and the key of the pair it ends (the hash `pairBit`
    /// and `PairKeys` compute, without its two multiplications). No branch
    /// on the bonus: word starts come every few bytes, too irregularly to
    /// predict. One base pointer, packed state and a function of its own
    /// (`summary`, a call per text) keep the loop's values in registers;
    /// every offset is in its table by construction (bytes index 256-entry
    /// rows, steps are below 128). A text's summary resumes after the
    /// prefix it shares with the text before it (`PrefixStates`).
    /// - Complexity: O(total length of the texts), less what each shares
    ///   with the one before it
    static func write(_ table: TextTable, _ texts: Range<Int>, masks: UnsafeMutablePointer<BonusMasks>,
                      wordPairs: UnsafeMutablePointer<UInt64>) {
        var states = PrefixStates()
        defer { states.deallocate() }
        Step.tables.withUnsafeBytes { tables in
            guard let base = tables.baseAddress else { return }
            for i in texts {
                guard table.isASCII(i) else {
                    (masks + i).initialize(to: .unknown)
                    (wordPairs + i).initialize(to: unknownWordPairs)
                    continue
                }
                let units = table.foldedText(i), classes = table.classBytes(i)
                let n = min(units.count, classes.count)
                let shared = states.take(units: units, classes: classes, count: n)
                let (summary, pairs) = Self.summary(units: units, classes: classes, count: n, from: shared,
                                                    states: states.states, tables: base)
                (masks + i).initialize(to: summary)
                (wordPairs + i).initialize(to: pairs)
            }
        }
    }

    /// The masks and word pairs of one ASCII text's first `n` bytes
    /// (`units` folded, `classes` the bytes its bonuses are read from:
    /// `TextTable.classBytes`), resumed after its first `start` bytes from
    /// the state `states` holds after byte `start - 1` (their text's first
    /// `start` bytes equal these); `states` gets the state after each byte
    /// from `start` on, up to `PrefixStates.keptBytes`.
    /// - Complexity: O(n - start)
    @inline(never)
    private static func summary(units: UnsafeBufferPointer<UInt8>, classes: UnsafeBufferPointer<UInt8>, count n: Int,
                                from start: Int, states: UnsafeMutablePointer<PrefixStates.State>,
                                tables: UnsafeRawPointer) -> (BonusMasks, UInt64) {
        guard n > 0, let unitBytes = units.baseAddress, let classBytes = classes.baseAddress else {
            return (BonusMasks(white: 0, boundary: 0, any: 0, pairs: 0), 0)
        }
        @inline(__always) func word(_ offset: Int) -> UInt64 { tables.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        @inline(__always) func byte(_ offset: Int) -> Int { Int(tables.load(fromByteOffset: offset, as: UInt8.self)) }
        // `reached`: buckets of bytes with any bonus (low half) and with
        // at least 8 (high half); `whiteAndPairs`: pair bits (low half)
        // and buckets of bytes with a bonus of 10 (high half).
        var reached: UInt64, whiteAndPairs: UInt64, wordPairs: UInt64
        // How the previous byte salts the key of the pair it starts, and
        // whether it keys one (`Step.salted`).
        var salted: UInt64
        var j = max(start, 1)
        if start > 0 {
            let state = states[start &- 1]
            (reached, whiteAndPairs, wordPairs, salted) = (state.reached, state.whiteAndPairs, state.wordPairs,
                                                           state.salted)
        } else {
            // The first byte follows a white space (fzf's start of text).
            // A step is looked up from the two bytes, not from the previous
            // step: no load waits for the one before it.
            let entry = byte(Step.stepsOffset &+ (Int(UInt8(ascii: " ")) &<< 8 | Int(classBytes[0]))) &<< Step.entryShift
            let bits = word(Step.bucketsOffset &+ Int(unitBytes[0]) &<< 3)
            reached = bits & word(entry)
            whiteAndPairs = bits & word(entry &+ 8)
            wordPairs = 0
            salted = word(entry &+ 16)
            states[0] = PrefixStates.State(reached: reached, whiteAndPairs: whiteAndPairs, wordPairs: 0, salted: salted)
        }
        var previous = Int(classBytes[j &- 1]), previousUnit = Int(unitBytes[j &- 1])
        while j < n {
            let current = Int(classBytes[j]), unit = Int(unitBytes[j])
            let entry = byte(Step.stepsOffset &+ (previous &<< 8 | current)) &<< Step.entryShift
            let bits = word(Step.bucketsOffset &+ unit &<< 3)
            reached |= bits & word(entry)
            whiteAndPairs |= bits & word(entry &+ 8)
            let key = UInt64(truncatingIfNeeded: byte(Step.pairKeysOffset &+ (previousUnit &<< 8 | unit)))
            assert(UInt32(truncatingIfNeeded: 1 &<< (key &>> 1)) == pairBit(unitBytes[j &- 1], unitBytes[j]),
                   "folded ASCII has no capitals")
            whiteAndPairs |= 1 &<< (key &>> 1)
            // A shift reads the low six bits of its count: the salt's.
            wordPairs |= (salted &>> 8) &<< (key ^ salted)
            salted = word(entry &+ 16)
            if j < PrefixStates.keptBytes {
                states[j] = PrefixStates.State(reached: reached, whiteAndPairs: whiteAndPairs, wordPairs: wordPairs,
                                               salted: salted)
            }
            previous = current
            previousUnit = unit
            j &+= 1
        }
        return (BonusMasks(white: UInt32(truncatingIfNeeded: whiteAndPairs >> 32),
                           boundary: UInt32(truncatingIfNeeded: reached >> 32), any: UInt32(truncatingIfNeeded: reached),
                           pairs: UInt32(truncatingIfNeeded: whiteAndPairs)),
                wordPairs)
    }

    /// The tables `append` steps through, in one buffer (`tables`).
    enum Step {
        /// A step is `bonus << 3 | class`: the byte's class and the best
        /// bonus any scheme gives it after the previous byte.
        static let classMask = 7

        /// The step of `byte` after `previousByte`, its bonus
        /// `CharClass.boundBonus`'s.
        static func step(_ previousByte: Int, _ byte: Int) -> UInt8 {
            let previous = CharClass.ascii[previousByte], current = CharClass.ascii[byte]
            let bonus = max(Int(CharClass.bonus[Int(previous) &* 8 &+ Int(current)]), Int(CharClass.pathNonWordBonus[byte]))
            assert(bonus <= FuzzyScoring.boundaryWhite && current <= 7, "a step fits its byte")
            assert(current <= CharClass.delimiter || [0, 7, 8, 9, 10].contains(bonus),
                   "a letter or digit earns one of the bonuses PairKeys looks up")
            return UInt8(bonus << 3) | current
        }

        /// What a step adds to a text's masks and word pairs, three words:
        /// which masks it reaches (all ones in the low half when the bonus
        /// is above 0, in the high half when it is at least
        /// `FuzzyScoring.boundary`), whether it is white (all ones in the
        /// high half when the bonus is `boundaryWhite`), and `salted`.
        static func entry(_ step: Int) -> [UInt64] {
            let bonus = step >> 3
            let low: UInt64 = bonus > 0 ? 0xFFFF_FFFF : 0
            let high: UInt64 = bonus >= FuzzyScoring.boundary ? 0xFFFF_FFFF_0000_0000 : 0
            return [low | high, bonus >= FuzzyScoring.boundaryWhite ? 0xFFFF_FFFF_0000_0000 : 0, salted(step)]
        }

        /// How a byte of step `step` keys the pair it starts: the top six
        /// bits of `bonus × PairKeys.salt` (what its bonus flips in the
        /// pair's key, `PairKeys.key`), and 1 << 8 when it keys one at all
        /// (a letter or digit with a bonus: `PairKeys` classifies only
        /// those, and a bonus of 0 adds no key).
        static func salted(_ step: Int) -> UInt64 {
            let bonus = step >> 3, current = UInt8(step & classMask)
            let salt = current > CharClass.delimiter ? UInt64(bonus) &* PairKeys.salt : 0
            return salt >> 58 | (salt != 0 ? 1 << 8 : 0)
        }

        /// The top six bits of the hash of folded byte `a` followed by `b`:
        /// its top five are the pair's `pairBit`, and with its first byte's
        /// salt flipped in it is the pair's word-pair key (`PairKeys.key`),
        /// since a shift commutes with the `xor` of the salt.
        static func pairKey(_ a: Int, _ b: Int) -> UInt8 {
            let product = (UInt64(a) &* BonusMasks.pairFirst) ^ (UInt64(b) &* BonusMasks.pairSecond)
            return UInt8(truncatingIfNeeded: product >> 58)
        }

        /// `tables`' parts: entries (32 bytes per step, 4 KiB), buckets
        /// (`bucket[byte]` in both halves of a word, 2 KiB), steps
        /// (`[previousByte << 8 | byte]`, 64 KiB) and pair keys
        /// (`[a << 8 | b]`, 64 KiB); a text touches the few pairs it holds.
        static let entryShift = 5
        static let bucketsOffset = 128 << entryShift
        static let stepsOffset = bucketsOffset + 256 * 8
        static let pairKeysOffset = stepsOffset + (256 << 8)
        static let tables: [UInt8] = {
            var bytes = [UInt8](repeating: 0, count: pairKeysOffset + (256 << 8))
            bytes.withUnsafeMutableBytes { out in
                for step in 0..<128 {
                    for (k, value) in entry(step).enumerated() {
                        out.storeBytes(of: value, toByteOffset: (step << entryShift) + 8 * k, as: UInt64.self)
                    }
                }
                for (b, bucket) in BonusMasks.bucket.enumerated() {
                    out.storeBytes(of: UInt64(bucket) | UInt64(bucket) << 32, toByteOffset: bucketsOffset + 8 * b,
                                   as: UInt64.self)
                }
                for a in 0..<256 {
                    for b in 0..<256 {
                        out[stepsOffset + (a << 8 | b)] = step(a, b)
                        out[pairKeysOffset + (a << 8 | b)] = pairKey(a, b)
                    }
                }
            }
            return bytes
        }()
    }
}
