import Foundation
import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// The engine's fuzzy ranking against Debian's fzf 0.38 (`fzf --filter`):
/// the same lines in the same order. fzf is required: without it these
/// tests fail (run `protocol/tools/install-test-tools`).
@Suite(.serialized) struct FzfComparisonTests {
    /// The engine's ranked lines for `query`.
    func engineLines(_ index: SearchIndex, _ lines: [String], _ query: String,
                     scheme: SearchScheme = .default, mode: SearchMode = .fuzzy,
                     tiebreak: [SearchTiebreak]? = nil) -> [String] {
        index.search(SearchQuery(text: query, mode: mode, order: .score, scheme: scheme, tiebreak: tiebreak), among: nil)
            .map { lines[$0.index] }
    }

    func compare(seed: UInt64, corpusSize: Int, queries: Int, arguments: [String] = [],
                 scheme: SearchScheme = .default, mode: SearchMode = .fuzzy, tiebreak: [SearchTiebreak]? = nil,
                 makeQuery: ((inout SplitMix64, [String]) -> String)? = nil) throws {
        try #require(FzfRunner.isInstalled, "fzf is not installed at \(FzfRunner.path)")
        let lines = FzfCorpus.make(count: corpusSize, seed: seed)
        let file = try CorpusFile(lines)
        let index = SearchIndex(texts: lines)
        var rng = SplitMix64(seed: seed &* 31 &+ 7)
        var failures = 0
        var nonEmpty = 0
        var operators = 0
        for _ in 0..<queries {
            let query = makeQuery?(&rng, lines) ?? FzfCorpus.query(from: lines, rng: &rng)
            let expected = try FzfRunner.filter(query, file: file, arguments: arguments)
            if !expected.isEmpty && expected.count < lines.count { nonEmpty += 1 }
            if query.contains(where: { "'^$!|".contains($0) }) && !expected.isEmpty { operators += 1 }
            let actual = engineLines(index, lines, query, scheme: scheme, mode: mode, tiebreak: tiebreak)
            // The bounded paths: the best 20, and the same typed key by key
            // (each key narrowing the previous key's matches).
            let top = index.search(SearchQuery(text: query, mode: mode, order: .score, limit: 20, scheme: scheme,
                                               tiebreak: tiebreak),
                                   among: nil).map { lines[$0.index] }
            var previous: SearchMatchSet?
            var typed: [String] = []
            var prefix = ""
            for c in query {
                prefix.append(c)
                let result = index.evaluate(SearchQuery(text: prefix, mode: mode, order: .score, limit: 50,
                                                        scheme: scheme, tiebreak: tiebreak),
                                            narrowing: previous, among: nil)
                previous = result.matches
                typed = result.hits.map { lines[$0.index] }
            }
            if top != Array(expected.prefix(20)) || typed != Array(expected.prefix(50)) {
                failures += 1
                Issue.record("query \(query.debugDescription): the limited or narrowed ranking differs from fzf's")
            }
            if expected != actual {
                failures += 1
                if failures <= 5 {
                    let firstDiff = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }
                    Issue.record("""
                        query \(query.debugDescription): fzf \(expected.count) lines, engine \(actual.count); \
                        first difference at \(firstDiff?.offset ?? min(expected.count, actual.count)): \
                        fzf \(firstDiff?.element.0.debugDescription ?? "-") engine \(firstDiff?.element.1.debugDescription ?? "-")
                        """)
                }
            }
        }
        #expect(failures == 0, "\(failures) of \(queries) queries ranked differently from fzf")
        // The cases compare something: most queries select some lines, and
        // extended ones use their operators.
        #expect(nonEmpty * 4 >= queries, "only \(nonEmpty) of \(queries) queries matched some lines")
        if makeQuery != nil { #expect(operators * 8 >= queries, "only \(operators) queries with operators matched") }
    }

    @Test func singleTermQueriesRankAsFzf() throws {
        try compare(seed: 30, corpusSize: 1500, queries: 1000)
    }

    @Test func singleTermQueriesRankAsFzfOnASecondCorpus() throws {
        try compare(seed: 3030, corpusSize: 600, queries: 500)
    }

