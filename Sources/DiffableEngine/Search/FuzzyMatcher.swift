/// fzf-like fuzzy (subsequence) matching with scoring.
///
/// A text matches when the query's scalars occur in it in order. With smart
/// case, an all-lowercase query matches the folded text (case- and
/// Latin-1-accent-insensitive); a query with any uppercase letter matches the
/// original text exactly (case- and accent-sensitive).
///
/// Score of an alignment (the best one is kept, computed by dynamic
/// programming; see `FuzzyScoring` for the constants):
/// - each matched char: `match` (16) + its position bonus, where the bonus is
///   10 at the text start or after whitespace, 9 after `/ , : ; |`, 8 after
///   other punctuation (or on a matched punctuation char), 7 on a camelCase
///   hump or letter→digit transition, 0 otherwise;
/// - the first query char's bonus counts twice;
/// - a char extending a consecutive run gets at least `consecutive` (4) and at
///   least the bonus of the run's first char (the run's boundary bonus is
///   carried along), unless its own bonus is a boundary (≥ 8) greater than
///   the carried one, in which case a new run starts there;
/// - unmatched chars between the first and last matched ones: −3 for the
///   first of each gap, −1 for each further one. Leading/trailing text is free.
enum FuzzyMatcher {
    /// A sentinel far below any reachable score.
    static let impossible = Int.min / 4

    /// Greedy subsequence test on units; returns the position of the first
    /// matched unit, or `nil` when `query` is not a subsequence of `text`.
    /// - Complexity: O(text.count)
    @inline(__always)
    static func prefilter<T: FixedWidthInteger>(_ query: UnsafeBufferPointer<T>,
                                                 _ text: UnsafeBufferPointer<T>) -> Int? {
        let m = query.count
        let n = text.count
        guard m > 0 else { return 0 }
        guard n >= m, let q = query.baseAddress, let t = text.baseAddress else { return nil }
        var qi = 0
        var want = q[0]
        var first = -1
        var j = 0
        while j < n {
            if t[j] == want {
                if qi == 0 { first = j }
                qi &+= 1
                if qi == m { return first }
                want = q[qi]
            }
            j &+= 1
        }
        return nil
    }

    /// Upper bound of the score of any alignment of an `m`-char query.
    static func maxScore(queryLength m: Int) -> Int {
        guard m > 0 else { return 0 }
        return FuzzyScoring.match * m
            + FuzzyScoring.boundaryWhite * FuzzyScoring.firstCharMultiplier
            + FuzzyScoring.boundaryWhite * (m - 1)
    }

    /// A tighter upper bound for text `i` (which must match): the first
    /// query char at its best occurrence in this text, and every later char
    /// at the best bonus it can get. A later char's bonus is its own or the
    /// one its run carries, and a run starts on the first char or on a later
    /// char: so it is at most the best of the first char's bonus and the
    /// bonuses of the positions after the first char's first occurrence that
    /// hold a later query byte (at least `consecutive`). Exact for one char.
    /// (`splitPairGaps` lowers it further, at a cost.)
    /// - Complexity: O(length of the text), no allocation.
    static func maxScore(_ table: TextTable, _ i: Int, query: PreparedQuery,
                         needle: UnsafeBufferPointer<UInt8>) -> Int {
        let m = query.scalars.count
        guard table.isASCII(i), m > 0, let q0 = needle.first else { return maxScore(queryLength: m) }
        let units = query.caseSensitive ? table.original(i) : table.foldedText(i)
        let classes = table.classBytes(i)
        guard let base = units.baseAddress else { return maxScore(queryLength: m) }
        let n = units.count
        var best = 0
        let first = ByteScan.find(q0, base, from: 0, end: n)
        var p = first
        while p < n {
            let prev = p == 0 ? CharClass.white : CharClass.of(byte: classes[p &- 1])
            let b = CharClass.bonusFor(prev: prev, cur: CharClass.of(byte: classes[p]))
            if b > best {
                best = b
                if best >= FuzzyScoring.boundaryWhite { break }
            }
            p = ByteScan.find(q0, base, from: p &+ 1, end: n)
        }
        var later = FuzzyScoring.boundaryWhite
        if m > 1 && first < n {
            later = max(best, FuzzyScoring.consecutive)
            query.laterBytes.withUnsafeBufferPointer { wanted in
                // Classes only where a later byte is (most bytes are not).
                var j = first &+ 1
                while j < n {
                    if wanted[Int(base[j])] {
                        let b = CharClass.bonusFor(prev: CharClass.of(byte: classes[j &- 1]),
                                                   cur: CharClass.of(byte: classes[j]))
                        if b > later {
                            later = b
                            if later >= FuzzyScoring.boundaryWhite { break }
                        }
                    }
                    j &+= 1
                }
            }
        }
        return FuzzyScoring.match * m + best * FuzzyScoring.firstCharMultiplier + later * (m - 1)
    }

