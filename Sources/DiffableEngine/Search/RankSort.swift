/// Sorting hits into ranking order fast enough for a keystroke.
///
/// An unlimited ranked search over a million texts may keep half a million
/// hits; a comparison sort of `RankKey`s through a closure there costs
/// more than the rest of the keystroke. The ranking order (score descending, then length,
/// then index) is a lexicographic order on three bounded integers, so each
/// key packs into one `UInt64` whose ascending order *is* the ranking order:
///
///     (maxScore - score) << (lengthBits + indexBits) | length << indexBits | index
///
/// Packed keys are sorted by an LSD radix sort over only the bits in use
/// (11-bit digits, one counting pass per digit): O(n × bits / 11) with
/// sequential memory traffic. When the three ranges do not fit in 64 bits
/// together (absurdly long texts or scores), the comparison sort is used:
/// the result is identical, only slower.
enum RankSort {
    /// `keys` in ranking order.
    /// - Complexity: O(n × b / 11) for b packed bits (at most 64), or
    ///   O(n log n) comparisons when the keys do not pack.
    static func sorted(_ keys: [RankKey]) -> [RankKey] {
        guard keys.count > 64, let packing = Packing(keys) else {
            return keys.sorted { $0.precedes($1) }
        }
        var packed = keys.map(packing.pack)
        radixSort(&packed, bits: packing.totalBits)
        return packed.map(packing.unpack)
    }

    /// How three ranges share one word.
    struct Packing {
        let maxScore: Int
        let lengthBits: Int
        let indexBits: Int
        let totalBits: Int

        init?(_ keys: [RankKey]) {
            var minScore = Int.max, maxScore = Int.min, maxLength = 0, maxIndex = 0
            for key in keys {
                minScore = min(minScore, key.score)
                maxScore = max(maxScore, key.score)
                maxLength = max(maxLength, key.length)
                maxIndex = max(maxIndex, key.index)
                if key.length < 0 || key.index < 0 { return nil }
            }
            // The score span may overflow for absurd scores: no packing then.
            let (span, overflow) = maxScore.subtractingReportingOverflow(minScore)
            guard !overflow else { return nil }
            func bits(_ value: Int) -> Int { Int.bitWidth - value.leadingZeroBitCount }
            self.maxScore = maxScore
            lengthBits = bits(maxLength)
            indexBits = bits(maxIndex)
            totalBits = bits(span) + lengthBits + indexBits
            guard totalBits <= 64 else { return nil }
        }

        @inline(__always)
        func pack(_ key: RankKey) -> UInt64 {
            UInt64(maxScore - key.score) << (lengthBits + indexBits)
                | UInt64(key.length) << indexBits | UInt64(key.index)
        }

        @inline(__always)
        func unpack(_ word: UInt64) -> RankKey {
            let indexMask: UInt64 = indexBits == 64 ? ~0 : (1 << indexBits) - 1
            let lengthMask: UInt64 = lengthBits == 64 ? ~0 : (1 << lengthBits) - 1
            let scoreShift = lengthBits + indexBits
            let scoreDrop = scoreShift >= 64 ? 0 : Int(word >> scoreShift)
            return RankKey(score: maxScore - scoreDrop,
                           length: Int((word >> indexBits) & lengthMask),
                           index: Int(word & indexMask))
        }
    }

    /// Sorts `words` ascending by their low `bits` bits (higher bits must
    /// be zero). - Complexity: O(n × ⌈bits / 11⌉)
    static func radixSort(_ words: inout [UInt64], bits: Int) {
        let digitBits = 11, radix = 1 << digitBits
        let passes = (bits + digitBits - 1) / digitBits
        guard passes > 0, words.count > 1 else { return }
        var buffer = [UInt64](repeating: 0, count: words.count)
        var counts = [Int](repeating: 0, count: radix)
        for pass in 0..<passes {
            let shift = UInt64(pass * digitBits)
            words.withUnsafeBufferPointer { source in
                buffer.withUnsafeMutableBufferPointer { target in
                    counts.withUnsafeMutableBufferPointer { count in
                        for i in 0..<radix { count[i] = 0 }
                        for word in source { count[Int((word >> shift) & UInt64(radix - 1))] += 1 }
                        var sum = 0
                        for i in 0..<radix {
                            let c = count[i]
                            count[i] = sum
                            sum += c
                        }
                        for word in source {
                            let digit = Int((word >> shift) & UInt64(radix - 1))
                            target[count[digit]] = word
                            count[digit] += 1
                        }
                    }
                }
            }
            swap(&words, &buffer)
        }
    }
}
