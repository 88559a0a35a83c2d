import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// The bound the bonus masks give (`BonusMasks.scoreBound`) lets ranking
/// skip texts: it must never be below a text's real score, or a text that
/// belongs in the top k would be skipped.
@Suite struct BonusMasksTests {
    /// Texts with every kind of position bonus: starts, spaces, `/ , : ; |`,
    /// other punctuation, camelCase humps, digits, both cases.
    static func text(_ rng: inout SplitMix64) -> String {
        let pieces = ["a", "b", "r", "g", "A", "B", "R", "G", "x", " ", "/", "_", "-", ".", ":", "|", "1", "9",
                      "ab", "Gr", "gR", "src", "View", "view", "x2"]
        return (0..<Int.random(in: 0...10, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "a" }.joined()
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func boundIsAtLeastTheScore(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let texts = (0..<400).map { _ in Self.text(&rng) }
        let index = SearchIndex(texts: texts)
        let letters: [Character] = ["a", "b", "r", "g", "G", "R", "x", "/", "_", "1", " ", "v"]
        var scored = 0
        for _ in 0..<300 {
            let query = String((0..<Int.random(in: 1...4, using: &rng)).map { _ in letters.randomElement(using: &rng) ?? "a" })
            let q = SearchQuery(text: query, mode: .fuzzy, order: .score)
            let prepared = PreparedQuery(q)
            // Several terms (a space) are scored term by term, without bounds.
            guard prepared.extended == nil else { continue }
            let bytes = prepared.bytes
            var first: UInt32 = 0, later: UInt32 = 0
            for (k, b) in bytes.enumerated() {
                if k == 0 { first = BonusMasks.bucket[Int(b)] } else { later |= BonusMasks.bucket[Int(b)] }
            }
            let keys = PairKeys(bytes)
            for i in texts.indices {
                guard let score = index.score(of: i, for: q) else { continue }
                scored += 1
                let masks = index.bonusMasks[i], wordPairs = index.wordPairs[i]
                let m = prepared.scalars.count
                let (quick, bound) = BonusMasks.pairBits(bytes).withUnsafeBufferPointer {
                    (masks.scoreBound(first: first, later: later, pairs: $0, length: m),
                     masks.firstPairBound(first: first, later: later, firstPair: keys, wordPairs: wordPairs,
                                          pairs: $0, length: m))
                }
                #expect(quick >= score, "\"\(texts[i])\" for \"\(query)\": bound \(quick) < score \(score)")
                #expect(bound >= score, "\"\(texts[i])\" for \"\(query)\": first pair's bound \(bound) < score \(score)")
                #expect(bound <= quick)
                // What the scan knows beyond the masks lowers the bound, never
                // below the score: the needle's last pair never stands
                // together in the text (the Bloom filter may hold it).
                let folded = Array(texts[i].lowercased().utf8)
                let lastPair = Array(bytes.suffix(2))
                let lastPairStands = bytes.count < 2 || zip(folded, folded.dropFirst()).contains {
                    [$0.0, $0.1] == lastPair
                }
                if !lastPairStands {
                    let lowered = BonusMasks.pairBits(bytes).withUnsafeBufferPointer {
                        masks.firstPairBound(first: first, later: later, firstPair: keys, wordPairs: wordPairs,
                                             pairs: $0, length: m, lastPairSplit: true)
                    }
                    #expect(lowered >= score, "\"\(texts[i])\" for \"\(query)\": split bound \(lowered) < score \(score)")
                    #expect(lowered <= bound)
                }
                let tight = index.withTable { table in
                    bytes.withUnsafeBufferPointer { FuzzyMatcher.maxScore(table, i, query: prepared, needle: $0) }
                }
                // Without the pairs it is also at least the bound that reads
                // the text (which does not count gaps).
                let loose = [UInt32]().withUnsafeBufferPointer {
                    masks.scoreBound(first: first, later: later, pairs: $0, length: m)
                }
                #expect(loose >= tight, "\"\(texts[i])\" for \"\(query)\": bound \(loose) < tight bound \(tight)")
            }
        }
        #expect(scored > 1000)
    }

    /// Each text's masks hold exactly the buckets of its bytes at each
    /// bonus (the best any scheme gives there, `CharClass.boundBonus`) and
    /// the Bloom bits of its adjacent pairs; non-ASCII texts bound nothing.
    @Test(arguments: [4, 5] as [UInt64])
    func masksAreEachBytesBestBonus(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        Self.expectEachBytesBestBonus((0..<600).map { k in k % 50 == 0 ? "É" + Self.text(&rng) : Self.text(&rng) })
    }

    /// The same, for texts that repeat the one before them in part, as
    /// sorted paths do (a text's summary resumes after the prefix it shares
    /// with the one before): cut anywhere, a letter's case changed there or
    /// after (a camelCase hump where the copy stops), a text that is a
    /// prefix of the one before or equal to it, long texts (some longer than
    /// the states kept), non-ASCII texts between.
    @Test(arguments: [6, 7, 8] as [UInt64])
    func masksResumedAfterASharedPrefixAreEachBytesBestBonus(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var texts: [String] = []
        var last: [UInt8] = []
        for k in 0..<1500 {
            var bytes: [UInt8]
            switch k % 40 == 3 ? 3 : Int.random(in: 0..<8, using: &rng) {
            case 0: bytes = Array(Self.text(&rng).utf8)
            case 1: bytes = Array(last.prefix(Int.random(in: 0...last.count, using: &rng)))
            case 2:
                // Case changed at a random byte: the units repeat, the class
                // bytes may not.
                bytes = last
                if !bytes.isEmpty {
                    let j = Int.random(in: bytes.indices, using: &rng)
                    if bytes[j] &- 0x41 < 26 || bytes[j] &- 0x61 < 26 { bytes[j] ^= 0x20 }
                }
            case 3:
                // Now and then longer than the states kept.
                let pieces = k % 40 == 3 ? 900 : 30
                bytes = last.count > 6000 ? [] : last
                bytes += Array((0..<pieces).map { _ in Self.text(&rng) }.joined().utf8)
            default:
                bytes = Array(last.prefix(Int.random(in: 0...last.count, using: &rng))) + Array(Self.text(&rng).utf8)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            texts.append(k % 97 == 0 ? "É" + text : text)
            last = bytes
        }
        #expect(texts.map(\.utf8.count).max() ?? 0 > BonusMasks.PrefixStates.keptBytes,
                "long texts grow the states kept, up to their bound")
        Self.expectEachBytesBestBonus(texts)
    }

    /// `ByteScan.sharedPrefix`, which finds where a text stops repeating the
    /// one before, equals a byte-by-byte comparison for a first difference
    /// at every position of a word and past the limit, at every alignment.
    @Test func sharedPrefixIsTheFirstDifference() {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<400 {
            let n = Int.random(in: 0...40, using: &rng)
            let a = (0..<n + 8).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var b = a
            if n > 0 && Bool.random(using: &rng) { b[Int.random(in: 0..<n, using: &rng)] ^= 1 << UInt8.random(in: 0...7, using: &rng) }
            let shift = Int.random(in: 0...7, using: &rng)
            let limit = max(0, n - shift)
            let expected = zip(a[shift..<shift + limit], b[shift..<shift + limit]).prefix { $0 == $1 }.count
            a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in
                guard let p = x.baseAddress, let q = y.baseAddress else { return }
                #expect(ByteScan.sharedPrefix(p + shift, q + shift, limit) == expected)
            } }
        }
    }

