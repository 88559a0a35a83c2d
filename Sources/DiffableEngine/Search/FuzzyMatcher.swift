/// fzf's fuzzy matching on the index's texts: the byte prefilters and
/// score bounds that decide most texts without scoring them, and the
/// scoring itself (`FzfAlgo`, which reproduces fzf's scores).
///
/// A text matches when the term's compared chars (`FzfPattern`: smart case,
/// Latin normalization) occur in it in order. ASCII texts are compared on
/// bytes (the folded copy, or the original when case-sensitive); others are
/// decoded and transformed char by char as fzf does.
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
        // The folded copy holds every position an alignment can use.
        let units = table.foldedText(i)
        let classes = table.classBytes(i)
        guard let base = units.baseAddress else { return maxScore(queryLength: m) }
        let n = units.count
        var best = 0
        let first = ByteScan.find(q0, base, from: 0, end: n)
        var p = first
        while p < n {
            let prev = p == 0 ? CharClass.white : CharClass.of(byte: classes[p &- 1])
            let b = CharClass.boundBonus(prev: prev, cur: CharClass.of(byte: classes[p]), byte: classes[p])
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
                        let b = CharClass.boundBonus(prev: CharClass.of(byte: classes[j &- 1]),
                                                     cur: CharClass.of(byte: classes[j]), byte: classes[j])
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
    /// `BonusMasks` estimates with a Bloom filter, exact here; a short
    /// filter passes many texts by a false positive, such as "sr" in
    /// "Sarah Rodriguez"). 0
    /// unless the text and the needle are ASCII. Worth it only for a text
    /// the DP would score next.
    /// - Complexity: O(length of the text × needle length)
    static func splitPairGaps(_ table: TextTable, _ i: Int, query: PreparedQuery,
                              needle: UnsafeBufferPointer<UInt8>) -> Int {
        let m = query.scalars.count
        guard m > 1, needle.count == m, table.isASCII(i) else { return 0 }
        let units = table.foldedText(i)
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

    /// `FzfAlgo.runBound` of ASCII text `i` (known to match) for an ASCII
    /// query `units` (`query.unitBytes`) of at least two chars: tighter than
    /// `maxScore` on texts whose first query char starts no run, such as
    /// most paths for a query that ends a file name.
    /// - Complexity: O(length of the text + occurrences × query length ×
    ///   gap), as `FzfAlgo.runBound`.
    static func runBound(_ table: TextTable, _ i: Int, query: PreparedQuery, units q: UnsafeBufferPointer<UInt8>) -> Int {
        FzfAlgo.runBound(table, i, scheme: query.scheme,
                         units: query.caseSensitive ? table.original(i) : table.foldedText(i), pattern: q)
    }

    /// fzf's score of text `i` for a prepared fuzzy query, or `nil` when
    /// it does not match.
    /// - Complexity: O(length × query length); no allocation once the
    ///   workspace fits the text.
    static func score(_ table: TextTable, _ i: Int, query: PreparedQuery,
                      workspace ws: FuzzyWorkspace) -> Int? {
        match(table, i, query: query, workspace: ws)?.score
    }

    /// `score` with fzf's span of the match (`FzfAlgo.match`).
    static func match(_ table: TextTable, _ i: Int, query: PreparedQuery,
                      workspace ws: FuzzyWorkspace) -> FzfAlgo.Span? {
        if table.isNil(i) { return nil }
        let scheme = query.scheme
        if table.isASCII(i) {
            // A non-ASCII pattern never matches an ASCII text (as in fzf).
            guard query.pattern.isASCII else { return nil }
            let units = query.caseSensitive ? table.original(i) : table.foldedText(i)
            let classes = table.classBytes(i)
            return query.unitBytes.withUnsafeBufferPointer { q -> FzfAlgo.Span? in
                guard let first = ByteScan.subsequence(q, in: units) else { return nil }
                ws.reserveColumns(units.count)
                let bonus = ws.bonus
                let cls = scheme.asciiClass, bt = scheme.bonus
                // Only columns from `first` on are read.
                var prev = first == 0 ? Int(scheme.initialClass) : Int(cls[Int(classes[first &- 1])])
                for j in first..<classes.count {
                    let cur = Int(cls[Int(classes[j])])
                    bonus[j] = bt[prev &* 8 &+ cur]
                    prev = cur
                }
                return FzfAlgo.match(text: units, bonus: bonus, pattern: q, from: first, forward: query.forward,
                                     workspace: ws)
            }
        }
        let n = ws.load(table, i, pattern: query.pattern, scheme: scheme)
        return query.pattern.units.withUnsafeBufferPointer { q in
            FzfAlgo.match(text: UnsafeBufferPointer(start: ws.units, count: n), bonus: ws.bonus,
                          pattern: q, from: 0, forward: query.forward, workspace: ws)
        }
    }

    /// fzf's score of a one-char query in ASCII text `i` (the first
    /// occurrence with a boundary bonus, else the best), without the
    /// workspace; `nil` when the char does not occur.
    /// - Complexity: O(length of the text), no allocation.
    static func oneCharScore(_ table: TextTable, _ i: Int, unit: UInt8, query: PreparedQuery) -> Int? {
        let units = query.caseSensitive ? table.original(i) : table.foldedText(i)
        let classes = table.classBytes(i)
        guard let base = units.baseAddress else { return nil }
        let n = units.count
        let scheme = query.scheme
        var p = ByteScan.find(unit, base, from: 0, end: n)
        guard p < n else { return nil }
        var best = 0
        while p < n {
            let prev = p == 0 ? scheme.initialClass : scheme.asciiClass[Int(classes[p &- 1])]
            let b = Int(scheme.bonus[Int(prev) &* 8 &+ Int(scheme.asciiClass[Int(classes[p])])])
            let s = FuzzyScoring.match &+ b &* FuzzyScoring.firstCharMultiplier
            if s > best {
                best = s
                if b >= FuzzyScoring.boundary { break }
            }
            p = ByteScan.find(unit, base, from: p &+ 1, end: n)
        }
        return best
    }

    /// Whether the non-ASCII text `i` holds `pattern` as a subsequence of
    /// its chars transformed as fzf compares them.
    /// - Complexity: O(length of the text), no allocation.
    @inline(never)
    static func scalarsMatch(_ table: TextTable, _ i: Int, pattern: FzfPattern) -> Bool {
        let units = pattern.units
        guard !units.isEmpty else { return true }
        var k = 0
        let m = units.count
        units.withUnsafeBufferPointer { q in
            FzfText.forEachScalar(table.original(i)) { v in
                guard k < m else { return }
                let cls = v < 0x80 ? CharClass.of(byte: UInt8(v)) : FzfText.charClass(nonASCII: v)
                if pattern.transform(v, class: cls) == q[k] { k &+= 1 }
            }
        }
        return k == m
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
        guard let end = ByteScan.greedyEnd(needle, from: from, in: table.foldedText(i), start: start)
        else { return nil }
        if table.isASCII(i) {
            if query.foldedIsExact { return end }
            guard query.pattern.isASCII else { return nil }
            // Case-sensitive: the original bytes decide.
            let found = query.unitBytes.withUnsafeBufferPointer { q in
                ByteScan.subsequence(q, in: table.original(i)) != nil
            }
            return found ? end : nil
        }
        // The folded bytes only prefilter: confirm on the chars fzf compares.
        return scalarsMatch(table, i, pattern: query.pattern) ? end : nil
    }
}
