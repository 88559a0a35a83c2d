/// How a query matches a text.
public enum SearchMode: String, Sendable {
    /// Case-insensitive substring (always; see `SubstringMatcher`).
    case substring
    /// fzf's extended search (see `FzfQuery`): terms of subsequences
    /// (plain words), substrings (`'word`), prefixes, suffixes, negations
    /// and alternatives, ranked by fzf's scores.
    case fuzzy
    /// fzf's `--exact`: the same syntax with plain words matched as
    /// substrings (`'word` is then a subsequence).
    case exact
}

/// The order of search results.
public enum SearchOrder: String, Sendable {
    /// Index ascending (the list's own order).
    case source
    /// Score descending, then shorter text (in scalars), then lower index.
    case score
}

/// A search request.
public struct SearchQuery: Equatable, Sendable {
    /// The query text. Substring: matched literally (spaces included).
    /// Fuzzy: one fzf term (see `FzfAlgo`). Empty matches every text,
    /// `nil` texts included, with score 0.
    public var text: String
    public var mode: SearchMode
    public var order: SearchOrder
    /// Maximum number of hits (`nil` = all; values ≤ 0 give no hits).
    public var limit: Int?
    /// fzf's bonus scheme for fuzzy and exact scores.
    public var scheme: SearchScheme
    /// fzf's tie-breaks for fuzzy and exact scores (`nil`: the scheme's
    /// default, `[.length]`, or `[.index]` for `history`). Must pass
    /// `SearchTiebreak.problem(in:)`.
    public var tiebreak: [SearchTiebreak]?
    /// The texts are fields joined as `SearchFields` joins them: fuzzy and
    /// exact terms match in the first field where they do (fzf's `--nth
    /// 1,2,…`), never across two; a substring query matches within a field
    /// (scored by its position in the joined text). A U+000B in the query
    /// is read as a space.
    public var fielded: Bool
    /// Stops the search that runs this query early (its result is then
    /// incomplete); nil: it runs to the end. Not part of the query's meaning.
    public var stop: SearchStop?

    public init(text: String, mode: SearchMode = .fuzzy, order: SearchOrder = .score, limit: Int? = nil,
                scheme: SearchScheme = .default, tiebreak: [SearchTiebreak]? = nil, fielded: Bool = false) {
        self.text = text
        self.mode = mode
        self.order = order
        self.limit = limit
        self.scheme = scheme
        self.tiebreak = tiebreak
        self.fielded = fielded
    }

    /// The text as matched: a fielded query reads U+000B (the fields'
    /// separator) as a space.
    var matchedText: String {
        guard fielded, text.utf8.contains(SearchFields.separator) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0 == SearchFields.separatorScalar ? " " : $0
        }))
    }

    /// Whether fuzzy smart case makes this query case-sensitive (lowercasing
    /// changes it, as fzf decides). Substring queries never are.
    public var isCaseSensitive: Bool {
        mode != .substring && FzfText.hasUppercase(text.unicodeScalars.lazy.map(\.value))
    }

    /// Whether every text matching `self` also matches `previous`, so that
    /// Whether every text matches: an empty text, or a fuzzy or exact one
    /// with no term left (`'`, `^`, `!`: an operator alone). Narrowing from
    /// such a query's matches gains nothing over a scan of the list, which
    /// can skip texts by their byte sets.
    /// - Complexity: O(text length)
    var matchesEverything: Bool {
        if text.isEmpty { return true }
        return mode != .substring && FzfQuery(matchedText, fuzzy: mode == .fuzzy).isEmpty
    }

    /// `previous`'s unlimited match set (`matchingIndices`) can be passed as
    /// the candidates of `self` ("narrowing"). True when `previous` is empty,
    /// or in the same mode and: substring — `previous` (folded) occurs in
    /// `self` (folded); fuzzy — same scheme, `previous`'s compared units are
    /// a subsequence of `self`'s transformed as `previous` transforms text
    /// (a case-sensitive query refines a case-insensitive one, not the other
    /// way round; one that leaves accents alone refines one that
    /// normalizes them, not the other way round).
    /// - Complexity: O(text lengths)
    public func refines(_ previous: SearchQuery) -> Bool {
        if previous.text.isEmpty { return true }
        guard mode == previous.mode, fielded == previous.fielded else { return false }
        let old = PreparedQuery(previous)
        let new = PreparedQuery(self)
        switch mode {
        case .substring:
            return new.bytes.withUnsafeBufferPointer { n in
                old.bytes.withUnsafeBufferPointer { o in
                    SubstringMatcher.firstOccurrence(of: o, in: n) != nil
                }
            }
        case .fuzzy, .exact:
            // Extended queries compare as parsed queries (`FzfQuery.refines`).
            if old.extended != nil || new.extended != nil || mode == .exact {
                return FzfQuery(matchedText, fuzzy: mode == .fuzzy)
                    .refines(FzfQuery(previous.matchedText, fuzzy: previous.mode == .fuzzy))
            }
            let o = old.pattern, n = new.pattern
            if o.caseSensitive && !n.caseSensitive { return false }
            if !o.normalize && n.normalize { return false }
            var units = n.units
            if !o.caseSensitive { units = units.map(FzfText.lower) }
            if o.normalize { units = units.map(FzfText.normalize) }
            return units.withUnsafeBufferPointer { n in
                o.units.withUnsafeBufferPointer { o in FuzzyMatcher.prefilter(o, n) != nil }
            }
        }
    }
}