    /// Expects every text's masks and word pairs in an index of `texts` to
    /// be those computed byte by byte.
    static func expectEachBytesBestBonus(_ texts: [String]) {
        let index = SearchIndex(texts: texts)
        index.withTable { table in
            for i in texts.indices {
                guard table.isASCII(i) else {
                    #expect(index.bonusMasks[i] == .unknown, "\"\(texts[i])\"")
                    #expect(index.wordPairs[i] == BonusMasks.unknownWordPairs, "\"\(texts[i])\"")
                    continue
                }
                let units = Array(table.foldedText(i)), classes = Array(table.classBytes(i))
                var expected = BonusMasks(white: 0, boundary: 0, any: 0, pairs: 0)
                var expectedWordPairs: UInt64 = 0
                var previous = CharClass.white
                var previousBonus = 0
                for (j, unit) in units.enumerated() {
                    let current = CharClass.of(byte: classes[j])
                    let bonus = CharClass.boundBonus(prev: previous, cur: current, byte: classes[j])
                    // A pair keyed by its first byte's bonus, when that byte
                    // is a letter or digit with a bonus.
                    if j > 0, previous > CharClass.delimiter, previousBonus > 0 {
                        expectedWordPairs |= PairKeys.key(units[j - 1], unit, bonus: previousBonus)
                    }
                    previous = current
                    previousBonus = bonus
                    let bit = BonusMasks.bucket[Int(unit)]
                    if bonus > 0 { expected.any |= bit }
                    if bonus >= FuzzyScoring.boundary { expected.boundary |= bit }
                    if bonus >= FuzzyScoring.boundaryWhite { expected.white |= bit }
                    if j > 0 { expected.pairs |= BonusMasks.pairBit(units[j - 1], unit) }
                }
                #expect(index.bonusMasks[i] == expected, "\"\(texts[i])\"")
                #expect(index.wordPairs[i] == expectedWordPairs, "\"\(texts[i])\"")
            }
        }
    }

