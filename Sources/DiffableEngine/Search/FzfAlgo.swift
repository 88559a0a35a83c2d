/// fzf's fuzzy scoring (its "v2" algorithm), reproduced so that scores and
/// therefore rankings equal fzf's. Inputs are a text's compared units
/// (`FzfPattern.transform` applied, or ASCII bytes folded / original), the
/// position bonus of every unit (`FzfBonusTable`), and the pattern's units.
///
/// Rows are pattern chars, columns text positions from the first occurrence
/// of the first pattern char to the last occurrence of the last one.
/// `H[i][j]` is the best score of the first `i + 1` pattern chars with char
/// `i` matched at or before `j`, clamped at 0; `C[i][j]` is the length of
/// the consecutive run ending at `j`. Behaviours kept on purpose:
/// - row 0 takes a matched first char's own score (`16 + 2 × bonus`), not the
///   larger score the row carries along the gap, so a later occurrence of the
///   first char restarts the alignment there;
/// - scores never go below 0 (a long gap forgets what came before it);
/// - a run keeps the bonus of its first char (at least 4) unless a char of
///   the run is a boundary (≥ 8) better than that;
/// - the best score is the first column reaching the row's maximum;
/// - one pattern char: the first occurrence with a boundary bonus (≥ 8)
///   wins, else the best occurrence;
/// - texts where `length × pattern length` exceeds `v1Cells` are scored by
///   fzf's greedy "v1" instead (`spanV1`, `scoreSpan`), as fzf does.
/// - Complexity: O(width × pattern length) time, O(width) space (two rows,
///   reused from `FuzzyWorkspace`); no allocation once the workspace is
///   large enough.
enum FzfAlgo {
    /// fzf's scratch size for the v2 matrix: above it, v1 scores the text.
    static let v1Cells = 100 * 1024