    /// Extended search: AND, `|`, `'`, `^`, `$`, `!`, `\ `, as fzf's
    /// default (extended) mode.
    @Test func extendedQueriesRankAsFzf() throws {
        try compare(seed: 34, corpusSize: 1500, queries: 600) { rng, lines in
            FzfCorpus.extendedQuery(from: lines, rng: &rng)
        }
    }

    /// `mode: "exact"` as `fzf --exact`.
    @Test func exactModeRanksAsFzf() throws {
        try compare(seed: 35, corpusSize: 1500, queries: 400, arguments: ["--exact"], mode: .exact) { rng, lines in
            FzfCorpus.extendedQuery(from: lines, rng: &rng)
        }
    }

    /// One exact char (`'v`, and `v` with `--exact`) ranks and highlights
    /// as that char's fuzzy term while fzf scans forward (the daemon takes
    /// the one-char fuzzy path for it), and stays exact under a tie-break
    /// that scans backward.
    @Test(arguments: [("", [String]()), ("length,end", ["--tiebreak=length,end"]), ("end,begin", ["--tiebreak=end,begin"])])
    func oneExactCharRanksAsFzf(_ list: String, _ tiebreak: [String]) throws {
        let criteria = list.split(separator: ",").compactMap { SearchTiebreak(rawValue: String($0)) }
        let chars = Array("abcdeilmnorstuvxyz0129./_-:ABLRSV")
        try compare(seed: 37, corpusSize: 1500, queries: 120, arguments: tiebreak,
                    tiebreak: criteria.isEmpty ? nil : criteria) { rng, _ in
            "'" + String(chars[Int(rng.next() % UInt64(chars.count))])
        }
        // Every fourth query is two chars ORed, so that some use an operator.
        try compare(seed: 38, corpusSize: 1500, queries: 60, arguments: ["--exact"] + tiebreak, mode: .exact,
                    tiebreak: criteria.isEmpty ? nil : criteria) { rng, _ in
            let c = String(chars[Int(rng.next() % UInt64(chars.count))])
            return rng.next() % 4 == 0 ? c + " | " + String(chars[Int(rng.next() % UInt64(chars.count))]) : c
        }
    }

    /// Extended queries above the two-thread threshold.
    @Test func extendedQueriesOnALargeCorpus() throws {
        try compare(seed: 36, corpusSize: 40_000, queries: 30) { rng, lines in
            FzfCorpus.extendedQuery(from: lines, rng: &rng)
        }
    }

    /// `tiebreak` as fzf's `--tiebreak`, on single-term and extended queries.
    @Test(arguments: ["begin", "end", "chunk", "index", "length,begin", "end,length", "chunk,begin,end,index",
                      "begin,chunk"])
    func tiebreaksRankAsFzf(_ list: String) throws {
        let criteria = list.split(separator: ",").compactMap { SearchTiebreak(rawValue: String($0)) }
        try compare(seed: UInt64(40 + list.count), corpusSize: 1200, queries: 150,
                    arguments: ["--tiebreak=\(list)"], tiebreak: criteria) { rng, lines in
            rng.next() % 2 == 0 ? FzfCorpus.query(from: lines, rng: &rng) : FzfCorpus.extendedQuery(from: lines, rng: &rng)
        }
    }

    /// Above the two-thread threshold, with compacted match sets and views.
    @Test func largeCorpusRanksAsFzf() throws {
        try compare(seed: 33, corpusSize: 40_000, queries: 40)
    }

    @Test func pathSchemeRanksAsFzf() throws {
        try compare(seed: 31, corpusSize: 800, queries: 120, arguments: ["--scheme=path"], scheme: .path)
    }

    @Test func historySchemeRanksAsFzf() throws {
        try compare(seed: 32, corpusSize: 800, queries: 120, arguments: ["--scheme=history"], scheme: .history)
    }

