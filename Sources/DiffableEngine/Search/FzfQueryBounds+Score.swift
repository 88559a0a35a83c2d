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
        let terms = storage.terms
        var total = 0
        var k = 0
        for end in storage.setEnds {
            // fzf's rule for a set (`FzfQuery.matchSet`): the first term
            // that matches, skipping inverse ones that do; an inverse term
            // that does not match counts as 0 unless a later one matches.
            var score: Int?
            var span: FzfAlgo.Span?
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
                        break
                    }
                } else if term.inverse {
                    score = 0
                }
                k &+= 1
            }
            k = end
            guard let score else { return nil }
            if let span { offsets.add(span.start, span.end) }
            total &+= score
        }
        return total
    }
}