    /// A word start of the query's first letter is seen; its absence too.
    @Test func masksSeeWordStarts() {
        let index = SearchIndex(texts: ["src/graph_view", "xgrx", "Éé"])
        let g = BonusMasks.bucket[Int(UInt8(ascii: "g"))], v = BonusMasks.bucket[Int(UInt8(ascii: "v"))]
        #expect(index.bonusMasks[0].bonus(g) == FuzzyScoring.boundaryDelimiter)
        #expect(index.bonusMasks[0].bonus(v) == FuzzyScoring.boundaryDelimiter)
        #expect(index.bonusMasks[0].bonus(BonusMasks.bucket[Int(UInt8(ascii: "s"))]) == FuzzyScoring.boundaryWhite)
        #expect(index.bonusMasks[1].bonus(g) == 0)
        #expect(index.bonusMasks[2] == .unknown)
    }

    /// An `s` at the start earns 10, but `sw` stands together only in
    /// `.swift`, where the `s` earns 8: the bound is the score, 56, not the
    /// 62 of the start's bonus carried onto the `w`; `swi` likewise.
    @Test func aRunIsBoundedByWhereItsFirstPairStands() {
        let index = SearchIndex(texts: ["src/view/grid_render1234.swift", "sw/x"])
        for (query, score) in [("sw", 56), ("swi", 80), ("swift", 128)] {
            let prepared = PreparedQuery(SearchQuery(text: query, mode: .fuzzy, order: .score))
            let bound = prepared.pairBits.withUnsafeBufferPointer {
                index.bonusMasks[0].firstPairBound(first: prepared.firstBucket, later: prepared.laterBuckets,
                                                   firstPair: prepared.firstPairKeys, wordPairs: index.wordPairs[0],
                                                   pairs: $0,
                                                   length: prepared.scalars.count)
            }
            #expect(index.score(of: 0, for: SearchQuery(text: query, mode: .fuzzy, order: .score)) == score, "\(query)")
            #expect(bound == score, "\(query)")
        }
        // Where the pair does stand at the start, the start's bonus carries.
        let sw = PreparedQuery(SearchQuery(text: "sw", mode: .fuzzy, order: .score))
        let bound = sw.pairBits.withUnsafeBufferPointer {
            index.bonusMasks[1].firstPairBound(first: sw.firstBucket, later: sw.laterBuckets,
                                               firstPair: sw.firstPairKeys, wordPairs: index.wordPairs[1],
                                               pairs: $0, length: 2)
        }
        #expect(bound == 62)
        #expect(index.score(of: 1, for: SearchQuery(text: "sw", mode: .fuzzy, order: .score)) == 62)
    }
}

/// Only fuzzy ranking reads the masks: a source searched by substring keeps
/// an index without them (its splices copy less), and the first fuzzy query
/// builds them; what is shown is what a source that always had them shows.
@Suite struct BonusMasksOnDemandTests {
    static func fuzzy(_ text: String) -> SearchSettings {
        SearchSettings(query: SearchQuery(text: text, mode: .fuzzy, order: .score, limit: 20), scope: ["list"])
    }

    @Test func substringIndexesGoWithoutAndFuzzyBuildsThem() throws {
        var source = DataSource(name: "picker")
        _ = try source.apply(IndexPrebuildTests.people(3000, prefix: "a"))
        _ = source.setSearch(IndexPrebuildTests.typed("person 12"))
        let substring = try #require(source.searchCache.index)
        #expect(!substring.tracksBonusMasks && substring.bonusMasks.isEmpty)
        // An edit splices the index; it still goes without.
        _ = try source.edit([.setContent([ContentUpdate(id: "a5", content: nil, text: "person 12 again")], style: .reload)])
        _ = source.setSearch(IndexPrebuildTests.typed("person 1"))
        #expect(source.searchCache.index?.tracksBonusMasks == false)
        // The first fuzzy query builds them, for the index as edited.
        _ = source.setSearch(Self.fuzzy("ps12"))
        let fuzzy = try #require(source.searchCache.index)
        #expect(fuzzy.tracksBonusMasks)
        #expect(fuzzy.bonusMasks == SearchIndex(snapshot: source.snapshot).bonusMasks)
        #expect(fuzzy.wordPairs == SearchIndex(snapshot: source.snapshot).wordPairs)
        #expect(source.visible == (try IndexPrebuildTests.fresh(source.snapshot, Self.fuzzy("ps12"))))
        // Later splices keep them.
        _ = try source.edit([.setContent([ContentUpdate(id: "a7", content: nil, text: "pers 12")], style: .reload)])
        _ = source.setSearch(Self.fuzzy("ps1"))
        let edited = try #require(source.searchCache.index)
        #expect(edited.tracksBonusMasks && edited.bonusMasks == SearchIndex(snapshot: source.snapshot).bonusMasks)
        #expect(edited.wordPairs == SearchIndex(snapshot: source.snapshot).wordPairs)
        #expect(source.visible == (try IndexPrebuildTests.fresh(source.snapshot, Self.fuzzy("ps1"))))
    }
}
