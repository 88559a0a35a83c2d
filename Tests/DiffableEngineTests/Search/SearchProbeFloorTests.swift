import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// A viewport's ranking of the best k on a large list takes a floor from
/// probed texts (the shortest, and the previous keystroke's best) before it
/// scans: its hits stay exactly the first k of the full ranking.
@Suite struct SearchProbeFloorTests {
    /// Sorted path-like texts sharing prefixes, of varied lengths, above the
    /// size from which a scan probes (`SearchIndex.floorProbeMinimum`).
    static func paths(count: Int, rng: inout SplitMix64) -> [String?] {
        let roots = ["", "/srv/mirror-a", "/home/dev/snap"]
        let dirs = ["usr", "src", "lib", "share", "doc", "python3", "site-packages", "swift", "conf.d", "etc"]
        let files = ["README", "readme.md", "__init__.py", "main.swift", "config.json", "libswift.so", "init.c", "x"]
        var out: [String?] = (0..<count).map { _ in
            if Int.random(in: 0..<50, using: &rng) == 0 { return nil }
            let depth = Int.random(in: 0...5, using: &rng)
            var path = roots.randomElement(using: &rng) ?? ""
            for _ in 0..<depth { path += "/" + (dirs.randomElement(using: &rng) ?? "x") }
            return path + "/" + (files.randomElement(using: &rng) ?? "x")
        }
        out.sort { ($0 ?? "") < ($1 ?? "") }
        return out
    }

    @Test(arguments: [11, 12])
    func keystrokesRankTheBestExactly(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let count = SearchIndex.floorProbeMinimum + 20_000
        let index = SearchIndex(texts: Self.paths(count: count, rng: &rng))
        Self.type(["src/", "readme", "init.py", "libsw", "main", "conf"], into: index, k: 150)
    }

    /// Types each of `words` key by key, each key narrowing from the one
    /// before with a window of the best `k`: every key's hits must be the
    /// first k of the full ranking, and its match count the full one.
    /// `each` is called with every key's query.
    static func type(_ words: [String], into index: SearchIndex, k: Int, each: (SearchQuery) -> Void = { _ in }) {
        for word in words {
            var last: SearchMatchSet?
            for n in 1...word.count {
                let query = SearchQuery(text: String(word.prefix(n)), mode: .fuzzy, order: .score)
                let result = index.evaluate(query, narrowing: last, among: nil, rankOnly: k)
                let full = index.evaluate(query, among: nil)
                #expect(result.hits == Array(full.hits.prefix(k)), "\(query.text)")
                #expect(result.matches.count == full.matches.count, "\(query.text)")
                last = result.matches
                each(query)
            }
        }
    }

    /// Extended queries typed key by key (several terms, anchors, exact,
    /// inverse and OR terms) also rank exactly their best k when a floor is
    /// probed; and the probe's floor, which skips scoring texts whose bound
    /// cannot raise it, is the k-th best of every probed text scored.
    @Test func extendedKeystrokesRankTheBestAndProbeTheFullFloor() {
        var rng = SplitMix64(seed: 16)
        let count = SearchIndex.floorProbeMinimum + 20_000
        // Paths, and short texts holding the queries' chars apart (low
        // scores) next to longer ones holding them as runs: the probe meets
        // the weak ones first and must still score the strong ones.
        let texts = Self.paths(count: count, rng: &rng).enumerated().map { j, path -> String? in
            switch j % 256 {
            case 0: return "sxw\(j % 10)"
            case 1: return "/swift\(j % 10)"
            default: return path
            }
        }
        let index = SearchIndex(texts: texts)
        let k = 50
        let words = ["src sw", "lib !doc", "^/srv | ^/ho", "'swift .py$", "init .py$ !share", "sw !q", "s sw"]
        var compared = 0
        Self.type(words, into: index, k: k) { query in
            let prepared = PreparedQuery(query)
            guard prepared.extended != nil, SearchIndex.floorProbeApplies(prepared) else { return }
            index.withTable { table in
                let probed = index.probedFloor(prepared, best: k, universe: 0..<count, probes: [], table: table)
                let scanner = Scanner(table: table, query: prepared)
                var top = TopK(capacity: k)
                for i in SearchIndex.shortestTexts(table, 0..<count, limit: SearchIndex.floorProbeTexts) {
                    if let (score, key) = scanner.scoredKey(i, known: nil, offsets: nil, extended: prepared.extended) {
                        top.insert(RankKey(score: score, length: key, index: i))
                    }
                }
                let expected = top.isFull ? top.worst.map { SharedFloor.pack(score: $0.score, length: $0.length) } : nil
                #expect(probed == expected, "\(query.text)")
                if expected != nil { compared += 1 }
            }
        }
        #expect(compared >= 10)
    }

