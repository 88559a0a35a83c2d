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
///
/// This runs once per candidate, so the query is kept as flat plain
/// records behind raw pointers (`Storage`): reading a term costs no
/// reference counting. Before any placement, a text must hold the bytes
/// every set of one plain term needs (`required`, against its
/// `BytePresence` set when the table has one).
struct FzfQueryBounds: Sendable {
    /// One term: how it is placed and bounded.
    struct Term {
        let type: FzfTermType
        let inverse: Bool
        let caseSensitive: Bool
        /// ASCII chars (a non-ASCII term never matches an ASCII text).
        let placeable: Bool
        /// Its compared bytes in `Storage.bytes`.
        let bytes: Range<Int>
        /// `BonusMasks.scoreBound`'s terms; `pairs` in `Storage.pairBits`.
        let first: UInt32
        let later: UInt32
        let pairs: Range<Int>
        let firstPair: PairKeys
        let length: Int
        /// Bounded by `FuzzyMatcher.maxScore(queryLength:)` only: the
        /// equal-match score is fixed by the scheme, not the text.
        let loose: Bool
        /// The term is a set of its own that every candidate is known to
        /// satisfy (it matches, or, inverse, it does not): not placed.
        let known: Bool
        /// A fuzzy or exact term of one case-insensitive letter or digit:
        /// placed exactly when the text's byte set holds this bit (0: read
        /// the text).
        let presenceBit: UInt64
        /// Its chars for `BonusMasks.oneRunBound` in `Storage.runChars`
        /// (empty: not bounded so).
        let runs: Range<Int>
    }

    /// The flat records, allocated once per query and never written after.
    final class Storage: @unchecked Sendable {
        let terms: UnsafeMutableBufferPointer<Term>
        /// Each set's end in `terms`.
        let setEnds: UnsafeMutableBufferPointer<Int>
        let bytes: UnsafeMutableBufferPointer<UInt8>
        let pairBits: UnsafeMutableBufferPointer<UInt32>
        /// Per set, its one term when `tightened` may tighten its bound (a
        /// fuzzy or exact term whose first pair is classed), else -1.
        let refinedTerms: UnsafeMutableBufferPointer<Int>
        let runChars: UnsafeMutableBufferPointer<RunChar>
        /// Per set, its one term when `runsTightened` may tighten its bound
        /// (an exact term of 2 to 16 ASCII chars that is not inverse),
        /// else -1.
        let runTerms: UnsafeMutableBufferPointer<Int>

        init(terms: [Term], setEnds: [Int], bytes: [UInt8], pairBits: [UInt32], runChars: [RunChar]) {
            self.terms = .allocate(capacity: terms.count)
            _ = self.terms.initialize(from: terms)
            self.setEnds = .allocate(capacity: setEnds.count)
            _ = self.setEnds.initialize(from: setEnds)
            self.bytes = .allocate(capacity: bytes.count)
            _ = self.bytes.initialize(from: bytes)
            self.pairBits = .allocate(capacity: pairBits.count)
            _ = self.pairBits.initialize(from: pairBits)
            self.runChars = .allocate(capacity: runChars.count)
            _ = self.runChars.initialize(from: runChars)
            var refined: [Int] = [], runTerms: [Int] = []
            var start = 0
            for end in setEnds {
                let term = end - start == 1 ? terms[start] : nil
                let tightens = term.map { !$0.inverse && !$0.loose && $0.placeable && $0.firstPair.classed } ?? false
                refined.append(tightens ? start : -1)
                let runs = term.map { !$0.inverse && !$0.loose && $0.placeable && !$0.runs.isEmpty } ?? false
                runTerms.append(runs ? start : -1)
                start = end
            }
            refinedTerms = .allocate(capacity: refined.count)
            _ = refinedTerms.initialize(from: refined)
            self.runTerms = .allocate(capacity: runTerms.count)
            _ = self.runTerms.initialize(from: runTerms)
        }