    /// What the gaps every alignment of `needle` in text `i` must open
    /// cost at least (≤ 0, to add to `maxScore`): `gapStart` for each
    /// consecutive needle pair that never stands together in the text (what
    /// `BonusMasks` estimates with a Bloom filter, exact here; at 1M names,
    /// "sr" in "Sarah Rodriguez" passed that filter one time in three). 0
    /// unless the text and the needle are ASCII. Worth it only for a text
    /// the DP would score next.
    /// - Complexity: O(length of the text × needle length)
    static func splitPairGaps(_ table: TextTable, _ i: Int, query: PreparedQuery,
                              needle: UnsafeBufferPointer<UInt8>) -> Int {
        let m = query.scalars.count
        guard m > 1, needle.count == m, table.isASCII(i) else { return 0 }
        let units = query.caseSensitive ? table.original(i) : table.foldedText(i)
        guard let base = units.baseAddress, let q0 = needle.first else { return 0 }
        let n = units.count
        let first = ByteScan.find(q0, base, from: 0, end: n)
        guard first < n else { return 0 }
        var split = 0
        for k in 0..<(m - 1) {
            let a = needle[k], b = needle[k + 1]
            var j = ByteScan.find(a, base, from: first, end: n)
            while j &+ 1 < n && base[j &+ 1] != b { j = ByteScan.find(a, base, from: j &+ 1, end: n) }
            if j &+ 1 >= n { split &+= 1 }
        }
        return split * FuzzyScoring.gapStart
    }

