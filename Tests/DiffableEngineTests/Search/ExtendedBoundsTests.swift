import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// Extended queries rank the best k without scoring every match: an ASCII
/// text is matched on its terms' placements and bounded by its masks
/// (`FzfQueryBounds`). The placements must decide exactly what scoring
/// decides, the bound must never be below the score, and a window's
/// ranking must stay the first k of the full one.
@Suite struct ExtendedBoundsTests {
    /// Corpus lines, and the same lines split into two or three fields.
    static func texts(count: Int, seed: UInt64, fielded: Bool) -> [String?] {
        let lines = FzfCorpus.make(count: count, seed: seed)
        guard fielded else { return lines }
        var rng = SplitMix64(seed: seed &+ 1)
        return lines.map { line in
            let words = line.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if words.count >= 2 {
                return SearchFields.join([words.last, words.dropLast().joined(separator: "/")], count: 2)
            }
            return SearchFields.join([line, rng.next() % 3 == 0 ? nil : "x/" + line], count: 2)
        }
    }

    @Test(arguments: [(1 as UInt64, false), (2, true), (3, false), (4, true)])
    func placementsDecideTheMatchAndBoundTheScore(seed: UInt64, fielded: Bool) {
        let texts = Self.texts(count: 600, seed: seed, fielded: fielded)
        let lines = texts.map { ($0 ?? "").replacingOccurrences(of: "\u{0B}", with: " ") }
        let index = SearchIndex(texts: texts)
        var rng = SplitMix64(seed: seed)
        var bounded = 0
        var rejectedByEdges = 0
        var tightened = 0
        for q in 0..<250 {
            let text = FzfCorpus.extendedQuery(from: lines, rng: &rng)
            let scheme = SearchScheme.allCases[q % SearchScheme.allCases.count]
            let query = SearchQuery(text: text, mode: q % 5 == 0 ? .exact : .fuzzy, scheme: scheme, fielded: fielded)
            let prepared = PreparedQuery(query)
            guard let bounds = prepared.extendedBounds else { continue }
            index.withTable { table in
                let scanner = Scanner(table: table, query: prepared)
                for i in 0..<table.count where table.isASCII(i) {
                    let score = scanner.score(i)
                    let bound = bounds.bound(table, i, masks: table.masks[i], query: prepared.extended ?? FzfQuery("", fuzzy: true),
                                             fields: scanner.workspace.fieldViews)
                    #expect((score == nil) == (bound == nil), "\(text) on \(lines[i])")
                    // The first and last bytes admit every match, and
                    // reject some texts of the queries tied to an edge.
                    if let anchors = bounds.anchors {
                        let admitted = anchors.admits(table.foldedText(i))
                        #expect(admitted || score == nil, "\(text) on \(lines[i]): a match the edge bytes reject")
                        if !admitted { rejectedByEdges += 1 }
                    }
                    if let score, let bound {
                        #expect(bound >= score, "\(text) on \(lines[i]): bound \(bound) < score \(score)")
                        #expect(bound <= bounds.maxScore, "\(text)")
                        bounded += 1
                        // Tightened where a set's first pair stands: still a
                        // bound, never looser.
                        let setBounds = UnsafeMutablePointer<Int>.allocate(capacity: max(bounds.storage.setEnds.count, 1))
                        defer { setBounds.deallocate() }
                        let staged = bounds.bound(table, i, masks: table.masks[i],
                                                  query: prepared.extended ?? FzfQuery("", fuzzy: true),
                                                  fields: scanner.workspace.fieldViews, setBounds: setBounds) ?? bound
                        let tight = bounds.tightened(staged, masks: table.masks[i], wordPairs: table.wordPairsOf(i),
                                                     setBounds: setBounds, known: nil, id: i)
                        #expect(tight >= score && tight <= bound, "\(text) on \(lines[i]): \(tight), score \(score)")
                        if tight < bound { tightened += 1 }
                        // Then by what the sets' runs earn: still a bound,
                        // each set's own too (the sum the scan stops on).
                        let runs = bounds.runsTightened(tight, masks: table.masks[i], wordPairs: table.wordPairsOf(i),
                                                        setBounds: setBounds, known: nil, id: i)
                        #expect(runs >= score && runs <= tight, "\(text) on \(lines[i]): runs \(runs), score \(score)")
                        #expect(runs == (0..<bounds.storage.setEnds.count).reduce(0) { $0 + setBounds[$1] },
                                "\(text) on \(lines[i])")
                    }
                }
            }
        }
        #expect(bounded > 1_000)
        #expect(tightened > 10, "\(tightened) of \(bounded) bounds tightened")
        if !fielded { #expect(rejectedByEdges > 1_000) }
    }