    /// fzf's row-0 behaviour: `avp/c` above `ava c` for `ac` (the later `a`
    /// restarts the alignment), and the issue's `app/core/header.ts` above
    /// `Ava Chloe Lee`.
    @Test func firstRowQuirk() throws {
        try #require(FzfRunner.isInstalled, "fzf is not installed at \(FzfRunner.path)")
        for lines in [["ava c", "avp/c"], ["Ava Chloe Lee", "app/core/header.ts"]] {
            let file = try CorpusFile(lines)
            let index = SearchIndex(texts: lines)
            let expected = try FzfRunner.filter("ac", file: file)
            #expect(expected == [lines[1], lines[0]])
            #expect(engineLines(index, lines, "ac") == expected)
        }
    }

    /// A query its operators leave without a term (`'`, `^`, `!`, spaces:
    /// a picker's first key of an extended query) matches every line, and
    /// fzf leaves them in input order, whatever the tie-breaks. Next to
    /// them, queries that keep a term (`$`, `^a`; a `|` with no term before
    /// it is a term of its own).
    @Test(arguments: [(SearchMode.fuzzy, [String]()), (.exact, ["--exact"]), (.fuzzy, ["--tiebreak=length,end"])])
    func queriesWithNoTermLeftKeepTheInputOrder(_ mode: SearchMode, _ arguments: [String]) throws {
        try #require(FzfRunner.isInstalled, "fzf is not installed at \(FzfRunner.path)")
        let lines = FzfCorpus.make(count: 400, seed: 39)
        let file = try CorpusFile(lines)
        let index = SearchIndex(texts: lines)
        let tiebreak: [SearchTiebreak]? = arguments.contains("--tiebreak=length,end") ? [.length, .end] : nil
        var inputOrder = 0
        for query in ["", "'", "^", "!", " ", "  ", "' ^", "!^", "!'", "^$", "|", "' | ^", "!$", "$", "^a", "'a"] {
            let expected = try FzfRunner.filter(query, file: file, arguments: arguments)
            if expected == lines { inputOrder += 1 }
            try expectSameAsFzf(query, expected, index, lines, file, mode: mode, arguments: arguments, tiebreak: tiebreak)
        }
        // Most of these queries keep no term: the case is compared.
        #expect(inputOrder >= 10)
    }

    /// A tab in a query is a space inside its term, as fzf reads it (it
    /// marks `\ ` with a tab while it splits the query): `a\tb` is the one
    /// term `a b`, not a tab to find; typed key by key too.
    @Test(arguments: [(SearchMode.fuzzy, [String]()), (.exact, ["--exact"])])
    func tabsInAQueryAreSpacesInATerm(_ mode: SearchMode, _ arguments: [String]) throws {
        try #require(FzfRunner.isInstalled, "fzf is not installed at \(FzfRunner.path)")
        let lines = FzfCorpus.make(count: 600, seed: 41) + ["a\tb", "docs\tapp", "docs app", "\tlead", " lead"]
        let file = try CorpusFile(lines)
        let index = SearchIndex(texts: lines)
        var matched = 0
        for query in ["\t", "a\tb", "s\ta", "'s\ta", "^docs\ta", "p\t$", "!\t", "\tlead", "'\t", "docs\t| ^x", "\t\t", "a\\\tb"] {
            let expected = try FzfRunner.filter(query, file: file, arguments: arguments)
            if !expected.isEmpty && expected.count < lines.count { matched += 1 }
            try expectSameAsFzf(query, expected, index, lines, file, mode: mode, arguments: arguments)
        }
        #expect(matched >= 6, "only \(matched) queries matched some lines")
    }

