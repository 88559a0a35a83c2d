import Foundation
import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// Progressive search (`setSearchPartially`, `adoptRefinement`): a partial
/// answer shows only real matches, in the exact answer's order; a frontend
/// that applies the partial window steps and then the refinement's holds
/// exactly the window a plain search shows; the next keystroke may start
/// from the partial answer (the refinement dropped) and still ends exact.
@Suite struct PartialSearchTests {
    /// Path-like texts of varied lengths sharing prefixes; some items have
    /// no text.
    static func snapshot(count: Int, sections: Int, rng: inout SplitMix64) -> Snapshot {
        let texts = SearchProbeFloorTests.paths(count: count, rng: &rng)
        var out: [Section] = []
        var next = 0
        for s in 0..<sections {
            let n = s == sections - 1 ? count - next : count / sections
            let items = (next..<next + n).map { i in Item(id: "i\(i)", text: texts[i]) }
            next += n
            out.append(Section(id: "s\(s)", header: s == 0 ? nil : Content(bytes: Array("\"h\(s)\"".utf8)), items: items))
        }
        return Snapshot(sections: out)
    }

    /// The rows `start ..< start + count` of the flat visible list.
    static func window(_ source: DataSource) -> [WindowRow] {
        guard let state = source.window else { return [] }
        let flat = WindowPropertyTests.flatten(source)
        let start = min(state.start, flat.count)
        return Array(flat[start..<min(flat.count, start + state.viewport.count)])
    }

    /// The ids of the visible items of section `s`, in order.
    /// The sample `memo` gets in the background for section 0, waited for
    /// up to a minute (a hang detector, not a timing).
    static func preparedSample(_ memo: PartialSampleMemo) throws -> PartialSampleMemo.Sample {
        var waited = 0
        while memo.sample(section: 0) == nil && waited < 60_000 {
            usleep(1_000)
            waited += 1
        }
        return try #require(memo.sample(section: 0), "no sample prepared within a minute")
    }

    static func ids(_ source: DataSource, section s: Int) -> [String] {
        source.visible.sections[s].items.map(\.id)
    }

