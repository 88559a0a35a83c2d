/// Scoring an ASCII text from the bounds' flat records.
///
/// A ranked extended query scores every text its bound admits, on both
/// scan threads at once. `FzfQuery.score` reads its terms from arrays of
/// structs that hold arrays: each term it reads is a copy, retained and
/// released, and the two threads contend on the same reference counts.
/// The bounds already keep each term as a plain record behind a raw
/// pointer (`FzfQueryBounds.Storage`), which is all an ASCII text needs:
/// its type, inverse, case and compared bytes.
extension FzfQueryBounds {
    /// `FzfQuery.score(…)` (without `exactStart`) of ASCII text `i` of a
    /// query that is not `fielded`: nil when a set has no match, else the
    /// sum of the sets' scores, each set's matched span folded into
    /// `offsets`. `known` flags are ignored: a known set is still scored.
    /// - Complexity: O(terms × length × term length); no allocation once
    ///   the workspace fits the text, no reference counting.
    func asciiScore(_ table: TextTable, _ i: Int, scheme: FzfBonusTable, forward: Bool,
                    workspace ws: FuzzyWorkspace, offsets: inout FzfOffsets) -> Int? {
        asciiScore(table, i, scheme: scheme, forward: forward, workspace: ws, offsets: &offsets, setBounds: nil,
                   known: nil, id: 0) { _ in true }
    }

    /// `asciiScore` of a text known to match, ranked against a floor: the
    /// sets are scored in order, and once the scores so far plus the other
    /// sets' bounds (`setBounds`, written by `bound`) are not `admitted`,
    /// the text cannot enter and nil is returned without scoring the rest.
    /// A set's bound is at least its score, so a text that would enter is
    /// never stopped. `known`: sets' scores of this text (index `id` in the
    /// `SearchIndex`) computed before, read instead of scoring them (their
    /// spans are not added to `offsets`), and recorded once computed.
    /// - Complexity: O(terms × length × term length) at most.
    func asciiScore(_ table: TextTable, _ i: Int, scheme: FzfBonusTable, forward: Bool,
                    workspace ws: FuzzyWorkspace, offsets: inout FzfOffsets, setBounds: UnsafePointer<Int>?,
                    known: SetScoreTables?, id: Int, admitted: (Int) -> Bool) -> Int? {
        let terms = storage.terms
        var total = 0
        var unscored = 0
        if let setBounds { for s in storage.setEnds.indices { unscored &+= setBounds[s] } }
        // Sets of one fuzzy term (scored by the DP) after the others, which
        // are scored where they stand: a cheap set that earns less than its
        // bound may stop the text before the DP runs.
        let setCount = storage.setEnds.count
        var done = 0
        for pass in 0..<2 { for s in 0..<setCount {
            let start = s == 0 ? 0 : storage.setEnds[s &- 1]
            let end = storage.setEnds[s]
            let scoredByDP = end &- start == 1 && terms[start].type == .fuzzy
            if scoredByDP != (pass == 1) { continue }
            var k = start
            // fzf's rule for a set (`FzfQuery.matchSet`): the first term
            // that matches, skipping inverse ones that do; an inverse term
            // that does not match counts as 0 unless a later one matches.
            var score = known?.score(set: s, id: id)
            var span: FzfAlgo.Span?
            if score != nil { k = end }
            if score == nil, let setBounds, end &- k == 1, terms[k].type == .fuzzy, !terms[k].inverse,
               terms[k].placeable, terms[k].length >= 2 {
                let term = terms[k]
                // A set of one fuzzy term, known to match: bounded by its
                // runs (`FzfAlgo.runBound`) before it is scored.
                let units = term.caseSensitive ? table.original(i) : table.foldedText(i)
                let p = UnsafeBufferPointer(rebasing: storage.bytes[term.bytes])
                var tight = setBounds[s]
                if known?.runBound(set: s, id: id) == nil {
                    // Bonuses read only where the term's chars stand: most
                    // texts stop here, and never pay for the whole row.
                    tight = min(FzfAlgo.runBound(table, i, scheme: scheme, units: units, pattern: p), tight)
                    known?.record(set: s, id: id, bound: tight)
                }
                if tight < setBounds[s] && !admitted(total &+ unscored &- setBounds[s] &+ tight) { return nil }
                let bonus = FzfTerm.asciiBonuses(table, i, scheme: scheme, workspace: ws)
                guard let found = FzfTerm.run(.fuzzy, text: units, bonus: bonus, pattern: p, scheme: scheme,
                                              forward: forward, workspace: ws) else { return nil }
                score = found.score
                span = found
                known?.record(set: s, id: id, score: found.score)
                k = end
            }
            while k < end {
                let term = terms[k]
                let found = term.placeable
                    ? FzfTerm.matchASCII(term.type, caseSensitive: term.caseSensitive,
                                         bytes: UnsafeBufferPointer(rebasing: storage.bytes[term.bytes]),
                                         table, i, scheme: scheme, forward: forward, workspace: ws)
                    : nil
                if let found {
                    if !term.inverse {
                        score = found.score
                        span = found
                        known?.record(set: s, id: id, score: found.score)
                        break
                    }
                } else if term.inverse {
                    score = 0
                }
                k &+= 1
            }
            guard let score else { return nil }
            if let span { offsets.add(span.start, span.end) }
            total &+= score
            done &+= 1
            if let setBounds {
                unscored &-= setBounds[s]
                if done < setCount && !admitted(total &+ unscored) { return nil }
            }
        } }
        return total
    }
}