    /// An exact term stands as one run: `'.json` in a path is bounded at its
    /// score (128), where the masks credit its letters with the path's word
    /// starts after a `/`.
    @Test func anExactTermIsBoundedByItsRun() throws {
        let paths = ["/usr/share/node/package.json", "/srv/opt/nix/settings.json"]
        let index = SearchIndex(texts: paths)
        let prepared = PreparedQuery(SearchQuery(text: "'.json", mode: .fuzzy, order: .score))
        let bounds = try #require(prepared.extendedBounds)
        let query = try #require(prepared.extended)
        let setBounds = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        defer { setBounds.deallocate() }
        index.withTable { table in
            for i in paths.indices {
                let score = Scanner(table: table, query: prepared).score(i)
                let loose = bounds.bound(table, i, masks: table.masks[i], query: query, fields: nil,
                                         setBounds: setBounds) ?? 0
                let tight = bounds.tightened(loose, masks: table.masks[i], wordPairs: table.wordPairsOf(i),
                                             setBounds: setBounds, known: nil, id: i)
                let runs = bounds.runsTightened(tight, masks: table.masks[i], wordPairs: table.wordPairsOf(i),
                                                setBounds: setBounds, known: nil, id: i)
                #expect(score == 128, "\(paths[i])")
                #expect(tight > 128, "\(paths[i])")
                #expect(runs == 128 && setBounds[0] == 128, "\(paths[i])")
            }
        }
    }

