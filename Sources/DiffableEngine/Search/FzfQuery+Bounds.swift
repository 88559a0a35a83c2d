/// Deciding an extended query's match on an ASCII text without scoring it,
/// and bounding the score it would have.
///
/// Ranking the best k of many matches spends most of its time scoring
/// texts that cannot enter. For an ASCII text, which term decides each set
/// follows from the terms' placements alone (`FzfTerm.possible` is exactly
/// the test each term's algorithm applies), and that term's score is
/// bounded by the text's bonus masks as a single needle's is
/// (`BonusMasks.scoreBound`). A text whose bound cannot enter the best k is
/// then a match that is never scored. Over fields the same holds: a term
/// is placed field by field, and the joined text's masks bound every
/// field's bonuses (a field starts after whitespace, the best boundary).
struct FzfQueryBounds: Sendable {
    /// One term in `BonusMasks.scoreBound`'s terms.
    struct Term: Sendable {
        let first: UInt32
        let later: UInt32
        let pairs: Range<Int>
        let length: Int
        /// Bounded by `FuzzyMatcher.maxScore(queryLength:)` only: the
        /// equal-match score is fixed by the scheme, not the text.
        let loose: Bool
    }

    let query: FzfQuery
    /// The terms' bounds, set by set in the query's order.
    let terms: [Term]
    let pairBits: [UInt32]
    /// An upper bound of any text's score: each set's best term at its
    /// best.
    let maxScore: Int

    /// nil for a query with no term.
    init?(_ query: FzfQuery) {
        guard !query.isEmpty else { return nil }
        self.query = query
        var terms: [Term] = []
        var pairBits: [UInt32] = []
        var maxScore = 0
        for set in query.sets {
            var best = 0
            for term in set {
                let bytes = term.bytes
                let start = pairBits.count
                pairBits += BonusMasks.pairBits(bytes)
                terms.append(Term(first: bytes.first.map { BonusMasks.bucket[Int($0)] } ?? 0,
                                  later: bytes.dropFirst().reduce(0) { $0 | BonusMasks.bucket[Int($1)] },
                                  pairs: start..<pairBits.count, length: bytes.count,
                                  loose: term.type == .equal))
                if !term.inverse { best = max(best, FuzzyMatcher.maxScore(queryLength: term.pattern.units.count)) }
            }
            maxScore &+= best
        }
        self.terms = terms
        self.pairBits = pairBits
        self.maxScore = maxScore
    }

    /// For ASCII text `i`: nil when the query does not match it (as
    /// `FzfQuery.score` decides), else an upper bound of its score.
    /// `fields`: the workspace's views, for a fielded query.
    /// - Complexity: O(terms × length) (exact terms: O(length × term
    ///   length) worst case); no scoring.
    func bound(_ table: TextTable, _ i: Int, masks: BonusMasks, fields views: FieldViews?) -> Int? {
        if table.isNil(i) { return nil }
        var fieldTable: TextTable?
        var fieldCount = 0
        if query.fielded {
            guard query.fieldsMayMatch(table, i), let views else { return nil }
            fieldTable = views.load(table, i)
            fieldCount = views.count
        }
        /// Whether `term` is where it needs to be in text `j` of `texts`.
        @inline(__always) func placed(_ term: FzfTerm, _ texts: TextTable, _ j: Int) -> Bool {
            guard term.pattern.isASCII else { return false }
            let units = term.pattern.caseSensitive ? texts.original(j) : texts.foldedText(j)
            return term.bytes.withUnsafeBufferPointer { term.possible(units, $0) }
        }
        var total = 0
        var t = 0
        return pairBits.withUnsafeBufferPointer { allPairs -> Int? in
            for set in query.sets {
                var decided: Int?
                var inverseMissed = false
                var first = t
                t &+= set.count
                for term in set {
                    let k = first
                    first &+= 1
                    var hit: Bool
                    if let fieldTable {
                        hit = false
                        for f in 0..<fieldCount where placed(term, fieldTable, 2 &* f) {
                            hit = true
                            break
                        }
                    } else {
                        hit = placed(term, table, i)
                    }
                    if hit {
                        if term.inverse { continue }
                        let b = terms[k]
                        decided = b.loose ? FuzzyMatcher.maxScore(queryLength: b.length)
                            : masks.scoreBound(first: b.first, later: b.later,
                                               pairs: UnsafeBufferPointer(rebasing: allPairs[b.pairs]),
                                               length: b.length)
                        break
                    } else if term.inverse {
                        inverseMissed = true
                    }
                }
                if let decided {
                    total &+= decided
                } else if !inverseMissed {
                    return nil
                }
            }
            return total
        }
    }
}
