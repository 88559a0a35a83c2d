import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// The runs bounds (`BonusMasks.oneRunBound`, `gappedBound`) let a ranked
/// scan reject a text without reading it: they must never be below the
/// text's score (in any scheme, either case), or a text that belongs in the
/// window would be skipped.
@Suite struct BonusMasksRunsTests {
    /// The bounds of `query` on text `i` of `index` (its alignments as one
    /// run, those with a gap), as the scan computes them.
    static func bounds(_ index: SearchIndex, _ i: Int, _ query: SearchQuery,
                       missingPairs: UInt32? = nil) -> (run: Int, gapped: Int)? {
        let prepared = PreparedQuery(query)
        // Built here, not taken from the query: the scan skips the bound for
        // two chars, but it holds for them too.
        let chars = BonusMasks.runChars(units: prepared.unitBytes, folded: prepared.bytes,
                                        caseSensitive: prepared.caseSensitive)
        guard prepared.extended == nil, (2...BonusMasks.runsMaximumLength).contains(chars.count) else { return nil }
        let masks = index.bonusMasks[i]
        var missing: UInt32 = 0
        for (k, bit) in prepared.pairBits.enumerated() where masks.pairs & bit == 0 { missing |= 1 << UInt32(k + 1) }
        let known = missingPairs ?? missing
        return chars.withUnsafeBufferPointer {
            (known == 0 ? masks.oneRunBound($0, wordPairs: index.wordPairs[i]) : Int.min / 2,
             masks.gappedBound($0, wordPairs: index.wordPairs[i], missingPairs: known))
        }
    }

    /// The larger of `bounds`: what bounds the text's score.
    static func bound(_ index: SearchIndex, _ i: Int, _ query: SearchQuery, missingPairs: UInt32? = nil) -> Int? {
        bounds(index, i, query, missingPairs: missingPairs).map { max($0.run, $0.gapped) }
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func boundIsAtLeastTheScore(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let texts = (0..<300).map { _ in BonusMasksTests.text(&rng) }
        let index = SearchIndex(texts: texts)
        // Lowercase (either case in the text), capitals (case-sensitive),
        // digits, delimiters, other punctuation, spaces.
        let chars: [Character] = ["a", "b", "r", "g", "G", "R", "x", "/", "_", ".", "1", " ", "v", "w", ":"]
        let schemes: [SearchScheme] = [.default, .path, .history]
        var scored = 0, exact = 0
        for _ in 0..<240 {
            let text = String((0..<Int.random(in: 2...5, using: &rng)).map { _ in chars.randomElement(using: &rng) ?? "a" })
            let scheme = schemes.randomElement(using: &rng) ?? .default
            let query = SearchQuery(text: text, mode: .fuzzy, order: .score, scheme: scheme)
            guard PreparedQuery(query).extended == nil else { continue }
            for i in texts.indices {
                guard let score = index.score(of: i, for: query), let bound = Self.bound(index, i, query) else {
                    continue
                }
                scored += 1
                if bound == score { exact += 1 }
                #expect(bound >= score, "\"\(texts[i])\" for \"\(text)\" (\(scheme)): bound \(bound) < score \(score)")
                // A text that does not hold the needle as one run is bounded
                // by its gapped alignments (the scan rejects it on those).
                let prepared = PreparedQuery(query)
                let compared = Array((prepared.caseSensitive ? texts[i] : texts[i].lowercased()).utf8)
                let holdsRun = compared.count >= prepared.unitBytes.count && (0...(compared.count - prepared.unitBytes.count))
                    .contains { Array(compared[$0..<($0 + prepared.unitBytes.count)]) == prepared.unitBytes }
                if !holdsRun, let gapped = Self.bounds(index, i, query)?.gapped {
                    #expect(gapped >= score, "\"\(texts[i])\" for \"\(text)\" (\(scheme)): gapped \(gapped) < score \(score)")
                }
            }
        }
        #expect(scored > 500)
        // It is tight often enough to matter.
        #expect(exact * 10 > scored, "exact on \(exact) of \(scored)")
    }

    /// Every `.json` path scores 128: the `.` earns 8 anywhere, the `j` after
    /// it 8, `son` carry it. The bound knows it although these paths have
    /// `s`, `o` and `n` at word starts after a `/` (9), which the masks'
    /// plain bound credits to every later char. (A text that starts with
    /// `s` would not do: its `s` earns 10, which a gap after `.j` could
    /// reach for all the masks know.)
    @Test func aRunAfterADotIsBoundedByWhatItEarnsThere() {
        let paths = ["usr/share/node/package.json", "/srv/opt/nix/settings.json", "/src/os/net/config.json"]
        let index = SearchIndex(texts: paths)
        let query = SearchQuery(text: ".json", mode: .fuzzy, order: .score)
        let prepared = PreparedQuery(query)
        for i in paths.indices {
            #expect(index.score(of: i, for: query) == 128)
            #expect(Self.bound(index, i, query) == 128, "\(paths[i])")
            let plain = prepared.pairBits.withUnsafeBufferPointer {
                index.bonusMasks[i].scoreBound(first: prepared.firstBucket, later: prepared.laterBuckets,
                                               pairs: $0, length: 5)
            }
            #expect(plain > 128, "\(paths[i])")
        }
    }

    /// `swift` in a path that starts with an `s`: the run stands only after
    /// the `.` (the word pairs), so the bound is the score.
    @Test func aRunStartsWhereItsFirstPairStands() {
        let index = SearchIndex(texts: ["src/view/grid_render1234.swift"])
        for (text, score) in [("sw", 56), ("swi", 80), ("swift", 128)] {
            let query = SearchQuery(text: text, mode: .fuzzy, order: .score)
            #expect(index.score(of: 0, for: query) == score)
            #expect(Self.bound(index, 0, query) == score, "\(text)")
        }
    }

    /// A run the text cannot hold (a pair never stands together) leaves
    /// only gapped alignments, each at least `-gapStart` below.
    @Test func aTextWithoutTheRunIsBoundedByItsGaps() {
        let index = SearchIndex(texts: ["ab_x_c"])
        let query = SearchQuery(text: "abc", mode: .fuzzy, order: .score)
        let score = index.score(of: 0, for: query) ?? 0
        let withRun = Self.bound(index, 0, query, missingPairs: 0) ?? 0
        // `bx`: chars 1 and 2 never stand together.
        let withoutRun = Self.bound(index, 0, query, missingPairs: 1 << 2) ?? 0
        #expect(withoutRun >= score)
        #expect(withoutRun < withRun)
    }

    /// Each pair's cap is the best bonus any scheme gives the second char
    /// after the first, in either case unless the needle is case-sensitive.
    @Test func inRunCapsFollowThePairsClasses() {
        func cap(_ a: Character, _ b: Character, _ caseSensitive: Bool = false) -> Int {
            BonusMasks.inRunCap(after: a.asciiValue ?? 0, b.asciiValue ?? 0, caseSensitive: caseSensitive)
        }
        #expect(cap(".", "j") == FuzzyScoring.boundary)
        #expect(cap("/", "s") == FuzzyScoring.boundaryDelimiter)
        #expect(cap(" ", "s") == FuzzyScoring.boundaryWhite)
        #expect(cap("a", "b") == FuzzyScoring.camel123)   // `aB`: a hump
        #expect(cap("a", "b", true) == 0)
        #expect(cap("a", "B", true) == FuzzyScoring.camel123)
        #expect(cap("a", "1") == FuzzyScoring.camel123)
        #expect(cap("1", "2") == 0)
        #expect(cap("a", ".") == FuzzyScoring.nonWord)
    }
}