    /// The greedy first occurrences of each pattern unit from `start`
    /// (written to `first`) and the last occurrence of the last unit
    /// after them, or `nil` when the pattern is not a subsequence.
    /// - Complexity: O(text.count)
    @inline(__always)
    static func span<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<T>, _ pattern: UnsafeBufferPointer<T>,
                                           from start: Int, first: UnsafeMutablePointer<Int>) -> Int? {
        let m = pattern.count, n = text.count
        var k = 0
        var j = start
        while j < n && k < m {
            if text[j] == pattern[k] { first[k] = j; k &+= 1 }
            j &+= 1
        }
        guard k == m else { return nil }
        let lastUnit = pattern[m &- 1]
        var last = n &- 1
        while last > first[m &- 1] && text[last] != lastUnit { last &-= 1 }
        return last
    }

    /// fzf's v2 score of `pattern` in `text`, or `nil` when it does not
    /// match. `bonus[j]` must be set for `j` from the first occurrence of
    /// the first pattern unit on (`start` ≤ that occurrence).
    @inline(__always)
    static func score<T: FixedWidthInteger>(text: UnsafeBufferPointer<T>, bonus: UnsafePointer<UInt8>,
                                            pattern: UnsafeBufferPointer<T>, from start: Int,
                                            workspace ws: FuzzyWorkspace) -> Int? {
        match(text: text, bonus: bonus, pattern: pattern, from: start, workspace: ws)?.score
    }

    /// `score` with the span fzf reports (what the `begin`, `end` and
    /// `chunk` tie-breaks read): from the greedy first occurrence of the
    /// first char (fzf does not backtrack for it) to after the best column;
    /// one char: its position; v1: its span. `forward: false` is fzf's
    /// backward scan (when the `end` tie-break comes before `begin`): ties
    /// go to the last column, one char takes the last best occurrence, v1
    /// matches from the end.
    @inline(__always)
    static func match<T: FixedWidthInteger>(text: UnsafeBufferPointer<T>, bonus: UnsafePointer<UInt8>,
                                            pattern: UnsafeBufferPointer<T>, from start: Int,
                                            forward: Bool = true, workspace ws: FuzzyWorkspace) -> Span? {
        let m = pattern.count, n = text.count
        guard m > 0 else { return Span(score: 0, start: 0, end: 0) }
        guard n >= m else { return nil }
        if n &* m > v1Cells {
            guard let span = spanV1(text: text, pattern: pattern, from: start, forward: forward,
                                    plain: ws.plainView(of: text)) else { return nil }
            return Span(score: scoreSpan(text: text, bonus: bonus, pattern: pattern, span: span, positions: nil),
                        start: span.lowerBound, end: span.upperBound)
        }
        ws.reserve(rows: m, columns: n)
        let first = ws.first
        guard let last = span(text, pattern, from: start, first: first) else { return nil }
        let f0 = first[0]
        if m == 1 {
            let (s, p) = oneChar(text: text, bonus: bonus, unit: pattern[0], from: f0, to: last, forward: forward)
            return Span(score: s, start: p, end: p &+ 1)
        }
        var prevH = ws.rowH0, prevC = ws.rowC0, curH = ws.rowH1, curC = ws.rowC1
        // Row 0: a match takes its own score; a gap decays from the left.
        let p0 = pattern[0]
        var left: Int32 = 0
        var inGap = false
        for j in f0...last {
            if text[j] == p0 {
                left = Int32(FuzzyScoring.match) &+ Int32(bonus[j]) &* Int32(FuzzyScoring.firstCharMultiplier)
                prevC[j] = 1
                inGap = false
            } else {
                left = max(left &+ Int32(inGap ? FuzzyScoring.gapExtension : FuzzyScoring.gapStart), 0)
                prevC[j] = 0
                inGap = true
            }
            prevH[j] = left
        }
        var best: Int32 = 0
        var bestColumn = f0
        for i in 1..<m {
            let pi = pattern[i]
            let lastRow = i == m &- 1
            left = 0
            inGap = false
            for j in first[i]...last {
                let s2 = left &+ Int32(inGap ? FuzzyScoring.gapExtension : FuzzyScoring.gapStart)
                var s1: Int32 = 0
                var run: Int32 = 0
                if text[j] == pi {
                    s1 = prevH[j &- 1] &+ Int32(FuzzyScoring.match)
                    let own = Int32(bonus[j])
                    var b = own
                    run = prevC[j &- 1] &+ 1
                    if run > 1 {
                        let fb = Int32(bonus[j &- Int(run) &+ 1])
                        if b >= Int32(FuzzyScoring.boundary) && b > fb {
                            run = 1
                        } else {
                            b = max(b, max(Int32(FuzzyScoring.consecutive), fb))
                        }
                    }
                    if s1 &+ b < s2 {
                        s1 &+= own
                        run = 0
                    } else {
                        s1 &+= b
                    }
                }
                curC[j] = run
                inGap = s1 < s2
                let s = max(max(s1, s2), 0)
                if lastRow && (s > best || (!forward && s == best)) { best = s; bestColumn = j }
                curH[j] = s
                left = s
            }
            swap(&prevH, &curH)
            swap(&prevC, &curC)
        }
        return Span(score: Int(best), start: f0, end: bestColumn &+ 1)
    }

    /// One pattern unit: the first occurrence whose bonus is a boundary
    /// (≥ 8) if it beats the ones before, else the best occurrence;
    /// backward: the last of the best occurrences.
    @inline(__always)
    static func oneChar<T: FixedWidthInteger>(text: UnsafeBufferPointer<T>, bonus: UnsafePointer<UInt8>,
                                              unit: T, from start: Int, to end: Int,
                                              forward: Bool = true) -> (score: Int, position: Int) {
        var best = 0, position = start
        var j = start
        while j <= end {
            if text[j] == unit {
                let b = Int(bonus[j])
                let s = FuzzyScoring.match &+ b &* FuzzyScoring.firstCharMultiplier
                if s > best || (!forward && s == best) {
                    best = s
                    position = j
                    if forward && b >= FuzzyScoring.boundary { break }
                }
            }
            j &+= 1
        }
        return (best, position)
    }

    /// fzf's v1 span: the greedy forward match, then the shortest span
    /// ending at its end found backwards; `nil` when it does not match.
    /// Backward: the same from the text's end (mirrored).
    /// `plain`: the text's units case-folded but not normalized, which the
    /// shrinking pass compares, as fzf does (it normalizes only while it
    /// finds the match); a pass that then misses a char keeps the greedy
    /// match's whole span. `nil`: the same units as `text`.
    /// - Complexity: O(text.count)
    static func spanV1<T: FixedWidthInteger>(text: UnsafeBufferPointer<T>, pattern: UnsafeBufferPointer<T>,
                                             from start: Int, forward: Bool = true,
                                             plain: UnsafeBufferPointer<T>? = nil) -> Range<Int>? {
        let m = pattern.count, n = text.count
        guard m > 0 else { return nil }
        let shrink = plain.flatMap { $0.count == n ? $0 : nil } ?? text
        if !forward {
            // Greedy from the end for the last char back to the first, then
            // the shortest span from that start found forwards.
            var k = m &- 1, j = n &- 1, begin = -1, last = -1
            while j >= start {
                if text[j] == pattern[k] {
                    if last < 0 { last = j }
                    if k == 0 { begin = j; break }
                    k &-= 1
                }
                j &-= 1
            }
            guard begin >= 0 else { return nil }
            k = 0
            j = begin
            while j <= last {
                if shrink[j] == pattern[k] {
                    k &+= 1
                    if k == m { return begin..<j &+ 1 }
                }
                j &+= 1
            }
            return begin..<last &+ 1
        }
        var k = 0, j = start, end = -1, first = -1
        while j < n {
            if text[j] == pattern[k] {
                if first < 0 { first = j }
                k &+= 1
                if k == m { end = j &+ 1; break }
            }
            j &+= 1
        }
        guard end > 0 else { return nil }
        k = m &- 1
        j = end &- 1
        while j >= first {
            if shrink[j] == pattern[k] {
                if k == 0 { return j..<end }
                k &-= 1
            }
            j &-= 1
        }
        return first..<end
    }

    /// fzf's `calculateScore`: the pattern matched greedily inside `span`
    /// (which holds it), with the same bonuses, runs and gaps as v2.
    /// Appends the matched positions to `positions` when given.
    /// - Complexity: O(span.count)
    static func scoreSpan<T: FixedWidthInteger>(text: UnsafeBufferPointer<T>, bonus: UnsafePointer<UInt8>,
                                                pattern: UnsafeBufferPointer<T>, span: Range<Int>,
                                                positions: UnsafeMutablePointer<[Int]>?) -> Int {
        let m = pattern.count
        var k = 0, score = 0, inGap = false, run = 0, firstBonus = 0
        for j in span where k < m {
            if text[j] == pattern[k] {
                positions?.pointee.append(j)
                score &+= FuzzyScoring.match
                var b = Int(bonus[j])
                if run == 0 {
                    firstBonus = b
                } else {
                    if b >= FuzzyScoring.boundary && b > firstBonus { firstBonus = b }
                    b = max(max(b, firstBonus), FuzzyScoring.consecutive)
                }
                score &+= k == 0 ? b &* FuzzyScoring.firstCharMultiplier : b
                inGap = false
                run &+= 1
                k &+= 1
            } else {
                score &+= inGap ? FuzzyScoring.gapExtension : FuzzyScoring.gapStart
                inGap = true
                run = 0
                firstBonus = 0
            }
        }
        return score
    }
}
