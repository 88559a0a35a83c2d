import Foundation
import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// Searches of fields (`SearchFields`, `SearchQuery.fielded`) against
/// Debian's fzf 0.38 with the same fields as tab-separated columns:
/// `fzf --filter Q --delimiter '\t' --nth 1,2,…` must print the same lines
/// in the same order. fzf is required: without it these tests fail (run
/// `protocol/tools/install-test-tools`).
@Suite(.serialized) struct FzfFieldsComparisonTests {
    /// Items of `fieldCount` fields drawn from the fzf corpus (some empty,
    /// some missing), as the engine's joined texts and as fzf's lines.
    static func corpus(count: Int, fieldCount: Int, seed: UInt64) -> (texts: [String?], lines: [String], values: [String]) {
        let values = FzfCorpus.make(count: count * fieldCount, seed: seed)
        var rng = SplitMix64(seed: seed &+ 99)
        var texts: [String?] = []
        var lines: [String] = []
        for k in 0..<count {
            var fields: [String?] = []
            for f in 0..<fieldCount {
                switch rng.next() % 12 {
                case 0: fields.append(nil)   // the content lacks it
                case 1: fields.append("")
                default: fields.append(values[k * fieldCount + f])
                }
            }
            if fields.allSatisfy({ $0 == nil }) { fields[0] = values[k * fieldCount] }
            texts.append(SearchFields.join(fields, count: fieldCount))
            lines.append(fields.map { $0 ?? "" }.joined(separator: "\t"))
        }
        return (texts, lines, values)
    }

