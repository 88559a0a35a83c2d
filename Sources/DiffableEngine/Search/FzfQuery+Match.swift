extension FzfQuery {
    /// fzf's score of text `i` (the sum of each set's score: the first of
    /// its terms that matches, an inverse term counting 0), or `nil` when a
    /// set has no match. A `nil` text never matches.
    /// - Complexity: O(terms × length × term length); no allocation once the
    ///   workspace fits the text.
    func score(_ table: TextTable, _ i: Int, scheme: FzfBonusTable, forward: Bool = true,
               workspace ws: FuzzyWorkspace) -> Int? {
        var offsets = FzfOffsets()
        return score(table, i, scheme: scheme, forward: forward, workspace: ws, offsets: &offsets)
    }

    /// `score`, also folding each set's matched span into `offsets`.
    /// `exactStart`: fuzzy spans start where fzf's backtrace starts (what
    /// fzf reports when the `chunk` tie-break is on), not at the first
    /// occurrence of the first char.
    func score(_ table: TextTable, _ i: Int, scheme: FzfBonusTable, forward: Bool = true,
               workspace ws: FuzzyWorkspace, offsets: inout FzfOffsets, exactStart: Bool = false) -> Int? {
        if fielded {
            return fieldedScore(table, i, scheme: scheme, forward: forward, workspace: ws, offsets: &offsets,
                                exactStart: exactStart)
        }
        if table.isNil(i) { return nil }
        var total = 0
        for set in sets {
            guard let (score, found) = Self.matchSet(set, table, i, scheme: scheme, forward: forward, workspace: ws)
            else { return nil }
            if let (term, span) = found {
                var start = span.start
                if exactStart && term.type == .fuzzy {
                    let (units, bonus) = FuzzyMatcher.compared(table, i, pattern: term.pattern, scheme: scheme)
                    start = FzfAlgo.positions(text: units, bonus: bonus, pattern: term.pattern.units,
                                              forward: forward).first ?? start
                }
                offsets.add(start, span.end)
            }
            total &+= score
        }
        return total
    }

    /// fzf's rule for one OR set: terms in order; a matching term ends it
    /// (an inverse one that matches is skipped), an inverse term that does
    /// not match counts as matched with score 0 and the next terms are
    /// still tried. Returns the score and the term that set it with its
    /// span (nil: an inverse term).
    static func matchSet(_ set: [FzfTerm], _ table: TextTable, _ i: Int, scheme: FzfBonusTable,
                         forward: Bool, workspace ws: FuzzyWorkspace) -> (Int, (FzfTerm, FzfAlgo.Span)?)? {
        var result: (Int, (FzfTerm, FzfAlgo.Span)?)?
        for term in set {
            if let found = term.match(table, i, scheme: scheme, forward: forward, workspace: ws) {
                if term.inverse { continue }
                return (found.score, (term, found))
            } else if term.inverse {
                result = (0, nil)
            }
        }
        return result
    }

    /// The scalar positions fzf highlights in text `i`: every matching
    /// term's (fuzzy: its alignment; others: their span), ascending.
    /// - Complexity: O(terms × length × term length) time and space.
    func positions(_ table: TextTable, _ i: Int, scheme: FzfBonusTable, forward: Bool = true) -> [Int] {
        if fielded { return fieldedPositions(table, i, scheme: scheme, forward: forward) }
        if table.isNil(i) { return [] }
        let ws = FuzzyWorkspace()
        var out = Set<Int>()
        for set in sets {
            guard let (_, found) = Self.matchSet(set, table, i, scheme: scheme, forward: forward, workspace: ws),
                  let term = found?.0 else { continue }
            let (units, bonus) = FuzzyMatcher.compared(table, i, pattern: term.pattern, scheme: scheme)
            if term.type == .fuzzy {
                out.formUnion(FzfAlgo.positions(text: units, bonus: bonus, pattern: term.pattern.units, forward: forward))
            } else {
                let span = units.withUnsafeBufferPointer { t in
                    bonus.withUnsafeBufferPointer { b in
                        term.pattern.units.withUnsafeBufferPointer { p in
                            b.baseAddress.flatMap {
                                term.run(text: t, bonus: $0, pattern: p, scheme: scheme, forward: forward, workspace: ws)
                            }
                        }
                    }
                }
                if let span { out.formUnion(span.start..<span.end) }
            }
        }
        return out.sorted()
    }
}

extension FzfTerm {
    /// This term's match in text `i`: ASCII texts on their bytes (folded
    /// unless case-sensitive), others decoded as the term compares them.
    /// - Complexity: O(length × term length)
    func match(_ table: TextTable, _ i: Int, scheme: FzfBonusTable, forward: Bool = true,
               workspace ws: FuzzyWorkspace) -> FzfAlgo.Span? {
        if table.isNil(i) { return nil }
        if table.isASCII(i) {
            guard pattern.isASCII else { return nil }
            return bytes.withUnsafeBufferPointer {
                Self.matchASCII(type, caseSensitive: pattern.caseSensitive, bytes: $0, table, i, scheme: scheme,
                                forward: forward, workspace: ws)
            }
        }
        let n = ws.load(table, i, pattern: pattern, scheme: scheme)
        return pattern.units.withUnsafeBufferPointer { p in
            run(text: UnsafeBufferPointer(start: ws.units, count: n), bonus: ws.bonus, pattern: p,
                scheme: scheme, forward: forward, workspace: ws)
        }
    }