    /// The first key of a new query narrows from no set, but the shortest
    /// texts another query found over the same universe of the same index
    /// serve it (they do not depend on the query); over another universe
    /// they are found again. Either way the best k stay exact.
    @Test func aNewQueryTakesTheShortestTextsFoundForTheUniverse() {
        var rng = SplitMix64(seed: 14)
        let count = SearchIndex.floorProbeMinimum + 20_000
        let index = SearchIndex(texts: Self.paths(count: count, rng: &rng))
        var recent = RecentMatchSets()
        let first = index.evaluate(SearchQuery(text: "readme", mode: .fuzzy, order: .score), narrowing: nil,
                                   among: nil, within: nil, rankOnly: 50, scoring: true, pool: nil, recent: recent)
        #expect(first.matches.probeTexts.shortest != nil)
        recent.remember(first.matches, scope: nil)
        for text in ["init.py", "conf", "s"] {
            let query = SearchQuery(text: text, mode: .fuzzy, order: .score)
            let result = index.evaluate(query, narrowing: nil, among: nil, within: nil, rankOnly: 50, scoring: true,
                                        pool: nil, recent: recent)
            #expect(result.matches.probeTexts === first.matches.probeTexts, "\(text)")
            let full = index.evaluate(query, among: nil)
            #expect(result.hits == Array(full.hits.prefix(50)), "\(text)")
        }
        let scoped = index.evaluate(SearchQuery(text: "conf", mode: .fuzzy, order: .score), narrowing: nil,
                                    among: nil, within: 30_000..<count, rankOnly: 50, scoring: true, pool: nil,
                                    recent: recent)
        #expect(scoped.matches.probeTexts !== first.matches.probeTexts)
        let full = index.evaluate(SearchQuery(text: "conf", mode: .fuzzy, order: .score), among: Array(30_000..<count))
        #expect(scoped.hits == Array(full.hits.prefix(50)))
    }

    /// The shortest texts of a large range, found from a sample's cut in
    /// one pass on two threads, are exactly those of sorting every text by
    /// (length, index): with nil texts, many equal lengths, lengths past
    /// the last bucket, and a range the sample misjudges.
    @Test func theShortestTextsAreTheShortest() {
        var rng = SplitMix64(seed: 15)
        func check(_ texts: [String?], _ range: Range<Int>, limit: Int, _ what: String) {
            let index = SearchIndex(texts: texts)
            let buckets = SearchIndex.floorProbeBuckets
            var keyed: [(length: Int, index: Int)] = []
            for i in range {
                guard let text = texts[i] else { continue }
                keyed.append((min(text.utf8.count, buckets - 1), i))
            }
            keyed.sort { $0.length != $1.length ? $0.length < $1.length : $0.index < $1.index }
            let expected: [Int] = keyed.prefix(limit).map { $0.index }
            index.withTable { table in
                #expect(SearchIndex.shortestTexts(table, range, limit: limit) == expected, "\(what)")
            }
        }
        let count = 140_000
        let varied: [String?] = (0..<count).map { _ in
            rng.next() % 40 == 0 ? nil : String(repeating: "x", count: 1 + Int(rng.next() % 300))
        }
        check(varied, 0..<count, limit: 4_096, "varied lengths")
        check(varied, 5_000..<120_000, limit: 4_096, "a scoped range")
        check(varied, 0..<count, limit: 50, "a small limit")
        let equal: [String?] = (0..<count).map { $0 % 7 == 0 ? nil : "same length" }
        check(equal, 0..<count, limit: 4_096, "every length equal")
        let long: [String?] = (0..<count).map { String(repeating: "y", count: 1_000 + $0 % 500) }
        check(long, 0..<count, limit: 4_096, "lengths past the last bucket")
        // Short texts only where the sample does not look (every 64th).
        let hidden: [String?] = (0..<count).map { $0 % 64 == 1 ? "s" : String(repeating: "z", count: 50 + $0 % 9) }
        check(hidden, 0..<count, limit: 4_096, "short texts the sample misses")
    }

