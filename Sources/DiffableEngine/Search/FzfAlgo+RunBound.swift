/// An upper bound of a fuzzy term's v2 score in one ASCII text, from where
/// the term's first char stands and how far the term runs on from there.
///
/// A ranked query scores only texts whose bound may enter the best k. The
/// bonus-mask bound (`BonusMasks.scoreBound`) credits every char with the
/// text's best bonus for it wherever it is, so on a path such as
/// `src/view/grid_render12.swift` the term `swift` is credited with the `s`
/// of `src` (a text start) followed by a run of `wift`, which that `s` does
/// not have: the real best is the run after `.`. Most of a path list's
/// matches then look as good as the best ones and are scored.
///
/// This bound reads the text once, from its end, keeping the best bonus of
/// any of the term's later chars seen so far (`later`). For each occurrence
/// `j` of the first char, an alignment starting there either runs
/// contiguously through the whole term, or runs through its first `k`
/// chars and then leaves a gap. A run's chars earn at most the best bonus
/// of the run so far (a run keeps its first char's bonus, or a boundary
/// char's within it) or `consecutive`; a char after the gap earns at most
/// `later` (the first char of its run stands after `j`) or `consecutive`,
/// and the gap costs at least `gapStart` and `gapExtension` for each char
/// it spans before the next char's first occurrence after it. A score
/// clamped at 0 in a gap keeps only the chars after it. So the
/// bound at `j` is the best of those cases, and the term's is the best
/// over its first char's occurrences; when the best alignment is one
/// contiguous run after a boundary, the bound is its score.
/// - Complexity: O(n + occurrences × m × gap) for a text of n bytes and a
///   term of m, where gap is the distance to a char's next occurrence; no
///   allocation.
extension FzfAlgo {
    /// The bound for ASCII `pattern` (at least two units) in ASCII `text`
    /// with its bonuses `bonus`, as `match` compares them; 0 when the first
    /// char does not occur where the term can fit.
    static func runBound(text: UnsafeBufferPointer<UInt8>, bonus: UnsafePointer<UInt8>,
                         pattern: UnsafeBufferPointer<UInt8>) -> Int {
        runBound(text: text, pattern: pattern) { Int(bonus[$0]) }
    }

    /// `runBound` of ASCII text `i` of `table` (its compared bytes `units`),
    /// each bonus computed from the text's classes where it is asked, so a
    /// text the bound rejects never has its row of bonuses written.
    @inline(__always)
    static func runBound(_ table: TextTable, _ i: Int, scheme: FzfBonusTable,
                         units: UnsafeBufferPointer<UInt8>, pattern: UnsafeBufferPointer<UInt8>) -> Int {
        let classes = table.classBytes(i)
        let cls = scheme.asciiClass, bt = scheme.bonus
        let initial = Int(scheme.initialClass)
        return runBound(text: units, pattern: pattern) { j in
            let prev = j == 0 ? initial : Int(cls[Int(classes[j &- 1])])
            return Int(bt[prev &* 8 &+ Int(cls[Int(classes[j])])])
        }
    }

    /// `runBound` with the bonus of position j read as `bonus(j)`, which is
    /// asked only where a char of the pattern stands (a text's bonuses need
    /// not be computed first).
    @inline(__always)
    static func runBound(text: UnsafeBufferPointer<UInt8>, pattern: UnsafeBufferPointer<UInt8>,
                         bonus: (Int) -> Int) -> Int {
        let n = text.count, m = pattern.count
        guard m >= 2, n >= m, let t = text.baseAddress, let p = pattern.baseAddress else { return 0 }
        // Each byte's role in the term: 1 a later char, 2 the first char
        // (both for a first char that recurs). A byte outside the term
        // (most of a text) costs one load and one test.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { role -> Int in
            guard let r = role.baseAddress else { return 0 }
            r.initialize(repeating: 0, count: 256)
            for k in 1..<m { r[Int(p[k])] = 1 }
            let first = p[0]
            r[Int(first)] |= 2
            let consecutive = FuzzyScoring.consecutive
            let match = FuzzyScoring.match
            var later = 0
            var best = 0
            var j = n &- 1
            while j >= 0 {
                var c = t[j], kind = r[Int(c)]
                while kind == 0 {
                    if j == 0 { return best }
                    j &-= 1
                    c = t[j]
                    kind = r[Int(c)]
                }
                if kind & 2 != 0 && j <= n &- m {
                    let lateChar = match &+ max(later, consecutive)
                    var runBest = bonus(j)
                    // The most chars 0...k can score running from `j`.
                    var head = match &+ bonus(j) &* FuzzyScoring.firstCharMultiplier
                    var k = 0
                    while true {
                        if k &+ 1 == m {
                            best = max(best, head)
                            break
                        }
                        // A gap after char k: char k + 1 stands at its next
                        // occurrence past `j + k + 1` or later, so the gap is
                        // at least that long; a score the gap brings to 0
                        // keeps only the chars after it.
                        // The gap is read only while it may still beat `best`.
                        let next = p[k &+ 1]
                        let after = (m &- k &- 1) &* lateChar
                        var value = head &+ FuzzyScoring.gapStart
                        if max(value, 0) &+ after > best {
                            var q = j &+ k &+ 2
                            while q < n && t[q] != next && max(value, 0) &+ after > best {
                                q &+= 1
                                value &+= FuzzyScoring.gapExtension
                            }
                            if q <= n &- (m &- k &- 1) && t[q] == next { best = max(best, max(value, 0) &+ after) }
                        }
                        guard t[j &+ k &+ 1] == next else { break }
                        k &+= 1
                        runBest = max(runBest, bonus(j &+ k))
                        head &+= match &+ max(runBest, consecutive)
                    }
                }
                if kind & 1 != 0 { later = max(later, bonus(j)) }
                j &-= 1
            }
            return best
        }
    }
}