    @Test(arguments: 0..<4)
    func partialAnswersRefineToTheExactWindow(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &+ 900)
        // Above and below the sample size: a small list is its own sample.
        let count = seed == 3 ? 3_000 : DataSource.partialSampleTexts + 6_000 + seed * 1_000
        let sectionCount = seed % 2 == 0 ? 1 : 2
        let snapshot = Self.snapshot(count: count, sections: sectionCount, rng: &rng)
        var source = DataSource(name: "p")
        _ = try source.apply(snapshot)
        var held: [WindowRow] = []
        if let u = source.setViewport(Viewport(start: Int.random(in: 0..<40, using: &rng),
                                                count: Int.random(in: 1..<30, using: &rng))) {
            held = try held.applyingWindowSteps(u.steps)
        }
        var partials = 0, refined = 0, dropped = 0
        for word in ["src/", "readme", "init.py", "libsw", "zq"] {
            for n in 1...word.count {
                let text = String(word.prefix(n))
                let settings = SearchSettings(query: SearchQuery(text: text, mode: .fuzzy, order: .score),
                                              scope: ["s0"])
                var exact = source
                _ = exact.setSearch(settings)
                let exactIDs = Self.ids(exact, section: 0)
                let label = "seed \(seed) \"\(text)\""
                guard Int.random(in: 0..<4, using: &rng) > 0 else {
                    // An exact keystroke (no `progressive`) from wherever the source is.
                    let version = source.version
                    let answer = source.setSearch(settings)
                    let u = try #require(answer.window)
                    held = try held.applyingWindowSteps(u.steps)
                    #expect(held == Self.window(source), "\(label): exact window")
                    #expect(Self.ids(source, section: 0) == exactIDs, "\(label): exact rows")
                    #expect(!source.searchIsPartial)
                    #expect(source.version >= version)
                    continue
                }
                var partial = source
                #expect(partial.partialSearchApplies(to: settings))
                let version = partial.version
                let answer = partial.setSearchPartially(settings)
                let u = try #require(answer)
                partials += 1
                held = try held.applyingWindowSteps(try #require(u.window).steps)
                #expect(held == Self.window(partial), "\(label): partial window")
                #expect(partial.searchIsPartial)
                #expect(partial.version == version + (partial.visible == source.visible ? 0 : 1), "\(label): partial version")
                // Every row shown is a match, in the exact answer's order.
                let rank = Dictionary(uniqueKeysWithValues: exactIDs.enumerated().map { ($1, $0) })
                let shown = Self.ids(partial, section: 0)
                let places = shown.compactMap { rank[$0] }
                #expect(places.count == shown.count, "\(label): a partial row that does not match")
                #expect(places == places.sorted(), "\(label): partial rows out of the exact order")
                #expect((partial.searchMatchCount ?? 0) <= (exact.searchMatchCount ?? 0))
                if count <= DataSource.partialSampleTexts - DataSource.partialPreviousRows {
                    // A list smaller than the sample: the exact answer's rows the window can reach.
                    let reach = try #require(partial.viewport).start + 3 * (partial.viewport?.count ?? 0)
                    #expect(shown == Array(exactIDs.prefix(reach)), "\(label): a small list's partial rows")
                    #expect(partial.searchMatchCount == exact.searchMatchCount)
                }
                // Other sections are shown whole.
                for s in 1..<sectionCount {
                    #expect(Self.ids(partial, section: s) == Self.ids(exact, section: s))
                }
                if Int.random(in: 0..<3, using: &rng) == 0 {
                    // The next keystroke overtook the refinement.
                    source = partial
                    dropped += 1
                    continue
                }
                let before = partial.version
                let partialVisible = partial.visible
                let refinement = partial.adoptRefinement(exact)
                let r = try #require(refinement.window)
                refined += 1
                held = try held.applyingWindowSteps(r.steps)
                #expect(held == Self.window(exact), "\(label): refined window")
                #expect(r.total == WindowPropertyTests.flatten(exact).count, "\(label): refined total")
                #expect(!partial.searchIsPartial)
                #expect(Self.ids(partial, section: 0) == exactIDs)
                if !r.steps.isEmpty || partial.visible != partialVisible {
                    #expect(partial.version == before + 1, "\(label): a refinement that changed the list bumps the version")
                } else {
                    #expect(partial.version <= before + 1)
                }
                #expect(partial.searchMatchCount == exact.searchMatchCount)
                source = partial
            }
        }
        #expect(partials > 8 && refined > 4 && dropped > 1, "seed \(seed): every path taken")
    }

    /// A source that answered progressively prepares its next snapshot's
    /// sample in the background once the search field is empty again; the
    /// first keystroke after it ranks that sample.
    @Test func theSampleIsPreparedWhileNothingIsTyped() throws {
        var rng = SplitMix64(seed: 8)
        let count = BackgroundBuilds.minimumItems + 5_000
        var source = DataSource(name: "p")
        _ = try source.apply(Self.snapshot(count: count, sections: 1, rng: &rng))
        _ = source.setViewport(Viewport(start: 0, count: 20))
        let settings = SearchSettings(query: SearchQuery(text: "rdm", mode: .fuzzy, order: .score))
        #expect(!source.answersProgressively)
        var partial = source
        _ = partial.setSearchPartially(settings)
        #expect(partial.answersProgressively)
        source = partial
        // A new snapshot, then the search field emptied (declared again).
        _ = try source.apply(Self.snapshot(count: count, sections: 1, rng: &rng))
        _ = source.setSearch(SearchSettings(query: SearchQuery(text: "", mode: .fuzzy, order: .score)))
        let memo = source.searchCache.partialSample
        let prepared = try Self.preparedSample(memo)
        // The base: shortest texts and evenly spaced rows, some of them both.
        #expect(prepared.rows.count <= DataSource.partialSampleTexts - DataSource.partialPreviousRows)
        #expect(prepared.rows.count > DataSource.partialShortestTexts)
        var exact = source
        _ = exact.setSearch(settings)
        var next = source
        _ = next.setSearchPartially(settings)
        let rank = Dictionary(uniqueKeysWithValues: Self.ids(exact, section: 0).enumerated().map { ($1, $0) })
        let places = Self.ids(next, section: 0).compactMap { rank[$0] }
        #expect(places.count == Self.ids(next, section: 0).count && places == places.sorted())
        #expect(memo.sample(section: 0)?.base == prepared.base, "the prepared sample was ranked, not made again")
    }