    func compare(seed: UInt64, count: Int, fieldCount: Int, queries: Int, arguments: [String] = [],
                 scheme: SearchScheme = .default, mode: SearchMode = .fuzzy, tiebreak: [SearchTiebreak]? = nil,
                 extended: Bool) throws {
        try #require(FzfRunner.isInstalled, "fzf is not installed at \(FzfRunner.path)")
        let (texts, lines, values) = Self.corpus(count: count, fieldCount: fieldCount, seed: seed)
        let file = try CorpusFile(lines)
        let index = SearchIndex(texts: texts)
        let nth = (1...fieldCount).map(String.init).joined(separator: ",")
        let fzfArguments = ["--delimiter", "\t", "--nth", nth] + arguments
        var rng = SplitMix64(seed: seed &* 31 &+ 11)
        var failures = 0
        var nonEmpty = 0
        func query(_ text: String, limit: Int? = nil) -> SearchQuery {
            SearchQuery(text: text, mode: mode, order: .score, limit: limit, scheme: scheme, tiebreak: tiebreak,
                        fielded: true)
        }
        for _ in 0..<queries {
            let text = extended ? FzfCorpus.extendedQuery(from: values, rng: &rng)
                                : FzfCorpus.query(from: values, rng: &rng)
            let expected = try FzfRunner.filter(text, file: file, arguments: fzfArguments)
            if !expected.isEmpty && expected.count < lines.count { nonEmpty += 1 }
            let actual = index.search(query(text), among: nil).map { lines[$0.index] }
            // Key by key, each key narrowing the previous key's matches.
            var previous: SearchMatchSet?
            var typed: [String] = []
            var prefix = ""
            for c in text {
                prefix.append(c)
                let result = index.evaluate(query(prefix, limit: 50), narrowing: previous, among: nil)
                previous = result.matches
                typed = result.hits.map { lines[$0.index] }
            }
            if expected != actual || typed != Array(expected.prefix(50)) {
                failures += 1
                if failures <= 5 {
                    let firstDiff = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }
                    Issue.record("""
                        query \(text.debugDescription): fzf \(expected.count) lines, engine \(actual.count); \
                        first difference at \(firstDiff?.offset ?? min(expected.count, actual.count)): \
                        fzf \(firstDiff?.element.0.debugDescription ?? "-") engine \(firstDiff?.element.1.debugDescription ?? "-")
                        """)
                }
            }
        }
        #expect(failures == 0, "\(failures) of \(queries) queries ranked differently from fzf --nth \(nth)")
        #expect(nonEmpty * 4 >= queries, "only \(nonEmpty) of \(queries) queries matched some lines")
    }

    @Test func singleTermsOverTwoFieldsRankAsFzfNth() throws {
        try compare(seed: 60, count: 1200, fieldCount: 2, queries: 500, extended: false)
    }

    @Test func extendedQueriesOverThreeFieldsRankAsFzfNth() throws {
        try compare(seed: 61, count: 1200, fieldCount: 3, queries: 250, extended: true)
    }

    @Test func exactModeOverFieldsRanksAsFzfNth() throws {
        try compare(seed: 62, count: 1000, fieldCount: 2, queries: 200, arguments: ["--exact"], mode: .exact,
                    extended: true)
    }

    @Test func pathSchemeOverFieldsRanksAsFzfNth() throws {
        try compare(seed: 63, count: 800, fieldCount: 2, queries: 150, arguments: ["--scheme=path"], scheme: .path,
                    extended: false)
    }

    @Test(arguments: ["begin", "end", "chunk", "length,begin", "end,length"])
    func tiebreaksOverFieldsRankAsFzfNth(_ list: String) throws {
        let criteria = list.split(separator: ",").compactMap { SearchTiebreak(rawValue: String($0)) }
        try compare(seed: UInt64(70 + list.count), count: 800, fieldCount: 2, queries: 80,
                    arguments: ["--tiebreak=\(list)"], tiebreak: criteria, extended: true)
    }

    /// Above the two-thread threshold, with compacted match sets.
    @Test func largeCorpusOfFieldsRanksAsFzfNth() throws {
        try compare(seed: 64, count: 30_000, fieldCount: 2, queries: 15, extended: true)
    }

    /// The first field that matches a term scores it, even when a later
    /// one would score more (fzf's `--nth 1,2`): `zzzzzzz⇥ab` ranks above
    /// `axxxxb⇥ab` for `ab`.
    @Test func firstMatchingFieldScoresTheTerm() throws {
        let texts = [SearchFields.join(["axxxxb", "ab"], count: 2), SearchFields.join(["zzzzzzz", "ab"], count: 2)]
        let index = SearchIndex(texts: texts)
        let hits = index.search(SearchQuery(text: "ab", fielded: true), among: nil)
        #expect(hits.map(\.index) == [1, 0])
        // Joined as one text instead, the shorter line would win the tie.
        #expect(index.search(SearchQuery(text: "ab"), among: nil).map(\.index) == [0, 1])
        if FzfRunner.isInstalled {
            let file = try CorpusFile(["axxxxb\tab", "zzzzzzz\tab"])
            #expect(try FzfRunner.filter("ab", file: file, arguments: ["--delimiter", "\t", "--nth", "1,2"])
                    == ["zzzzzzz\tab", "axxxxb\tab"])
        }
    }

    /// A term never matches across fields; every term may match in its own.
    @Test func termsMatchWithinOneField() {
        let index = SearchIndex(texts: [SearchFields.join(["ab", "cd"], count: 2)])
        #expect(index.search(SearchQuery(text: "bc", fielded: true), among: nil).isEmpty)
        #expect(index.search(SearchQuery(text: "bc"), among: nil).count == 1)
        #expect(index.search(SearchQuery(text: "ab cd", fielded: true), among: nil).count == 1)
        #expect(index.search(SearchQuery(text: "b c", mode: .substring, fielded: true), among: nil).isEmpty)
        #expect(index.search(SearchQuery(text: "\u{0B}", mode: .substring, fielded: true), among: nil).isEmpty)
        #expect(index.search(SearchQuery(text: "'b\\ c", fielded: true), among: nil).isEmpty)
        #expect(index.search(SearchQuery(text: "^cd", fielded: true), among: nil).count == 1)
        #expect(index.search(SearchQuery(text: "ab$", fielded: true), among: nil).count == 1)
        #expect(index.search(SearchQuery(text: "!cd", fielded: true), among: nil).isEmpty)
    }

    /// Highlights are positions in the joined text; `split` gives each
    /// field's own offsets.
    @Test func highlightsSplitByField() {
        let text = SearchFields.join(["Main.swift", "Sources/app/Main.swift"], count: 2)
        let index = SearchIndex(texts: [text])
        let ranges = index.highlights(of: 0, for: SearchQuery(text: "main app", fielded: true))
        let split = SearchFields.split(ranges, in: text ?? "")
        #expect(split.map(\.field) == [0, 1])
        #expect(split.map(\.range) == [0..<4, 8..<11])
        // Non-ASCII before a field: offsets stay in scalars of each field.
        let accented = SearchFields.join(["Ünïcode", "x/über"], count: 2)
        let marks = SearchFields.split(SearchIndex(texts: [accented])
            .highlights(of: 0, for: SearchQuery(text: "ber", fielded: true)), in: accented ?? "")
        #expect(marks.map(\.field) == [1])
        #expect(marks.map(\.range) == [3..<6])
    }

    /// A missing field is empty; an item lacking every field never matches
    /// a non-empty query, and the empty query shows it.
    @Test func missingFields() {
        #expect(SearchFields.join([nil, nil], count: 2) == nil)
        #expect(SearchFields.join([nil, "a"], count: 2) == "\u{0B}a")
        #expect(SearchFields.join(["a\u{0B}b"], count: 2) == "a b\u{0B}")
        let index = SearchIndex(texts: [nil, SearchFields.join([nil, "x"], count: 2)])
        #expect(index.search(SearchQuery(text: "!zz", fielded: true), among: nil).map(\.index) == [1])
        #expect(index.search(SearchQuery(text: "", fielded: true), among: nil).count == 2)
    }
}