    /// Texts so long that fzf scores them greedily (v1: length × term over
    /// 102,400) keep every gap's cost, so their score may be negative; fzf
    /// ranks it as 0 (its sort key holds the score in 16 bits), where they
    /// tie and the shorter comes first. fzf finds the v1 span with accents
    /// normalized and shrinks it without (`ï` does not count as `i` then).
    /// Typed key by key too.
    @Test func longTextsScoredBelowZeroRankAsZero() throws {
        try #require(FzfRunner.isInstalled, "fzf is not installed at \(FzfRunner.path)")
        var rng = SplitMix64(seed: 43)
        let words = FzfCorpus.make(count: 400, seed: 43)
        var lines = Array(words.prefix(200))
        for _ in 0..<24 {
            let n = 800 + Int(rng.next() % 3_000)
            lines.append((0..<n).map { _ in words[Int(rng.next() % UInt64(words.count))] }.joined(separator: " "))
        }
        let file = try CorpusFile(lines)
        let index = SearchIndex(texts: lines)
        var longRanked = 0
        for q in 0..<30 {
            let query = q % 3 == 0 ? FzfCorpus.extendedQuery(from: words, rng: &rng) : FzfCorpus.query(from: words, rng: &rng)
            let expected = try FzfRunner.filter(query, file: file)
            longRanked += expected.prefix(50).filter { $0.count > 10_000 }.count
            try expectSameAsFzf(query, expected, index, lines, file, mode: .fuzzy, arguments: [])
        }
        // The long texts are ranked among the first 50, where ties decide.
        #expect(longRanked >= 30, "only \(longRanked) long texts among the first 50s")
    }

    /// The engine's ranking of `query` is fzf's (`expected`), and so is the
    /// best 50 (a viewport's rows) of each of its prefixes typed key by
    /// key, each narrowed from the key before.
    func expectSameAsFzf(_ query: String, _ expected: [String], _ index: SearchIndex, _ lines: [String],
                         _ file: CorpusFile, mode: SearchMode, arguments: [String],
                         tiebreak: [SearchTiebreak]? = nil) throws {
        let actual = engineLines(index, lines, query, mode: mode, tiebreak: tiebreak)
        let same = actual == expected
        #expect(same, "query \(query.debugDescription): \(Self.firstDifference(actual, expected))")
        var previous: SearchMatchSet?
        var prefix = ""
        for c in query {
            prefix.append(c)
            let result = index.evaluate(SearchQuery(text: prefix, mode: mode, order: .score, limit: 50, tiebreak: tiebreak),
                                        narrowing: previous, among: nil)
            previous = result.matches
            let top = result.hits.map { lines[$0.index] }
            let best = Array(try FzfRunner.filter(prefix, file: file, arguments: arguments).prefix(50))
            let sameBest = top == best
            #expect(sameBest, """
                query \(prefix.debugDescription) typed after \(String(prefix.dropLast()).debugDescription): \
                \(Self.firstDifference(top, best))
                """)
        }
    }

    /// Where two rankings first differ, for a failure's message.
    static func firstDifference(_ actual: [String], _ expected: [String]) -> String {
        let at = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actual.count, expected.count)
        return "engine \(actual.count) lines, fzf \(expected.count); first difference at \(at): engine "
            + "\(at < actual.count ? actual[at].debugDescription : "-"), fzf \(at < expected.count ? expected[at].debugDescription : "-")"
    }

    /// The normalization table equals what the installed fzf does: for each
    /// ASCII letter, the scalars U+00C0…U+FF61 a case-sensitive query of
    /// that letter matches.
    @Test func normalizationTableMatchesFzf() throws {
        try #require(FzfRunner.isInstalled, "fzf is not installed at \(FzfRunner.path)")
        let candidates = (UInt32(0xC0)...0xFF61).filter { !(0xD800...0xDFFF).contains($0) && $0 != 0x2028 && $0 != 0x2029 }
        let lines = candidates.compactMap { Unicode.Scalar($0).map { String(Character($0)) } }
        let file = try CorpusFile(lines)
        var expected: [UInt32: UInt32] = [:]
        for letter in (UInt32(0x41)...0x5A).map({ $0 }) + (UInt32(0x61)...0x7A).map({ $0 }) {
            let q = String(Character(Unicode.Scalar(letter) ?? "a"))
            for line in try FzfRunner.filter(q, file: file, arguments: ["+i"]) {
                if let v = line.unicodeScalars.first?.value { expected[v] = letter }
            }
        }
        var actual: [UInt32: UInt32] = [:]
        for v in candidates where FzfText.normalize(v) != v { actual[v] = FzfText.normalize(v) }
        #expect(actual == expected)
    }
}