    /// Best score of `query` in `text` (`bonus[j]` = position bonus of
    /// `text[j]`), with `first` = first possible position of `query[0]`.
    /// Rows are query chars, columns text positions; one column is kept.
    /// - Complexity: O((last − first) × query.count) time, O(query.count) space.
    @inline(__always)
    static func bestScore<T: FixedWidthInteger>(
        text: UnsafeBufferPointer<T>, bonus: UnsafeBufferPointer<UInt8>,
        query: UnsafeBufferPointer<T>, first: Int, workspace ws: FuzzyWorkspace
    ) -> Int {
        let m = query.count
        // Last position of the last query char: no column after it matters.
        var last = text.count - 1
        let lastChar = query[m - 1]
        while last >= first && text[last] != lastChar { last -= 1 }
        if last < first { return impossible }
        if m == 1 {
            var best = impossible
            for j in first...last where text[j] == lastChar {
                let s = FuzzyScoring.match + Int(bonus[j]) * FuzzyScoring.firstCharMultiplier
                if s > best { best = s }
            }
            return best
        }
        ws.reserve(m)
        let mRow = ws.matchRow, gRow = ws.gapRow, rRow = ws.runRow
        for i in 0..<m { mRow[i] = impossible; gRow[i] = impossible; rRow[i] = 0 }
        let valid = impossible / 2
        var best = impossible
        for j in first...last {
            let c = text[j]
            let b = Int(bonus[j])
            let high = min(m - 1, j - first)
            let low = max(0, m - 1 - (last - j))
            if high < low { continue }
            var i = high
            while i >= low {
                let oldM = mRow[i], oldG = gRow[i]
                let gapFromMatch = oldM + FuzzyScoring.gapStart
                let gapFromGap = oldG + FuzzyScoring.gapExtension
                gRow[i] = gapFromMatch >= gapFromGap ? gapFromMatch : gapFromGap
                var newM = impossible
                var newR = 0
                if c == query[i] {
                    if i == 0 {
                        newM = FuzzyScoring.match + b * FuzzyScoring.firstCharMultiplier
                        newR = b
                    } else {
                        let pm = mRow[i - 1], pg = gRow[i - 1]
                        var consecutive = impossible
                        var consecutiveR = 0
                        if pm > valid {
                            let fb = rRow[i - 1]
                            var bb = b
                            if b >= FuzzyScoring.boundary && b > fb {
                                consecutiveR = b
                            } else {
                                bb = max(max(b, FuzzyScoring.consecutive), fb)
                                consecutiveR = fb
                            }
                            consecutive = pm + FuzzyScoring.match + bb
                        }
                        let gap = pg > valid ? pg + FuzzyScoring.match + b : impossible
                        if consecutive > valid && consecutive >= gap {
                            newM = consecutive; newR = consecutiveR
                        } else if gap > valid {
                            newM = gap; newR = b
                        }
                    }
                }
                mRow[i] = newM
                rRow[i] = newR
                i -= 1
            }
            if high == m - 1 && mRow[m - 1] > best { best = mRow[m - 1] }
        }
        return best
    }

    /// Score of text `i` for a prepared fuzzy query, or `nil` when it does
    /// not match. ASCII texts run on bytes; others on decoded scalars.
    /// - Complexity: O(length × query length)
    static func score(_ table: TextTable, _ i: Int, query: PreparedQuery,
                      workspace ws: FuzzyWorkspace) -> Int? {
        if table.isNil(i) { return nil }
        if table.isASCII(i) {
            // A non-ASCII (folded) query never matches an ASCII (folded) text.
            guard query.isASCII else { return nil }
            let units = query.caseSensitive ? table.original(i) : table.foldedText(i)
            let original = table.classBytes(i)
            return query.bytes.withUnsafeBufferPointer { q -> Int? in
                guard let first = ByteScan.subsequence(q, in: units) else { return nil }
                ws.reserveBonus(units.count)
                let bonus = ws.bonus
                CharClass.ascii.withUnsafeBufferPointer { cls in
                    CharClass.bonus.withUnsafeBufferPointer { bt in
                        // Only columns from `first` on are read.
                        var prev = first == 0 ? Int(CharClass.white) : Int(cls[Int(original[first &- 1])])
                        for j in first..<original.count {
                            let cur = Int(cls[Int(original[j])])
                            bonus[j] = bt[prev &* 8 &+ cur]
                            prev = cur
                        }
                    }
                }
                let s = bestScore(text: units, bonus: UnsafeBufferPointer(start: bonus, count: units.count),
                                  query: q, first: first, workspace: ws)
                return s > impossible / 2 ? s : nil
            }
        }
        let scalars = ScalarText(table, i, caseSensitive: query.caseSensitive)
        return scalars.units.withUnsafeBufferPointer { units in
            scalars.bonus.withUnsafeBufferPointer { bonus in
                query.scalars.withUnsafeBufferPointer { q -> Int? in
                    guard let first = prefilter(q, units) else { return nil }
                    let s = bestScore(text: units, bonus: bonus, query: q, first: first, workspace: ws)
                    return s > impossible / 2 ? s : nil
                }
            }
        }
    }

