/// An extended query typed term after term, scanned as its last term.
///
/// Typing `src swift` narrows each key from the previous key's matches,
/// and from `src s` on every set but the last is one the previous query
/// had: every candidate matches it, and its score is often known
/// (`TermScores`). What is left to decide is the last set's one fuzzy
/// term, which is what the single-needle path does best: it resumes where
/// the previous key's term matched, decides most texts on their tail sets
/// without reading them, and bounds the rest by their masks and runs. So
/// such a query is scanned as that needle (`PreparedQuery.needleForm`),
/// every bound raised by what the other sets may earn on the text
/// (`FzfQueryBounds.knownSetsBound`), and a text that may enter is scored
/// as the whole query (`FzfQueryBounds.asciiScore`).
///
/// Its match set keeps where the needle ended in each text, so the next
/// key (`src swift$` aside) resumes there (`SearchIndex.resumeFrom`).
struct NeedleOffsets: @unchecked Sendable {
    /// The whole query.
    let extended: FzfQuery
    /// Its bounds, the sets before the last known to match.
    let bounds: FzfQueryBounds
    /// The needle's set: the last.
    let needleSet: Int
}

extension PreparedQuery {
    /// This narrowed extended query scanned as its last set's one fuzzy
    /// term, when every other set is known to match (`knowSets`), that
    /// term is ASCII and case-insensitive, and no tie-break reads matched
    /// spans; nil otherwise.
    /// - Complexity: O(query length)
    func needleForm(scheme: SearchScheme, tiebreak: [SearchTiebreak]?) -> PreparedQuery? {
        guard mode == .fuzzy, let extended, !extended.fielded, !needsOffsets, !exactStart,
              let bounds = extendedBounds, extended.sets.count >= 2,
              let last = extended.sets.last, last.count == 1, let term = last.first,
              term.type == .fuzzy, !term.inverse, term.pattern.isASCII, !term.pattern.caseSensitive,
              !term.bytes.isEmpty else { return nil }
        var start = 0
        for s in 0..<extended.sets.count - 1 {
            let end = bounds.storage.setEnds[s]
            guard end - start == 1, bounds.storage.terms[start].known else { return nil }
            start = end
        }
        var form = PreparedQuery(mode: .fuzzy, typed: term.pattern.typed, extended: nil, scheme: scheme,
                                 tiebreak: tiebreak)
        guard form.foldedIsExact, form.bytes == term.bytes, form.criteria == criteria else { return nil }
        form.scanned(asPartOf: self, offsets: NeedleOffsets(extended: extended, bounds: bounds,
                                                            needleSet: extended.sets.count - 1))
        return form
    }
}

extension FzfQueryBounds {
    /// What every set but `needle` may earn on ASCII text `id` (index in
    /// the `SearchIndex`) with these `masks`, every such set being known to
    /// match it: its known score or bound, else its masks' bound (0 for an
    /// inverse term); `unknown` is set when a bound came from the masks.
    /// When `tightening`, such a bound is tightened where the set's first
    /// pair stands (`wordPairs`) and by its runs, and kept as a loose bound
    /// for the chain's next keys. Each set's bound is written to
    /// `setBounds`.
    /// - Complexity: O(sets), O(Σ term length) when `tightening`.
    @inline(__always)
    func knownSetsBound(masks: BonusMasks, wordPairs: UInt64, setBounds: UnsafeMutablePointer<Int>,
                        known: SetScoreTables?, id: Int, skipping needle: Int,
                        tightening: Bool, unknown: inout Bool) -> Int {
        let ends = storage.setEnds, terms = storage.terms
        var total = 0
        var start = 0
        for s in 0..<ends.count {
            let end = ends[s]
            if s != needle {
                let b: Int
                if let value = known?.bound(set: s, id: id) {
                    b = value
                } else {
                    let term = terms[start]
                    if term.inverse {
                        b = 0
                    } else if term.loose {
                        b = FuzzyMatcher.maxScore(queryLength: term.length)
                    } else {
                        let pairs = UnsafeBufferPointer(rebasing: storage.pairBits[term.pairs])
                        var bound = masks.scoreBound(first: term.first, later: term.later, pairs: pairs,
                                                     length: term.length)
                        unknown = true
                        if tightening {
                            if storage.refinedTerms[s] >= 0,
                               let tight = firstPairBound(term, masks: masks, wordPairs: wordPairs) {
                                bound = min(bound, tight)
                            }
                            if storage.runTerms[s] >= 0 {
                                bound = min(bound, runsBound(term, masks: masks, wordPairs: wordPairs))
                            }
                            known?.record(set: s, id: id, looseBound: bound)
                        }
                        b = bound
                    }
                }
                setBounds[s] = b
                total &+= b
            }
            start = end
        }
        return total
    }
}

extension FzfQuery {
    /// When a scan of `previous`'s matches for this query may resume the
    /// last set's fuzzy term where `previous`'s ended: the number of its
    /// bytes already matched. Both are extended queries whose sets are the
    /// same but the last, a set of one case-insensitive ASCII fuzzy term in
    /// both, the new one starting with the old one. A match set records
    /// where the needle ended only when scanned in the needle form, and
    /// "unknown" (-1) otherwise.
    /// - Complexity: O(query length)
    func lastTermResumes(after previous: FzfQuery) -> Int? {
        guard !fielded, !previous.fielded, sets.count >= 2, sets.count == previous.sets.count,
              sets.dropLast() == previous.sets.dropLast(),
              let new = sets.last, new.count == 1, let n = new.first,
              let old = previous.sets.last, old.count == 1, let o = old.first else { return nil }
        for term in [n, o] {
            guard term.type == .fuzzy, !term.inverse, term.pattern.isASCII, !term.pattern.caseSensitive,
                  !term.bytes.isEmpty else { return nil }
        }
        return n.bytes.starts(with: o.bytes) ? o.bytes.count : nil
    }
}