    /// A frontend that declares its field for progressive answers
    /// (`expectProgressiveAnswers`: the daemon's `search ""` with
    /// `progressive`) has its sample prepared before its first keystroke,
    /// which ranks that sample; a source not asked for them prepares none.
    @Test func aFieldDeclaredForProgressiveAnswersHasItsSampleBeforeTheFirstKey() throws {
        var rng = SplitMix64(seed: 9)
        let snapshot = Self.snapshot(count: BackgroundBuilds.minimumItems + 5_000, sections: 1, rng: &rng)
        let empty = SearchSettings(query: SearchQuery(text: "", mode: .fuzzy, order: .score))
        var plain = DataSource(name: "p"), declared = DataSource(name: "d")
        _ = try plain.apply(snapshot)
        _ = try declared.apply(snapshot)
        _ = plain.setViewport(Viewport(start: 0, count: 20))
        _ = declared.setViewport(Viewport(start: 0, count: 20))
        _ = plain.setSearch(empty)
        #expect(!plain.expectsProgressiveAnswers)
        #expect(plain.searchCache.partialSample.sample(section: 0) == nil, "nothing asked for a sample")
        declared.expectProgressiveAnswers()
        _ = declared.setSearch(empty)
        #expect(declared.expectsProgressiveAnswers)
        let memo = declared.searchCache.partialSample
        let prepared = try Self.preparedSample(memo)
        let settings = SearchSettings(query: SearchQuery(text: "rdm", mode: .fuzzy, order: .score))
        var next = declared
        let answered = next.setSearchPartially(settings)
        #expect(answered != nil)
        #expect(memo.sample(section: 0)?.base == prepared.base, "the prepared sample was ranked, not made again")
        var exact = declared
        _ = exact.setSearch(settings)
        let rank = Dictionary(uniqueKeysWithValues: Self.ids(exact, section: 0).enumerated().map { ($1, $0) })
        let places = Self.ids(next, section: 0).compactMap { rank[$0] }
        #expect(!places.isEmpty && places.count == Self.ids(next, section: 0).count && places == places.sorted())
    }

    /// A partial answer never shows the placeholder, and the refinement
    /// shows it when nothing matches; an outline, an unranked order or no
    /// viewport answer exactly.
    @Test func partialAnswersApplyOnlyToRankedWindowedFlatLists() throws {
        var rng = SplitMix64(seed: 5)
        var source = DataSource(name: "p")
        _ = try source.apply(Self.snapshot(count: DataSource.partialSampleTexts * 2, sections: 1, rng: &rng))
        let ranked = SearchSettings(query: SearchQuery(text: "qqqq", mode: .fuzzy, order: .score),
                                    placeholder: Item(id: "none", text: "No match"))
        #expect(!source.partialSearchApplies(to: ranked), "no viewport")
        _ = source.setViewport(Viewport(start: 0, count: 10))
        #expect(source.partialSearchApplies(to: ranked))
        #expect(!source.partialSearchApplies(to: SearchSettings(query: SearchQuery(text: "a", mode: .fuzzy, order: .source))))
        #expect(!source.partialSearchApplies(to: SearchSettings(query: SearchQuery(text: "", mode: .fuzzy))))
        var partial = source
        let answer = partial.setSearchPartially(ranked)
        _ = try #require(answer)
        #expect(partial.visible.sections[0].items.isEmpty, "no placeholder while partial")
        var exact = source
        _ = exact.setSearch(ranked)
        _ = partial.adoptRefinement(exact)
        #expect(partial.visible.sections[0].items.map(\.id) == ["none"])
    }
}