        deinit {
            terms.deallocate(); setEnds.deallocate(); bytes.deallocate(); pairBits.deallocate(); refinedTerms.deallocate()
            runChars.deallocate(); runTerms.deallocate()
        }
    }

    let fielded: Bool
    let storage: Storage
    /// An upper bound of any text's score: each set's best term at its
    /// best.
    let maxScore: Int
    /// `BytePresence` bits every matching text holds: the folded bytes of
    /// each set that is one plain ASCII term.
    let required: UInt64
    /// A folded letter or digit every matching text holds (one of
    /// `required` with a presence bit of its own), the rarest in English
    /// text: a scan of the whole list visits only the texts holding it
    /// (`BytePresence.forEachBlock`).
    let requiredByte: UInt8?
    /// The first and last bytes a matching ASCII text may have, when a set
    /// is tied to the start or the end (`FzfAnchorBytes`).
    let anchors: FzfAnchorBytes?
    /// Some set's bound may be tightened from a text's word pairs
    /// (`tightened`).
    let refinable: Bool
    /// Some set's bound may be tightened by what its runs earn
    /// (`runsTightened`).
    let runsRefinable: Bool

    /// nil for a query with no term. `knownSets[s]`: every candidate
    /// satisfies set `s`, a set of one term (see `knowing(_:)`).
    init?(_ query: FzfQuery, knownSets: [Bool] = []) {
        guard !query.isEmpty else { return nil }
        fielded = query.fielded
        var terms: [Term] = []
        var setEnds: [Int] = []
        var bytes: [UInt8] = []
        var pairBits: [UInt32] = []
        var runChars: [RunChar] = []
        var maxScore = 0
        var required: UInt64 = 0
        var requiredByte: UInt8?
        /// Letters from the most to the least common; digits count as rare.
        let commonness: [UInt8] = Array("etaoinshrdlcumwfgypbvkjxqz".utf8)
        func rarity(_ b: UInt8) -> Int { commonness.firstIndex(of: b) ?? commonness.count }
        for (s, set) in query.sets.enumerated() {
            var best = 0
            let known = set.count == 1 && s < knownSets.count && knownSets[s]
            for term in set {
                let own = term.bytes
                let start = pairBits.count
                pairBits += BonusMasks.pairBits(own)
                let runsStart = runChars.count
                // An exact term's score is one of its runs; a fuzzy term's
                // is a run or has a gap. A prefix or suffix term is scored
                // where it stands, in O(term length): no bound beats that.
                // A fuzzy term of two chars is left to the run bound that
                // scores it (its runs say little more than its masks).
                if term.type == .exact && (2...BonusMasks.runsMaximumLength).contains(own.count)
                    || term.type == .fuzzy && (3...BonusMasks.runsMaximumLength).contains(own.count) {
                    runChars += BonusMasks.runChars(units: own, folded: own.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 },
                                                   caseSensitive: term.pattern.caseSensitive)
                }
                terms.append(Term(type: term.type, inverse: term.inverse, caseSensitive: term.pattern.caseSensitive,
                                  placeable: term.pattern.isASCII && !own.isEmpty,
                                  bytes: bytes.count..<bytes.count + own.count,
                                  first: own.first.map { BonusMasks.bucket[Int($0)] } ?? 0,
                                  later: own.dropFirst().reduce(0) { $0 | BonusMasks.bucket[Int($1)] },
                                  pairs: start..<pairBits.count, firstPair: PairKeys(own), length: own.count,
                                  loose: term.type == .equal, known: known,
                                  presenceBit: Self.presenceBit(of: term), runs: runsStart..<runChars.count))
                bytes += own
                if !term.inverse { best = max(best, FuzzyMatcher.maxScore(queryLength: term.pattern.units.count)) }
            }
            setEnds.append(terms.count)
            maxScore &+= best
            if set.count == 1, let term = set.first, !term.inverse, term.pattern.isASCII {
                // Folded as the presence sets are (ASCII letters lowercase).
                for b in term.bytes {
                    let folded = b &- 0x41 < 26 ? b | 0x20 : b
                    required |= BytePresence.bits[Int(folded)]
                    if BytePresence.isExact(folded), requiredByte.map({ rarity(folded) > rarity($0) }) ?? true {
                        requiredByte = folded
                    }
                }
            }
        }
        storage = Storage(terms: terms, setEnds: setEnds, bytes: bytes, pairBits: pairBits, runChars: runChars)
        refinable = storage.refinedTerms.contains { $0 >= 0 }
        runsRefinable = storage.runTerms.contains { $0 >= 0 }
        self.maxScore = maxScore
        self.required = required
        self.requiredByte = requiredByte
        anchors = FzfAnchorBytes(query, knownSets: knownSets)
    }

    /// For ASCII text `i`: nil when the query does not match it (as
    /// `FzfQuery.score` decides), else an upper bound of its score.
    /// `fields`: the workspace's views, for a fielded query; `query`: the
    /// query these bounds are of (its fields test). `setBounds`: when
    /// given (room for a value per set), each set's own bound is written
    /// there (0 for a set an inverse term satisfies), for `asciiScore` to
    /// stop once the sets scored and the others' bounds cannot enter.
    /// `known`: sets' scores of this text (its index in the `SearchIndex`
    /// being `id`) computed before, which replace their bounds.
    /// - Complexity: O(terms × length) (exact terms: O(length × term
    ///   length) worst case); no scoring, no allocation.
    @inline(__always)
    func bound(_ table: TextTable, _ i: Int, masks: BonusMasks, query: FzfQuery, fields views: FieldViews?,
               setBounds: UnsafeMutablePointer<Int>? = nil, known: SetScoreTables? = nil, id: Int = 0) -> Int? {
        if table.isNil(i) { return nil }
        if required != 0 && table.presence.count == table.count && table.presence[i] & required != required {
            return nil
        }
        if fielded {
            guard query.fieldsMayMatch(table, i), let views else { return nil }
            // Most terms are decided on the joined text; the fields are
            // found only for the others.
            var fields: TextTable?
            return bound(masks: masks, setBounds: setBounds, known: nil, id: id) { k in
                if let decided = placedInJoined(k, table, i) { return decided }
                let loaded = fields ?? views.load(table, i)
                fields = loaded
                for f in 0..<views.count where placed(k, loaded, 2 &* f) { return true }
                return false
            }
        }
        return bound(masks: masks, setBounds: setBounds, known: known, id: id) { placed($0, table, i) }
    }

    /// Whether term `k` is placed in some field of joined ASCII text `i`,
    /// when its joined text tells: a fuzzy term's leftmost alignment, or an
    /// exact term's first occurrence, that crosses no separator lies in one
    /// field; none at all means none in any field (a field is a piece of
    /// the joined text). nil: the fields must be looked at (an alignment
    /// across a separator, or a term tied to a field's start or end).
    @inline(__always)
    private func placedInJoined(_ k: Int, _ table: TextTable, _ i: Int) -> Bool? {
        let term = storage.terms[k]
        guard term.placeable else { return false }
        let units = term.caseSensitive ? table.original(i) : table.foldedText(i)
        let p = UnsafeBufferPointer(rebasing: storage.bytes[term.bytes])
        let separator = SearchFields.separator
        switch term.type {
        case .fuzzy:
            guard let base = units.baseAddress, let q = p.baseAddress else { return false }
            let n = units.count, m = p.count
            var j = 0, matched = 0, first = -1
            while j < n && matched < m {
                if base[j] == q[matched] {
                    if matched == 0 { first = j }
                    matched &+= 1
                }
                j &+= 1
            }
            guard matched == m else { return false }
            var c = first
            while c < j {
                if base[c] == separator { return nil }
                c &+= 1
            }
            return true
        case .exact:
            if p.contains(separator) { return nil }
            return SubstringMatcher.firstOccurrence(of: p, in: units) != nil
        case .prefix, .suffix, .equal:
            return nil
        }
    }

    /// Whether term `k` is where it needs to be in text `j` of `texts`.
    @inline(__always)
    private func placed(_ k: Int, _ texts: TextTable, _ j: Int) -> Bool {
        let term = storage.terms[k]
        guard term.placeable else { return false }
        if term.presenceBit != 0 && texts.presence.count == texts.count {
            return texts.presence[j] & term.presenceBit != 0
        }
        let units = term.caseSensitive ? texts.original(j) : texts.foldedText(j)
        return FzfTerm.possible(term.type, units, UnsafeBufferPointer(rebasing: storage.bytes[term.bytes]))
    }

    /// `Term.presenceBit` of `term`: a fuzzy or exact term of one
    /// case-insensitive char whose byte set bit is its own (a letter or a
    /// digit) is in a text exactly when that bit is set.
    static func presenceBit(of term: FzfTerm) -> UInt64 {
        guard term.bytes.count == 1, let b = term.bytes.first, !term.pattern.caseSensitive,
              term.type == .fuzzy || term.type == .exact, BytePresence.isExact(b) else { return 0 }
        return BytePresence.bits[Int(b)]
    }

    /// `total`, the bound `bound(…)` gave a text (its index in the
    /// `SearchIndex` being `id`), tightened where a set of one fuzzy term
    /// starts with a letter or digit that earns less before its second
    /// char than its best (`BonusMasks.firstPairBound`, from the text's
    /// `wordPairs`); `setBounds` are tightened with it. Taken only on a
    /// text whose `bound` may enter, so that most texts never read their
    /// word pairs.
    /// - Complexity: O(terms)
    @inline(__always)
    func tightened(_ total: Int, masks: BonusMasks, wordPairs: UInt64, setBounds: UnsafeMutablePointer<Int>?,
                   known: SetScoreTables?, id: Int) -> Int {
        var total = total
        for s in 0..<storage.setEnds.count {
            let k = storage.refinedTerms[s]
            guard k >= 0, known?.bound(set: s, id: id) == nil else { continue }
            let term = storage.terms[k]
            guard let tight = firstPairBound(term, masks: masks, wordPairs: wordPairs) else { continue }
            let pairs = UnsafeBufferPointer(rebasing: storage.pairBits[term.pairs])
            let loose = masks.scoreBound(first: term.first, later: term.later, pairs: pairs, length: term.length)
            total &-= loose &- tight
            setBounds?[s] = tight
        }
        return total
    }

    /// `term`'s bound where its first pair stands in a text with these
    /// `masks` and `wordPairs` (`BonusMasks.firstPairBound`), or nil when
    /// its first char earns no less there than its best.
    /// - Complexity: O(term length)
    @inline(__always)
    func firstPairBound(_ term: Term, masks: BonusMasks, wordPairs: UInt64) -> Int? {
        guard masks.firstPairEarnsLess(term.firstPair, first: term.first, wordPairs: wordPairs) else { return nil }
        return masks.firstPairBound(first: term.first, later: term.later, firstPair: term.firstPair,
                                    wordPairs: wordPairs, pairs: UnsafeBufferPointer(rebasing: storage.pairBits[term.pairs]),
                                    length: term.length)
    }

    /// `total`, a text's bound after `tightened` (its index in the
    /// `SearchIndex` being `id`), tightened where a set of one exact term
    /// earns less in its run (`BonusMasks.oneRunBound`), or a set of one
    /// fuzzy term in its run or with a gap (`BonusMasks.gappedBound`), each
    /// set's bound in `setBounds` lowered with it. Taken only on a text the
    /// other bounds admit: it costs O(term length) per set.
    /// - Complexity: O(Σ term length)
    @inline(__always)
    func runsTightened(_ total: Int, masks: BonusMasks, wordPairs: UInt64, setBounds: UnsafeMutablePointer<Int>,
                       known: SetScoreTables?, id: Int) -> Int {
        var total = total
        for s in 0..<storage.runTerms.count {
            let k = storage.runTerms[s]
            guard k >= 0, known?.bound(set: s, id: id) == nil else { continue }
            let runs = runsBound(storage.terms[k], masks: masks, wordPairs: wordPairs)
            if runs < setBounds[s] {
                total &-= setBounds[s] &- runs
                setBounds[s] = runs
            }
        }
        return total
    }

    /// What `term` (one with `runs`) earns in its runs in a text with these
    /// `masks` and `wordPairs`.
    /// - Complexity: O(term length)
    @inline(__always)
    func runsBound(_ term: Term, masks: BonusMasks, wordPairs: UInt64) -> Int {
        let chars = UnsafeBufferPointer(rebasing: storage.runChars[term.runs])
        if term.type == .exact {
            // An exact term stands as one run.
            return max(masks.oneRunBound(chars, wordPairs: wordPairs), 0)
        }
        // A fuzzy term: one run where none of its pairs is missing, or a gap.
        var missing: UInt32 = 0
        var pair: UInt32 = 1
        for bit in storage.pairBits[term.pairs] {
            if masks.pairs & bit == 0 { missing |= 1 << pair }
            pair &+= 1
        }
        let run = missing == 0 ? masks.oneRunBound(chars, wordPairs: wordPairs) : 0
        return max(run, masks.gappedBound(chars, wordPairs: wordPairs, missingPairs: missing), 0)
    }

    /// Records each set's bound in `setBounds` (after `tightened` and
    /// `runsTightened`) as a loose bound of text `id` in the set's table,
    /// where nothing is known of it yet.
    /// - Complexity: O(sets)
    @inline(__always)
    func recordLooseBounds(_ setBounds: UnsafeMutablePointer<Int>, known: SetScoreTables, id: Int) {
        for s in 0..<storage.setEnds.count {
            known.record(set: s, id: id, looseBound: setBounds[s])
        }
    }

    /// The sets decided from `isPlaced(k)` of each term `k`, in fzf's
    /// order (`FzfQuery.matchSet`), bounded by `masks`.
    @inline(__always)
    private func bound(masks: BonusMasks, setBounds: UnsafeMutablePointer<Int>?, known: SetScoreTables?, id: Int,
                       isPlaced: (Int) -> Bool) -> Int? {
        let terms = storage.terms
        var total = 0
        var k = 0
        for (s, end) in storage.setEnds.enumerated() {
            // A known score or bound: the set's one term matched this text.
            if let score = known?.bound(set: s, id: id) {
                total &+= score
                setBounds?[s] = score
                k = end
                continue
            }
            var decided = -1
            var inverseMissed = false
            while k < end {
                let term = terms[k]
                if term.known ? !term.inverse : isPlaced(k) {
                    if !term.inverse {
                        decided = term.loose ? FuzzyMatcher.maxScore(queryLength: term.length)
                            : masks.scoreBound(first: term.first, later: term.later,
                                               pairs: UnsafeBufferPointer(rebasing: storage.pairBits[term.pairs]),
                                               length: term.length)
                        break
                    }
                } else if term.inverse {
                    inverseMissed = true
                }
                k &+= 1
            }
            k = end
            if decided >= 0 {
                total &+= decided
            } else if !inverseMissed {
                return nil
            }
            setBounds?[s] = max(decided, 0)
        }
        return total
    }
}

extension FzfQuery {
    /// Which of these sets every match of `previous` satisfies: a set of
    /// one term that is also a set of `previous`, over the same texts
    /// (fields or not). Narrowing scans only `previous`'s matches, so
    /// those sets need no placement.
    /// - Complexity: O(sets × previous sets)
    func setsKnown(from previous: FzfQuery) -> [Bool] {
        guard fielded == previous.fielded else { return sets.map { _ in false } }
        return sets.map { set in set.count == 1 && previous.sets.contains { $0 == set } }
    }
}