/// One search result: the text's index and its score (0 for an empty query).
public struct SearchHit: Equatable, Sendable {
    public var index: Int
    public var score: Int

    public init(index: Int, score: Int) {
        self.index = index
        self.score = score
    }
}

/// Both results of one scan: every match (for narrowing) and the ranked hits.
public struct SearchResult: Equatable, Sendable {
    /// All matching indices among the candidates, ascending, not limited.
    public var matches: [Int]
    /// The hits in the requested order, capped by the limit.
    public var hits: [SearchHit]
}

/// A query in the form the matchers use.
struct PreparedQuery: Sendable {
    let mode: SearchMode
    /// Fuzzy: the term's characters as fzf compares them.
    let pattern: FzfPattern
    /// Fuzzy: the text is compared as is (`pattern.caseSensitive`).
    let caseSensitive: Bool
    /// The folded needle (`TextFolding.fold` of each compared char), UTF-8:
    /// what the byte prefilters, byte sets and resume positions work on,
    /// always against the folded copy. Every fzf match holds it.
    let bytes: [UInt8]
    /// UTF-8 of `pattern.units`: compared with an ASCII text's bytes (its
    /// folded copy unless case-sensitive).
    let unitBytes: [UInt8]
    /// Scalars of the compared form (fuzzy: `pattern.units`; substring: the
    /// folded query).
    let scalars: [UInt32]
    /// The needle is ASCII and so is every compared char.
    let isASCII: Bool
    /// A folded-bytes match of `bytes` in an ASCII text is an fzf match
    /// (case-insensitive, ASCII pattern): the byte machinery decides ASCII
    /// texts alone. Non-ASCII texts are always confirmed on scalars.
    let foldedIsExact: Bool
    /// The position bonuses fuzzy scores use.
    let scheme: FzfBonusTable
    /// Fuzzy/exact: the tie-breaks after the score (`index` implied last;
    /// empty for a query of inverse terms only, which fzf leaves unsorted).
    let criteria: [SearchTiebreak]
    /// Some criterion reads the matched spans (`begin`, `end`, `chunk`).
    let needsOffsets: Bool
    /// The tie-break key in the common cases, read per text without
    /// touching `criteria` (an array).
    let keyKind: KeyKind
    enum KeyKind { case scalarLength, trimmedLength, none, criteria }
    /// fzf scans backward when `end` comes before `begin` in the
    /// tie-breaks (`FzfAlgo.match`).
    let forward: Bool
    /// The `chunk` tie-break reads where fuzzy matches really start (fzf's
    /// backtrace), which costs the whole matrix per match.
    let exactStart: Bool
    /// `laterBytes[b]`: byte `b` occurs in the needle after its first byte
    /// (what bounds the bonus of the query's later chars; see
    /// `FuzzyMatcher.maxScore`).
    let laterBytes: [Bool]
    /// The needle in the terms of `BonusMasks.scoreBound`: the bucket of its
    /// first byte, the buckets of the later ones, the Bloom bits of its
    /// adjacent pairs, and the classed keys of its first pair.
    let firstBucket: UInt32
    let laterBuckets: UInt32
    let pairBits: [UInt32]
    let firstPairKeys: PairKeys
    /// The needle's chars for `BonusMasks.oneRunBound` (empty: it does not
    /// apply: fewer than 3 chars, or more than `runsMaximumLength`).
    let runChars: [RunChar]
    /// An extended query that is not one plain fuzzy term (those take the
    /// single-needle path, with `pattern`): scored term by term, with no
    /// needle (`bytes` empty).
    let extended: FzfQuery?
    /// `extended`'s placements and score bounds (`FzfQueryBounds`).
    private(set) var extendedBounds: FzfQueryBounds?
    var isEmpty: Bool { scalars.isEmpty && extended == nil }
    /// The query's `stop` signal, checked by the scan loops.
    private(set) var stop: SearchStop?