    /// `match` of an ASCII term (its compared bytes `p`) of type `type` in
    /// ASCII text `i`: the bytes compared as the term compares them
    /// (folded unless case-sensitive), placed first, then scored.
    /// - Complexity: O(length × term length)
    @inline(__always)
    static func matchASCII(_ type: FzfTermType, caseSensitive: Bool, bytes p: UnsafeBufferPointer<UInt8>,
                           _ table: TextTable, _ i: Int, scheme: FzfBonusTable, forward: Bool,
                           workspace ws: FuzzyWorkspace) -> FzfAlgo.Span? {
        let units = caseSensitive ? table.original(i) : table.foldedText(i)
        // Most texts fail the term's placement before their bonuses are
        // computed.
        guard possible(type, units, p) else { return nil }
        let bonus = asciiBonuses(table, i, scheme: scheme, workspace: ws)
        return run(type, text: units, bonus: bonus, pattern: p, scheme: scheme, forward: forward, workspace: ws)
    }

    /// The position bonuses of ASCII text `i` under `scheme`, written to
    /// the workspace's `bonus`.
    /// - Complexity: O(length)
    @inline(__always)
    static func asciiBonuses(_ table: TextTable, _ i: Int, scheme: FzfBonusTable,
                             workspace ws: FuzzyWorkspace) -> UnsafeMutablePointer<UInt8> {
        let classes = table.classBytes(i)
        ws.reserveColumns(classes.count)
        let bonus = ws.bonus
        let cls = scheme.asciiClass, bt = scheme.bonus
        var prev = Int(scheme.initialClass)
        for j in 0..<classes.count {
            let cur = Int(cls[Int(classes[j])])
            bonus[j] = bt[prev &* 8 &+ cur]
            prev = cur
        }
        return bonus
    }

    /// Whether the term's chars can be where it needs them in ASCII
    /// `units` (compared as its algorithm compares them): in order (fuzzy),
    /// together (exact), at the start or the end after whitespace (prefix,
    /// suffix: exactly the algorithm's test), the whole text (equal). No
    /// bonus is read.
    /// - Complexity: O(units.count) (exact: O(n × m) worst case)
    @inline(__always)
    func possible(_ units: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        Self.possible(type, units, p)
    }

    /// `possible` for a term of type `type`.
    @inline(__always)
    static func possible(_ type: FzfTermType, _ units: UnsafeBufferPointer<UInt8>,
                         _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        let m = p.count, n = units.count
        guard m > 0 else { return false }
        switch type {
        case .fuzzy:
            return FuzzyMatcher.prefilter(p, units) != nil
        case .exact:
            return SubstringMatcher.firstOccurrence(of: p, in: units) != nil
        case .prefix:
            let lead = CharClass.of(byte: p[0]) == CharClass.white ? 0 : FzfAlgo.whitespace(units).leading
            guard n &- lead >= m else { return false }
            for k in 0..<m where units[lead &+ k] != p[k] { return false }
            return true
        case .suffix:
            let trail = CharClass.of(byte: p[m &- 1]) == CharClass.white ? 0 : FzfAlgo.whitespace(units).trailing
            guard n &- trail >= m else { return false }
            let start = n &- trail &- m
            for k in 0..<m where units[start &+ k] != p[k] { return false }
            return true
        case .equal:
            return FzfAlgo.equal(text: units, pattern: p, boundaryWhite: 0) != nil
        }
    }

    /// The term's algorithm on prepared units.
    @inline(__always)
    func run<T: FixedWidthInteger>(text: UnsafeBufferPointer<T>, bonus: UnsafePointer<UInt8>,
                                   pattern: UnsafeBufferPointer<T>, scheme: FzfBonusTable, forward: Bool,
                                   workspace ws: FuzzyWorkspace) -> FzfAlgo.Span? {
        Self.run(type, text: text, bonus: bonus, pattern: pattern, scheme: scheme, forward: forward, workspace: ws)
    }

    /// The algorithm of a term of type `type` on prepared units.
    @inline(__always)
    static func run<T: FixedWidthInteger>(_ type: FzfTermType, text: UnsafeBufferPointer<T>,
                                          bonus: UnsafePointer<UInt8>, pattern: UnsafeBufferPointer<T>,
                                          scheme: FzfBonusTable, forward: Bool,
                                          workspace ws: FuzzyWorkspace) -> FzfAlgo.Span? {
        switch type {
        case .fuzzy:
            return FzfAlgo.match(text: text, bonus: bonus, pattern: pattern, from: 0, forward: forward, workspace: ws)
        case .exact:
            return FzfAlgo.exact(text: text, bonus: bonus, pattern: pattern, boundaryWhite: scheme.boundaryWhite,
                                 forward: forward)
        case .prefix:
            return FzfAlgo.prefix(text: text, bonus: bonus, pattern: pattern)
        case .suffix:
            return FzfAlgo.suffix(text: text, bonus: bonus, pattern: pattern)
        case .equal:
            return FzfAlgo.equal(text: text, pattern: pattern, boundaryWhite: scheme.boundaryWhite)
        }
    }
}
