extension FzfAlgo {
    /// The positions fzf highlights for `pattern` in `text` (`bonus[j]`:
    /// the bonus of `text[j]`), ascending, or `[]` when it does not match:
    /// v2 keeps the whole matrix and walks back from the best cell of the
    /// last row, preferring a match over a gap on equal scores while inside
    /// a run (fzf's backtrace).
    /// - Complexity: O(width × pattern length) time and space; meant for the
    ///   rows that are displayed.
    static func positions(text: [UInt32], bonus: [UInt8], pattern: [UInt32], forward: Bool = true) -> [Int] {
        let m = pattern.count, n = text.count
        guard m > 0, n >= m, bonus.count == n else { return [] }
        return text.withUnsafeBufferPointer { t in
            pattern.withUnsafeBufferPointer { p in
                bonus.withUnsafeBufferPointer { b -> [Int] in
                    guard let bb = b.baseAddress else { return [] }
                    if n &* m > v1Cells {
                        guard let span = spanV1(text: t, pattern: p, from: 0, forward: forward) else { return [] }
                        var out: [Int] = []
                        _ = scoreSpan(text: t, bonus: bb, pattern: p, span: span, positions: &out)
                        return out
                    }
                    var first = [Int](repeating: 0, count: m)
                    let found = first.withUnsafeMutableBufferPointer { f -> Int? in
                        guard let base = f.baseAddress else { return nil }
                        return span(t, p, from: 0, first: base)
                    }
                    guard let last = found else { return [] }
                    if m == 1 {
                        return [oneChar(text: t, bonus: bb, unit: p[0], from: first[0], to: last, forward: forward).position]
                    }
                    return backtrace(t, bb, p, first: first, last: last, forward: forward)
                }
            }
        }
    }

    /// Fills v2's whole matrix over columns `first[0]...last` and walks back.
    private static func backtrace(_ t: UnsafeBufferPointer<UInt32>, _ bonus: UnsafePointer<UInt8>,
                                  _ p: UnsafeBufferPointer<UInt32>, first: [Int], last: Int,
                                  forward: Bool) -> [Int] {
        let m = p.count
        let f0 = first[0]
        let width = last &- f0 &+ 1
        var h = [Int32](repeating: 0, count: width * m)
        var c = [Int32](repeating: 0, count: width * m)
        var left: Int32 = 0
        var inGap = false
        for j in f0...last {
            if t[j] == p[0] {
                left = Int32(FuzzyScoring.match) &+ Int32(bonus[j]) &* Int32(FuzzyScoring.firstCharMultiplier)
                c[j &- f0] = 1
                inGap = false
            } else {
                left = max(left &+ Int32(inGap ? FuzzyScoring.gapExtension : FuzzyScoring.gapStart), 0)
                inGap = true
            }
            h[j &- f0] = left
        }
        var best: Int32 = 0
        var bestColumn = f0
        for i in 1..<m {
            let row = i &* width, above = row &- width
            left = 0
            inGap = false
            for j in first[i]...last {
                let x = j &- f0
                let s2 = left &+ Int32(inGap ? FuzzyScoring.gapExtension : FuzzyScoring.gapStart)
                var s1: Int32 = 0
                var run: Int32 = 0
                if t[j] == p[i] {
                    s1 = h[above &+ x &- 1] &+ Int32(FuzzyScoring.match)
                    let own = Int32(bonus[j])
                    var b = own
                    run = c[above &+ x &- 1] &+ 1
                    if run > 1 {
                        let fb = Int32(bonus[j &- Int(run) &+ 1])
                        if b >= Int32(FuzzyScoring.boundary) && b > fb {
                            run = 1
                        } else {
                            b = max(b, max(Int32(FuzzyScoring.consecutive), fb))
                        }
                    }
                    if s1 &+ b < s2 { s1 &+= own; run = 0 } else { s1 &+= b }
                }
                c[row &+ x] = run
                inGap = s1 < s2
                let s = max(max(s1, s2), 0)
                if i == m &- 1 && (s > best || (!forward && s == best)) { best = s; bestColumn = j }
                h[row &+ x] = s
                left = s
            }
        }
        var out: [Int] = []
        out.reserveCapacity(m)
        var i = m &- 1
        var j = bestColumn
        var preferMatch = true
        // Each step moves one column left; the walk ends at the first row's
        // match, at most `width` steps.
        while j >= f0 {
            let row = i &* width, x = j &- f0
            let s = h[row &+ x]
            let s1: Int32 = i > 0 && j >= first[i] ? h[row &- width &+ x &- 1] : 0
            let s2: Int32 = j > first[i] ? h[row &+ x &- 1] : 0
            if s > s1 && (s > s2 || s == s2 && preferMatch) {
                out.append(j)
                if i == 0 { break }
                i &-= 1
            }
            // The cell down-right, in the row below the one this step read.
            // fzf also reads it left of where that row starts (whatever its
            // scratch holds there); those cells are 0 here.
            let below = row &+ width &+ x &+ 1
            preferMatch = c[row &+ x] > 1 || (below < c.count && c[below] > 0)
            j &-= 1
        }
        return out.reversed()
    }
}