    init(_ query: SearchQuery) {
        self.init(unstopped: query)
        stop = query.stop
    }

    private init(unstopped query: SearchQuery) {
        let text = query.matchedText
        if query.mode == .substring {
            self.init(mode: .substring, typed: text.unicodeScalars.map(\.value), extended: nil,
                      scheme: query.scheme, tiebreak: nil)
            return
        }
        var parsed = FzfQuery(text, fuzzy: query.mode == .fuzzy)
        // Fields: every term is matched field by field, so even one plain
        // term is scored term by term (the single-needle machinery would
        // match across fields).
        let forward = FzfTiebreakKey.forward(query.tiebreak ?? [])
        if let single = parsed.singleFuzzyTerm ?? parsed.singleCharExactTerm(forward: forward), !query.fielded {
            self.init(mode: .fuzzy, typed: single.typed, extended: nil, scheme: query.scheme, tiebreak: query.tiebreak)
        } else {
            parsed.fielded = query.fielded
            // A query with no term left matches every text, which fzf
            // leaves in input order whatever the tie-breaks.
            self.init(mode: query.mode, typed: [], extended: parsed.isEmpty ? nil : parsed, scheme: query.scheme,
                      tiebreak: parsed.isEmpty ? [] : query.tiebreak)
        }
    }

    /// The extended query this needle stands for (`needleForm`), scanned
    /// with its stop signal.
    private(set) var needleOffsets: NeedleOffsets?

    mutating func scanned(asPartOf whole: PreparedQuery, offsets: NeedleOffsets) {
        stop = whole.stop
        needleOffsets = offsets
    }

    /// For a scan of `previous`'s matches only: the sets of `extended`
    /// they all satisfy are not placed again.
    mutating func knowSets(matchedBy previous: SearchQuery) {
        guard let extended, previous.mode != .substring, previous.mode == mode else { return }
        var old = FzfQuery(previous.matchedText, fuzzy: previous.mode == .fuzzy)
        old.fielded = previous.fielded
        let known = extended.setsKnown(from: old)
        if known.contains(true) { extendedBounds = FzfQueryBounds(extended, knownSets: known) }
    }

    init(mode: SearchMode, typed: [UInt32], extended: FzfQuery?, scheme: SearchScheme, tiebreak: [SearchTiebreak]?) {
        self.mode = mode
        self.extended = extended
        extendedBounds = extended.flatMap { FzfQueryBounds($0) }
        self.scheme = FzfBonusTable.of(scheme)
        // fzf does not sort a query of inverse terms only: input order.
        if extended?.sortable == false {
            criteria = []
        } else {
            criteria = (tiebreak ?? (scheme == .history ? [] : [.length])).filter { $0 != .index }
        }
        needsOffsets = mode != .substring && FzfTiebreakKey.needsOffsets(criteria)
        if mode == .substring {
            keyKind = .scalarLength
        } else if criteria.isEmpty {
            keyKind = .none
        } else if criteria == [.length] {
            keyKind = .trimmedLength
        } else {
            keyKind = .criteria
        }
        forward = FzfTiebreakKey.forward(tiebreak ?? [])
        exactStart = criteria.contains(.chunk)
        let folded = typed.map(TextFolding.fold)
        if mode != .substring {
            pattern = FzfPattern(typed: typed)
            scalars = pattern.units
        } else {
            pattern = FzfPattern(typed: folded)
            scalars = folded
        }
        caseSensitive = mode != .substring && pattern.caseSensitive
        var bytes: [UInt8] = []
        for v in scalars {
            if let s = Unicode.Scalar(TextFolding.fold(v)) { UTF8.encode(s) { bytes.append($0) } }
        }
        var unitBytes: [UInt8] = []
        for v in scalars {
            if let s = Unicode.Scalar(v) { UTF8.encode(s) { unitBytes.append($0) } }
        }
        self.bytes = bytes
        self.unitBytes = unitBytes
        isASCII = pattern.isASCII && bytes.allSatisfy { $0 < 0x80 }
        foldedIsExact = mode == .substring || (!caseSensitive && isASCII)
        var later = [Bool](repeating: false, count: 256)
        for b in bytes.dropFirst() { later[Int(b)] = true }
        laterBytes = later
        firstBucket = bytes.first.map { BonusMasks.bucket[Int($0)] } ?? 0
        laterBuckets = bytes.dropFirst().reduce(0) { $0 | BonusMasks.bucket[Int($1)] }
        pairBits = BonusMasks.pairBits(bytes)
        firstPairKeys = PairKeys(bytes)
        // Two chars: the first pair's bound (`BonusMasks.firstPairBound`)
        // already knows what their one run earns.
        runChars = mode == .fuzzy && isASCII && (3...BonusMasks.runsMaximumLength).contains(bytes.count)
            ? BonusMasks.runChars(units: unitBytes, folded: bytes, caseSensitive: caseSensitive) : []
    }
}