    /// `matchEnd` of a candidate whose match resumes at `resume` with
    /// `needle[skip...]` (`resume` < 0: unknown, from scratch).
    @inline(__always)
    static func resumedEnd(_ table: TextTable, _ i: Int, query: PreparedQuery, needle: UnsafeBufferPointer<UInt8>,
                           resume: Int, skip: Int) -> Int? {
        resume >= 0
            ? matchEnd(table, i, query: query, needle: needle, start: resume, from: skip)
            : matchEnd(table, i, query: query, needle: needle, start: 0, from: 0)
    }

    /// Whether text `i` matches (subsequence test only, no scoring): the
    /// greedy end of `needle` in the matched units (see
    /// `ByteScan.greedyEnd`), or `nil` when it does not match. Matching
    /// resumes at `start` with `needle[from...]` (the greedy end of
    /// `needle[..<from]`, from a previous keystroke); `0, 0` = from scratch.
    /// - Complexity: O(length of the text)
    @inline(__always)
    static func matchEnd(_ table: TextTable, _ i: Int, query: PreparedQuery,
                         needle: UnsafeBufferPointer<UInt8>, start: Int, from: Int) -> Int? {
        if table.isNil(i) { return nil }
        let units = query.caseSensitive ? table.original(i) : table.foldedText(i)
        guard let end = ByteScan.greedyEnd(needle, from: from, in: units, start: start) else { return nil }
        if table.isASCII(i) { return end }
        // Byte subsequences can cross scalar boundaries: confirm on scalars.
        let scalars = ScalarText(table, i, caseSensitive: query.caseSensitive)
        let confirmed = scalars.units.withUnsafeBufferPointer { u in
            query.scalars.withUnsafeBufferPointer { q in prefilter(q, u) != nil }
        }
        return confirmed ? end : nil
    }
}

/// A text decoded to scalars for the non-ASCII path: the matched units
/// (folded or original) and the position bonus of each scalar.
struct ScalarText {
    var units: [UInt32] = []
    var bonus: [UInt8] = []

    init(_ table: TextTable, _ i: Int, caseSensitive: Bool) {
        var original: [UInt32] = []
        TextFolding.decode(table.original(i), into: &original)
        if caseSensitive {
            units = original
        } else {
            TextFolding.decode(table.foldedText(i), into: &units)
        }
        bonus.reserveCapacity(original.count)
        var prev = CharClass.white
        for v in original {
            let cur = CharClass.of(v)
            bonus.append(CharClass.bonus[Int(prev) * 8 + Int(cur)])
            prev = cur
        }
    }
}

/// Reusable scratch rows for `FuzzyMatcher.bestScore` (one per thread).
final class FuzzyWorkspace {
    private(set) var matchRow: UnsafeMutablePointer<Int>
    private(set) var gapRow: UnsafeMutablePointer<Int>
    private(set) var runRow: UnsafeMutablePointer<Int>
    private(set) var bonus: UnsafeMutablePointer<UInt8>
    private var rowCapacity = 16
    private var bonusCapacity = 256

    init() {
        matchRow = .allocate(capacity: 16)
        gapRow = .allocate(capacity: 16)
        runRow = .allocate(capacity: 16)
        bonus = .allocate(capacity: 256)
    }

    deinit {
        matchRow.deallocate(); gapRow.deallocate(); runRow.deallocate(); bonus.deallocate()
    }

    @inline(__always) func reserve(_ m: Int) {
        guard m > rowCapacity else { return }
        matchRow.deallocate(); gapRow.deallocate(); runRow.deallocate()
        rowCapacity = max(m, rowCapacity * 2)
        matchRow = .allocate(capacity: rowCapacity)
        gapRow = .allocate(capacity: rowCapacity)
        runRow = .allocate(capacity: rowCapacity)
    }

    @inline(__always) func reserveBonus(_ n: Int) {
        guard n > bonusCapacity else { return }
        bonus.deallocate()
        bonusCapacity = max(n, bonusCapacity * 2)
        bonus = .allocate(capacity: bonusCapacity)
    }
}
