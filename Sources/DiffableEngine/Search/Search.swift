/// How a query matches a text.
public enum SearchMode: String, Sendable {
    /// Case-insensitive substring (always; see `SubstringMatcher`).
    case substring
    /// fzf-like subsequence with smart case (see `FuzzyMatcher`).
    case fuzzy
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
    /// The query text, matched literally (spaces included). Empty matches
    /// every text, `nil` texts included, with score 0.
    public var text: String
    public var mode: SearchMode
    public var order: SearchOrder
    /// Maximum number of hits (`nil` = all; values ≤ 0 give no hits).
    public var limit: Int?

    public init(text: String, mode: SearchMode = .fuzzy, order: SearchOrder = .score, limit: Int? = nil) {
        self.text = text
        self.mode = mode
        self.order = order
        self.limit = limit
    }

    /// Whether fuzzy smart case makes this query case-sensitive (it contains
    /// an uppercase letter). Substring queries are never case-sensitive.
    public var isCaseSensitive: Bool {
        mode == .fuzzy && text.unicodeScalars.contains { $0.properties.isUppercase }
    }

    /// Whether every text matching `self` also matches `previous`, so that
    /// `previous`'s unlimited match set (`matchingIndices`) can be passed as
    /// the candidates of `self` ("narrowing"). True when `previous` is empty,
    /// or in the same mode and: substring — `previous` (folded) occurs in
    /// `self` (folded); fuzzy — `previous` is a subsequence of `self`, compared
    /// folded unless both are case-sensitive (a case-sensitive query refines
    /// a case-insensitive one, not the other way round).
    /// - Complexity: O(text lengths)
    public func refines(_ previous: SearchQuery) -> Bool {
        if previous.text.isEmpty { return true }
        guard mode == previous.mode else { return false }
        let old = PreparedQuery(previous)
        let new = PreparedQuery(self)
        switch mode {
        case .substring:
            return new.bytes.withUnsafeBufferPointer { n in
                old.bytes.withUnsafeBufferPointer { o in
                    SubstringMatcher.firstOccurrence(of: o, in: n) != nil
                }
            }
        case .fuzzy:
            if old.caseSensitive && !new.caseSensitive { return false }
            let newScalars = old.caseSensitive ? new.scalars : new.scalars.map(TextFolding.fold)
            return newScalars.withUnsafeBufferPointer { n in
                old.scalars.withUnsafeBufferPointer { o in FuzzyMatcher.prefilter(o, n) != nil }
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
    let caseSensitive: Bool
    /// UTF-8 of the matched form (folded unless case-sensitive).
    let bytes: [UInt8]
    /// Scalars of the matched form.
    let scalars: [UInt32]
    let isASCII: Bool
    /// `laterBytes[b]`: byte `b` occurs in the needle after its first byte
    /// (what bounds the bonus of the query's later chars; see
    /// `FuzzyMatcher.maxScore`).
    let laterBytes: [Bool]
    /// The needle in the terms of `BonusMasks.scoreBound`: the bucket of its
    /// first byte, the buckets of the later ones, the Bloom bits of its
    /// adjacent pairs.
    let firstBucket: UInt32
    let laterBuckets: UInt32
    let pairBits: [UInt32]
    var isEmpty: Bool { scalars.isEmpty }

    init(_ query: SearchQuery) {
        mode = query.mode
        caseSensitive = query.isCaseSensitive
        let scalars: [UInt32] = caseSensitive
            ? query.text.unicodeScalars.map(\.value)
            : query.text.unicodeScalars.map { TextFolding.fold($0.value) }
        var bytes: [UInt8] = []
        for v in scalars {
            if let s = Unicode.Scalar(v) { UTF8.encode(s) { bytes.append($0) } }
        }
        self.scalars = scalars
        self.bytes = bytes
        isASCII = bytes.allSatisfy { $0 < 0x80 }
        var later = [Bool](repeating: false, count: 256)
        for b in bytes.dropFirst() { later[Int(b)] = true }
        laterBytes = later
        firstBucket = bytes.first.map { BonusMasks.bucket[Int($0)] } ?? 0
        laterBuckets = bytes.dropFirst().reduce(0) { $0 | BonusMasks.bucket[Int($1)] }
        pairBits = BonusMasks.pairBits(bytes)
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

    /// The score of text `index` for `query`, or `nil` when it does not match.
    /// - Complexity: O(L × query length)
    public func score(of index: Int, for query: SearchQuery) -> Int? {
        guard index >= 0, index < count else { return nil }
        let prepared = PreparedQuery(query)
        if prepared.isEmpty { return 0 }
        return withTable { table in
            Scanner(table: table, query: prepared).score(index)
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
            case .fuzzy:
                return FuzzyMatcher.ranges(FuzzyMatcher.positions(table, index, query: prepared))
            }
        }
    }
}