extension SearchIndex {
    /// The hits of `query` among `candidates` (`nil` = all indices), in the
    /// requested order and capped by the limit.
    ///
    /// `candidates` should be ascending without duplicates (anything else is
    /// sorted and deduplicated first); out-of-range indices are ignored.
    /// - Complexity: O(c × L) to match c candidates of length L (fuzzy scoring
    ///   adds O(L × query length) per scored match), plus O(h log k) to keep
    ///   the best k of h hits (order `score` with a limit), O(h log h)
    ///   without a limit. Runs on two threads above 16k candidates.
    public func search(_ query: SearchQuery, among candidates: [Int]?) -> [SearchHit] {
        run(query, among: candidates, keepMatches: false).hits
    }

    /// Every index among `candidates` that matches `query`, ascending, not
    /// limited: the set to pass as candidates of the next keystroke when
    /// `next.refines(query)`.
    /// - Complexity: O(c × L) (no scoring).
    public func matchingIndices(_ query: SearchQuery, among candidates: [Int]?) -> [Int] {
        run(query, among: candidates, keepMatches: true, scoring: false).matches
    }

    /// Ranks `matches` (typically from `matchingIndices`) for `query`:
    /// scores them and returns hits in the requested order, capped by the
    /// limit. Indices that do not match are dropped.
    /// - Complexity: as `search(_:among:)` with `matches` as candidates.
    public func rank(_ matches: [Int], for query: SearchQuery) -> [SearchHit] {
        run(query, among: matches, keepMatches: false).hits
    }

    /// `matchingIndices` and `search` in one scan: cache `matches` for
    /// narrowing and display `hits`.
    /// - Complexity: as `search(_:among:)`.
    public func evaluate(_ query: SearchQuery, among candidates: [Int]?) -> SearchResult {
        run(query, among: candidates, keepMatches: true)
    }

    /// The ranking keys of `hits` (hits of `query` in this index): their
    /// scores, tie-break keys and indices, which order them as a search
    /// does (`RankKey.precedes`).
    /// - Complexity: O(hits), plus scoring them again when a tie-break
    ///   reads the matched spans.
    func rankKeys(of hits: [SearchHit], for query: SearchQuery) -> [RankKey] {
        let prepared = PreparedQuery(query)
        return withTable { table in
            let scanner = Scanner(table: table, query: prepared)
            let extended = prepared.extended
            return hits.map { hit in
                RankKey(score: hit.score,
                        length: scanner.scoredKey(hit.index, known: hit.score, offsets: nil, extended: extended)?.key ?? 0,
                        index: hit.index)
            }
        }
    }

    /// The score of text `index` for `query` as it ranks (clamped as fzf
    /// clamps it, `RankKey.rankedScore`), or `nil` when it does not match.
    /// - Complexity: O(L × query length)
    public func score(of index: Int, for query: SearchQuery) -> Int? {
        guard index >= 0, index < count else { return nil }
        let prepared = PreparedQuery(query)
        if prepared.isEmpty { return 0 }
        return withTable { table in
            Scanner(table: table, query: prepared).score(index).map(RankKey.rankedScore)
        }
    }

    /// The highlighted parts of text `index` for `query`, as **Unicode scalar
    /// offset** ranges `[start, end)` into the text, ascending, contiguous
    /// positions merged. Substring: the first occurrence. Fuzzy: the matched
    /// chars of the best-scoring alignment. `[]` for no match, an empty query
    /// or an index out of range.
    /// - Complexity: O(L × query length) time and space.
    public func highlights(of index: Int, for query: SearchQuery) -> [Range<Int>] {
        guard index >= 0, index < count else { return [] }
        let prepared = PreparedQuery(query)
        if prepared.isEmpty { return [] }
        return withTable { table in
            switch prepared.mode {
            case .substring:
                return prepared.bytes.withUnsafeBufferPointer {
                    SubstringMatcher.highlight(table, index, needle: $0)
                }
            case .fuzzy, .exact:
                if let extended = prepared.extended {
                    return FuzzyMatcher.ranges(extended.positions(table, index, scheme: prepared.scheme,
                                                                  forward: prepared.forward))
                }
                return FuzzyMatcher.ranges(FuzzyMatcher.positions(table, index, query: prepared))
            }
        }
    }
}
