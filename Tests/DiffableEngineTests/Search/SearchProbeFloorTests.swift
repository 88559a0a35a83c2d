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
        let k = 150
        for word in ["src/", "readme", "init.py", "libsw", "main", "conf"] {
            var last: SearchMatchSet?
            for n in 1...word.count {
                let query = SearchQuery(text: String(word.prefix(n)), mode: .fuzzy, order: .score)
                let result = index.evaluate(query, narrowing: last, among: nil, rankOnly: k)
                let full = index.evaluate(query, among: nil)
                #expect(result.hits == Array(full.hits.prefix(k)), "\(query.text)")
                #expect(result.matches.count == full.matches.count, "\(query.text)")
                last = result.matches
            }
        }
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
}