    /// A ranked scan scores ASCII texts from the bounds' flat records
    /// (`asciiScore`): the same score and matched spans as the query's own
    /// terms give (`FzfQuery.score`), for every operator, scheme and
    /// direction, also when sets are known from a previous query.
    @Test(arguments: [5 as UInt64, 6, 7])
    func flatRecordsScoreAsTheQueryDoes(seed: UInt64) {
        let texts = FzfCorpus.make(count: 500, seed: seed)
        let index = SearchIndex(texts: texts)
        var rng = SplitMix64(seed: seed)
        var compared = 0
        for q in 0..<200 {
            let text = FzfCorpus.extendedQuery(from: texts, rng: &rng)
            let scheme = SearchScheme.allCases[q % SearchScheme.allCases.count]
            let query = FzfQuery(text, fuzzy: q % 5 != 0)
            guard !query.isEmpty else { continue }
            let known = query.sets.indices.map { _ in rng.next() % 3 == 0 }
            guard let bounds = FzfQueryBounds(query, knownSets: known) else { continue }
            let table = FzfBonusTable.of(scheme)
            let forward = q % 2 == 0
            let ws = FuzzyWorkspace()
            index.withTable { t in
                for i in 0..<t.count where t.isASCII(i) {
                    var expectedSpans = FzfOffsets(), spans = FzfOffsets()
                    let expected = query.score(t, i, scheme: table, forward: forward, workspace: ws,
                                               offsets: &expectedSpans)
                    let score = bounds.asciiScore(t, i, scheme: table, forward: forward, workspace: ws, offsets: &spans)
                    #expect(score == expected, "\(text) on \(texts[i])")
                    // A text no set order matches has no spans to compare
                    // (sets are scored cheapest first, and stop at the
                    // first that fails).
                    if expected != nil {
                        #expect(spans.minBegin == expectedSpans.minBegin && spans.minEnd == expectedSpans.minEnd
                                && spans.maxEnd == expectedSpans.maxEnd && spans.valid == expectedSpans.valid,
                                "\(text) on \(texts[i])")
                    }
                    if expected != nil { compared += 1 }
                }
            }
        }
        #expect(compared > 1_000)
    }

    /// `FzfAlgo.runBound` is never below fzf's score of a term it bounds,
    /// in every scheme, on corpus lines and on texts built to hold the
    /// term's chars in runs, apart, at boundaries and repeated; and it is
    /// the score itself when the best alignment is one run at a boundary.
    @Test func runBoundsHoldAndAreExactOnARunAtABoundary() {
        var rng = SplitMix64(seed: 11)
        var texts = FzfCorpus.make(count: 400, seed: 11)
        let pieces = ["s", "sw", "swift", "src", "/", ".", "_", " ", "-", "S", "W", "iF", "t", "x", "1", "ab", "Ab", "b"]
        for _ in 0..<600 {
            texts.append((0..<(2 + Int(rng.next() % 10))).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined())
        }
        texts += ["src/view/grid_render12.swift", "Sources/swift/x.swift", "a/b/swift_s", "s-w-i-f-t", "sswwiiffttswift"]
        // Long gaps, which the bound charges by their length (and a score
        // the gap brings to 0 restarts).
        texts += ["s" + String(repeating: "x", count: 40) + "wift", "sw" + String(repeating: "-", count: 25) + "ift",
                  "a_b" + String(repeating: "z", count: 60) + "ab", "/s" + String(repeating: "q", count: 30) + "/swift",
                  "src/__init__.py", "lib/python3/init_x.py", "init" + String(repeating: "_", count: 12) + ".py"]
        let index = SearchIndex(texts: texts)
        var queries = ["sw", "swift", "swif", "src", "ab", "st", "ft", "vw", "gr", "iF", "s1", "/s", "t.s", "init.py",
                       "sxw", "xw", "it.p"]
        for _ in 0..<150 { queries.append(FzfCorpus.query(from: texts, rng: &rng)) }
        let ws = FuzzyWorkspace()
        var bounded = 0
        for scheme in SearchScheme.allCases {
            let table = FzfBonusTable.of(scheme)
            for text in queries {
                let query = FzfQuery(text, fuzzy: true)
                guard query.sets.count == 1, let term = query.sets.first?.first, term.pattern.isASCII,
                      term.bytes.count >= 2 else { continue }
                index.withTable { t in
                    for i in 0..<t.count where t.isASCII(i) {
                        let units = term.pattern.caseSensitive ? t.original(i) : t.foldedText(i)
                        guard FzfTerm.possible(.fuzzy, units, term.bytes.withUnsafeBufferPointer { $0 }) else { continue }
                        let bonus = FzfTerm.asciiBonuses(t, i, scheme: table, workspace: ws)
                        let bound = term.bytes.withUnsafeBufferPointer {
                            FzfAlgo.runBound(text: units, bonus: bonus, pattern: $0)
                        }
                        // Bonuses computed where they are asked give the
                        // same bound as the text's row of bonuses.
                        let asked = term.bytes.withUnsafeBufferPointer {
                            FzfAlgo.runBound(t, i, scheme: table, units: units, pattern: $0)
                        }
                        #expect(asked == bound, "\(text) \(scheme) on \(texts[i])")
                        guard let score = term.match(t, i, scheme: table, workspace: ws)?.score else { continue }
                        #expect(bound >= score, "\(text) \(scheme) on \(texts[i]): bound \(bound) < score \(score)")
                        bounded += 1
                    }
                }
            }
        }
        #expect(bounded > 5_000)
        // One run after `.`: the bound is the score (16 × 5 + 2 × 8 + 4 × 8).
        let paths = SearchIndex(texts: ["src/view/grid_render12.swift"])
        let term = FzfQuery("swift", fuzzy: true).sets[0][0]
        paths.withTable { t in
            let bonus = FzfTerm.asciiBonuses(t, 0, scheme: FzfBonusTable.of(.default), workspace: ws)
            let bound = term.bytes.withUnsafeBufferPointer { FzfAlgo.runBound(text: t.foldedText(0), bonus: bonus, pattern: $0) }
            #expect(bound == 128)
            #expect(term.match(t, 0, scheme: FzfBonusTable.of(.default), workspace: ws)?.score == 128)
        }
        // A run, a gap of two chars, a run: the gap is charged its length,
        // so the bound is the score (16 × 7 + 2 × 8 + 3 × 8 − 4 + 3 × 8).
        let modules = SearchIndex(texts: ["usr/lib/foo/__init__.py"])
        let initTerm = FzfQuery("init.py", fuzzy: true).sets[0][0]
        modules.withTable { t in
            let bonus = FzfTerm.asciiBonuses(t, 0, scheme: FzfBonusTable.of(.path), workspace: ws)
            let bound = initTerm.bytes.withUnsafeBufferPointer {
                FzfAlgo.runBound(text: t.foldedText(0), bonus: bonus, pattern: $0)
            }
            #expect(bound == 172)
            #expect(initTerm.match(t, 0, scheme: FzfBonusTable.of(.path), workspace: ws)?.score == 172)
        }
    }

    /// The single-needle bounds hold in every scheme too, on texts full of
    /// the chars whose bonus depends on it (`, : ; |` are delimiters by
    /// default and non-word chars under `path`).
    @Test func singleNeedleBoundsHoldInEveryScheme() {
        var texts = FzfCorpus.make(count: 500, seed: 8)
        texts += ["UTIL:json;view|list,main", "a;b", ";", "x,y:z|w", "|a", "b|", "a: b"]
        let index = SearchIndex(texts: texts)
        var rng = SplitMix64(seed: 8)
        var queries = [";", ",", ":", "|", "n;", ";v", "l,m", "a:"]
        for _ in 0..<200 { queries.append(FzfCorpus.query(from: texts, rng: &rng)) }
        var checked = 0
        for text in queries {
            for scheme in SearchScheme.allCases {
                let prepared = PreparedQuery(SearchQuery(text: text, scheme: scheme))
                guard prepared.extended == nil, prepared.isASCII else { continue }
                index.withTable { table in
                    let scanner = Scanner(table: table, query: prepared)
                    prepared.bytes.withUnsafeBufferPointer { needle in prepared.pairBits.withUnsafeBufferPointer { pairs in
                        for i in 0..<table.count where table.isASCII(i) {
                            guard let score = scanner.score(i) else { continue }
                            let tight = FuzzyMatcher.maxScore(table, i, query: prepared, needle: needle)
                            let quick = table.masks[i].scoreBound(first: prepared.firstBucket, later: prepared.laterBuckets,
                                                                  pairs: pairs, length: prepared.scalars.count)
                            let run = table.masks[i].firstPairBound(first: prepared.firstBucket, later: prepared.laterBuckets,
                                                                    firstPair: prepared.firstPairKeys,
                                                                    wordPairs: table.wordPairsOf(i), pairs: pairs,
                                                                    length: prepared.scalars.count)
                            #expect(run >= score, "\(text) \(scheme) on \(texts[i])")
                            #expect(tight >= score, "\(text) \(scheme) on \(texts[i])")
                            #expect(quick >= score, "\(text) \(scheme) on \(texts[i])")
                            checked += 1
                        }
                    } }
                }
            }
        }
        #expect(checked > 5_000)
    }

    @Test(arguments: [(5 as UInt64, false), (6, true)])
    func windowsAreTheFirstRowsOfTheFullRanking(seed: UInt64, fielded: Bool) {
        // Above the size from which a scan probes for a floor and splits.
        let texts = Self.texts(count: SearchIndex.floorProbeMinimum + 5_000, seed: seed, fielded: fielded)
        let lines = texts.prefix(2_000).map { ($0 ?? "").replacingOccurrences(of: "\u{0B}", with: " ") }
        let index = SearchIndex(texts: texts)
        var rng = SplitMix64(seed: seed)
        for q in 0..<12 {
            let text = FzfCorpus.extendedQuery(from: Array(lines), rng: &rng)
            let tiebreak: [SearchTiebreak]? = q % 4 == 3 ? [.begin, .length] : nil
            let query = SearchQuery(text: text, mode: .fuzzy, order: .score, tiebreak: tiebreak, fielded: fielded)
            let full = index.evaluate(query, among: nil)
            for k in [1, 50] {
                let window = index.evaluate(query, narrowing: nil, among: nil, rankOnly: k)
                #expect(window.hits == Array(full.hits.prefix(k)), "\(text) k=\(k)")
                #expect(window.matches.count == full.matches.count, "\(text)")
            }
        }
    }

    /// Typing a multi-term query key by key narrows each keystroke from the
    /// previous one's matches; every window stays exact.
    @Test func typedMultiTermQueriesStayExact() {
        let texts = Self.texts(count: SearchIndex.floorProbeMinimum + 5_000, seed: 7, fielded: false)
        let index = SearchIndex(texts: texts)
        for typed in ["src s", "'view !test", "^lib | ^app", "core json$", "main !^app", "src swift$", "core matcher !test"] {
            var last: SearchMatchSet?
            for n in 1...typed.count {
                let query = SearchQuery(text: String(typed.prefix(n)), mode: .fuzzy, order: .score)
                let result = index.evaluate(query, narrowing: last, among: nil, rankOnly: 50)
                let full = index.evaluate(query, among: nil)
                #expect(result.hits == Array(full.hits.prefix(50)), "\(query.text)")
                #expect(result.matches.count == full.matches.count, "\(query.text)")
                // Both scans skip texts by their byte sets (a key after an
                // operator alone scans the list): at such keys and the last
                // one, the match count is also checked text by text.
                let parsed = FzfQuery(query.text, fuzzy: true)
                if n == typed.count || (n > 1 && FzfQuery(String(typed.prefix(n - 1)), fuzzy: true).isEmpty) {
                    let ws = FuzzyWorkspace()
                    let scheme = FzfBonusTable.of(.default)
                    let counted = index.withTable { table in
                        (0..<table.count).filter { parsed.score(table, $0, scheme: scheme, workspace: ws) != nil }.count
                    }
                    #expect(full.matches.count == counted, "\(query.text)")
                }
                last = result.matches
            }
        }
    }

    /// A query typed term after term resumes its last fuzzy term where the
    /// previous key's ended (`FzfQuery.lastTermResumes`), and only then.
    @Test func theLastTermResumesOnlyWhereItExtendsTheLastOne() {
        func resumes(_ new: String, after old: String) -> Int? {
            FzfQuery(new, fuzzy: true).lastTermResumes(after: FzfQuery(old, fuzzy: true))
        }
        #expect(resumes("src swift", after: "src swif") == 4)
        #expect(resumes("src !test sw", after: "src !test s") == 1)
        #expect(resumes("src swift$", after: "src swift") == nil)
        #expect(resumes("src swift", after: "sr swif") == nil)
        #expect(resumes("src sWift", after: "src sW") == nil)
        #expect(resumes("src swift", after: "src wif") == nil)
        #expect(resumes("src swift", after: "src") == nil)
    }

    /// A match set scanned term by term (not narrowed: the needle form does
    /// not apply) records no end for its last term, so a key narrowing from
    /// it matches that term from the start: every window and match count
    /// equals a scan of every text.
    @Test func aChainFromASetScannedTermByTermStaysExact() {
        let texts = Self.texts(count: SearchIndex.floorProbeMinimum + 5_000, seed: 11, fielded: false)
        let index = SearchIndex(texts: texts)
        for (first, next) in [("src sw", "src swi"), ("core ma", "core mat"), ("app j", "app js")] {
            let scratch = index.evaluate(SearchQuery(text: first, mode: .fuzzy, order: .score), narrowing: nil,
                                         among: nil, rankOnly: 50)
            let query = SearchQuery(text: next, mode: .fuzzy, order: .score)
            let narrowed = index.evaluate(query, narrowing: scratch.matches, among: nil, rankOnly: 50)
            let full = index.evaluate(query, among: nil)
            #expect(narrowed.hits == Array(full.hits.prefix(50)), "\(next)")
            #expect(narrowed.matches.count == full.matches.count, "\(next)")
            // And the key after it, from the needle form's ends.
            let last = SearchQuery(text: next + "x", mode: .fuzzy, order: .score)
            let after = index.evaluate(last, narrowing: narrowed.matches, among: nil, rankOnly: 50)
            let fullAfter = index.evaluate(last, among: nil)
            #expect(after.hits == Array(fullAfter.hits.prefix(50)), "\(last.text)")
            #expect(after.matches.count == fullAfter.matches.count, "\(last.text)")
        }
    }
}