    @Test func aScopedRangeProbesOnlyItsOwnTexts() {
        var rng = SplitMix64(seed: 13)
        let count = SearchIndex.floorProbeMinimum + 40_000
        let index = SearchIndex(texts: Self.paths(count: count, rng: &rng))
        // The shortest texts of the whole index are mostly outside the range.
        let range = 30_000..<count
        var last: SearchMatchSet?
        for text in ["s", "sr", "src", "src/"] {
            let query = SearchQuery(text: text, mode: .fuzzy, order: .score)
            let result = index.evaluate(query, narrowing: last, among: nil, within: range, rankOnly: 50)
            let full = index.evaluate(query, among: Array(range))
            #expect(result.hits == Array(full.hits.prefix(50)), "\(text)")
            last = result.matches
        }
    }

    /// Texts holding the query as one run are probed within the range
    /// only: short ones outside it would give a floor the range's best
    /// rows cannot reach.
    @Test func theRunProbeReadsOnlyTheRange() {
        let count = SearchIndex.floorProbeMinimum + 40_000
        let texts: [String?] = (0..<count).map { i in
            if i < 30_000 { return i % 7 == 0 ? "/src/x" : "/q/\(i)" }
            return i % 50 == 0 ? "/a/long/prefix/for/number/\(i)/src/lib" : "/s/r/c/\(i)/"
        }
        let index = SearchIndex(texts: texts)
        let range = 30_000..<count
        // Each typed at once (no earlier key's best rows to probe).
        for text in ["src", "src/", "c/lib"] {
            let query = SearchQuery(text: text, mode: .fuzzy, order: .score)
            let result = index.evaluate(query, narrowing: nil, among: nil, within: range, rankOnly: 50)
            let full = index.evaluate(query, among: Array(range))
            #expect(result.hits == Array(full.hits.prefix(50)), "\(text)")
        }
    }

    /// The run probe finds exactly the ASCII texts of its sample that hold
    /// the query as one run (not a run that spans two texts), in order; a
    /// longer query of the chain reads only those texts and finds the same
    /// as a fresh probe.
    @Test func theRunProbeFindsTheTextsHoldingTheQuery() {
        var rng = SplitMix64(seed: 14)
        // 640 texts: ten blocks of 64 cover the whole universe.
        var texts = Self.paths(count: 640, rng: &rng)
        texts[100] = "/usr/src"
        texts[101] = "/lib/x"
        texts[300] = "/usr/ReadMe/src/lib"
        texts[301] = "/usr/é/src/lib"
        let index = SearchIndex(texts: texts)
        index.withTable { table in
            let known = ProbeTexts()
            for word in ["sr", "src", "src/", "src/l", "readm", "ReadM", "c/li"] {
                let prepared = PreparedQuery(SearchQuery(text: word, mode: .fuzzy, order: .score))
                let fresh = SearchIndex.textsHoldingRun(prepared, 0..<640, table: table, limit: 10_000)
                let chained = SearchIndex.textsHoldingRun(prepared, 0..<640, table: table, limit: 10_000, known: known)
                let expected = (0..<640).filter { i in
                    guard let text = texts[i], text.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
                    return prepared.caseSensitive ? text.contains(word) : text.lowercased().contains(word.lowercased())
                }
                #expect(fresh == expected, "\(word)")
                #expect(chained == expected, "\(word)")
            }
            // "/usr/src" then "/lib/x": `src/` only across the two texts.
            #expect(!SearchIndex.textsHoldingRun(PreparedQuery(SearchQuery(text: "src/l", mode: .fuzzy, order: .score)),
                                                 100..<102, table: table, limit: 10).contains(100))
        }
    }
}
