/// What `Scanner.scan` asks of one text beyond its bounds: its score (on
/// the single-needle path or term by term), its tie-break key, and the
/// matched spans the tie-breaks that read them need.
extension Scanner {
    /// The score of text `i`, or `nil` when it does not match.
    /// - Complexity: O(L) substring, O(L × query length) fuzzy.
    func score(_ i: Int) -> Int? { score(i, extended: query.extended) }

    /// `score(i)` given `query.extended`, which a scan loop reads once: each
    /// read of the optional costs reference counting on its arrays.
    @inline(__always)
    func score(_ i: Int, extended: FzfQuery?) -> Int? {
        if query.isEmpty { return 0 }
        switch query.mode {
        case .substring:
            return query.bytes.withUnsafeBufferPointer { SubstringMatcher.score(table, i, needle: $0) }
        case .fuzzy, .exact:
            if let extended {
                var offsets = FzfOffsets()
                return extendedScore(extended, i, offsets: &offsets, exactStart: false)
            }
            return FuzzyMatcher.score(table, i, query: query, workspace: workspace)
        }
    }

    /// The tie-break key of text `i` (`RankKey.length`): the length in
    /// scalars for substring queries; fzf's tie-breaks for the others
    /// (`FzfTiebreakKey`), a lower bound of them when `offsets` is nil and
    /// they read the matched spans.
    @inline(__always)
    func rankLength(_ i: Int) -> Int {
        switch query.keyKind {
        case .scalarLength: return table.scalarLength(i)
        case .trimmedLength: return table.trimmedLength(i)
        case .none: return 0
        case .criteria: return criteriaKey(i, offsets: nil)
        }
    }

    /// Kept out of line: the scan loop stays small enough to keep its
    /// locals in registers.
    @inline(never)
    func criteriaKey(_ i: Int, offsets: FzfOffsets?) -> Int {
        FzfTiebreakKey.key(query.criteria, table, i, offsets: offsets)
    }

    /// `extended.score(…)` of text `i`: an ASCII text of a query that is
    /// not of fields is read from the bounds' flat records
    /// (`FzfQueryBounds.asciiScore`), which cost no reference counting.
    @inline(__always)
    func extendedScore(_ extended: FzfQuery, _ i: Int, offsets: inout FzfOffsets, exactStart: Bool) -> Int? {
        // Optional chaining reads the bounds in place (a binding would
        // copy them); they exist whenever `extended` does.
        if !exactStart && !extended.fielded && table.isASCII(i) && query.extendedBounds != nil {
            return query.extendedBounds?.asciiScore(table, i, scheme: query.scheme, forward: query.forward,
                                                    workspace: workspace, offsets: &offsets) ?? nil
        }
        return extended.score(table, i, scheme: query.scheme, forward: query.forward, workspace: workspace,
                              offsets: &offsets, exactStart: exactStart)
    }

    /// An extended query's score of text `i` and its matched spans.
    @inline(never)
    func extendedMatch(_ extended: FzfQuery, _ i: Int) -> (Int, FzfOffsets)? {
        var offsets = FzfOffsets()
        guard let s = extendedScore(extended, i, offsets: &offsets, exactStart: query.exactStart) else { return nil }
        return (s, offsets)
    }

    /// The whole query's score of text `i`, scanned in the needle form
    /// (`NeedleOffsets`), with `length` as its key; nil when it does not
    /// match or, for an ASCII text, once its sets scored so far and the
    /// others' bounds are not `admitted`. `setBounds` holds the other sets'
    /// bounds (`knownSetsBound`); `needleRun` bounds the needle's set.
    @inline(__always)
    func needleScore(_ offsets: NeedleOffsets, _ i: Int, setBounds: UnsafeMutablePointer<Int>?, needleRun: Int,
                     known: SetScoreTables?, id: Int, length: Int,
                     admitted: (Int) -> Bool) -> (score: Int, key: Int)? {
        guard table.isASCII(i), let setBounds else {
            return extendedMatch(offsets.extended, i).map { ($0.0, length) }
        }
        setBounds[offsets.needleSet] = needleRun
        // The scan's run bound of the needle, not taken again.
        if needleRun < FuzzyMatcher.maxScore(queryLength: query.scalars.count) {
            known?.record(set: offsets.needleSet, id: id, bound: needleRun)
        }
        var spans = FzfOffsets()
        return offsets.bounds.asciiScore(table, i, scheme: query.scheme, forward: query.forward, workspace: workspace,
                                         offsets: &spans, setBounds: setBounds, known: known, id: id,
                                         admitted: admitted).map { ($0, length) }
    }

    /// The score of text `i` (`known` when already computed) and its
    /// tie-break key, or nil when it does not match. Tie-breaks that read
    /// the matched spans score the text again when its spans are unknown.
    /// `extended`: `query.extended`, read once by the caller.
    @inline(__always)
    func scoredKey(_ i: Int, known: Int?, offsets: FzfOffsets?, extended: FzfQuery?) -> (score: Int, key: Int)? {
        if query.needsOffsets { return scoredKeyWithOffsets(i, known: known, offsets: offsets, extended: extended) }
        guard let s = known ?? score(i, extended: extended) else { return nil }
        return (s, rankLength(i))
    }

    @inline(never)
    func scoredKeyWithOffsets(_ i: Int, known: Int?, offsets: FzfOffsets?,
                              extended: FzfQuery?) -> (score: Int, key: Int)? {
        if let known, let offsets { return (known, criteriaKey(i, offsets: offsets)) }
        var found = FzfOffsets()
        let s: Int?
        if let extended {
            s = extendedScore(extended, i, offsets: &found, exactStart: query.exactStart)
        } else if let span = FuzzyMatcher.match(table, i, query: query, workspace: workspace) {
            let start = query.exactStart ? FuzzyMatcher.positions(table, i, query: query).first ?? span.start : span.start
            found.add(start, span.end)
            s = span.score
        } else {
            s = known
        }
        guard let s else { return nil }
        return (s, criteriaKey(i, offsets: found))
    }
}
