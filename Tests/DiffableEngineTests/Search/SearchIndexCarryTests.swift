import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// A small edit splices the search index instead of dropping it: the
/// spliced index is exactly the one a rebuild gives, and what a search
/// shows after the edit is what a fresh source shows.
@Suite struct SearchIndexCarryTests {
    static func same(_ a: SearchIndex, _ b: SearchIndex) -> Bool {
        a.bytes == b.bytes && a.offsets == b.offsets && a.folded == b.folded
            && a.foldedOffsets == b.foldedOffsets && a.flags == b.flags && a.presence == b.presence
            // Masks are compared when both keep them (a substring-only
            // index goes without).
            && (a.tracksBonusMasks != b.tracksBonusMasks || (a.bonusMasks == b.bonusMasks && a.wordPairs == b.wordPairs))
    }

    /// A snapshot's index, read from its items' stored texts (and, for a
    /// list long enough, built in two halves on two threads), is exactly
    /// the index that appending the texts as strings in order gives, with
    /// and without bonus masks; the halves meet inside runs of ASCII,
    /// non-ASCII and missing texts alike, and a first half that folding
    /// shortened.
    @Test(arguments: [false, true], [1000, SearchIndex.halvedBuildMinimum + 1001])
    func anIndexOfItemsEqualsOneOfTheirTexts(masks: Bool, count: Int) {
        var rng = SplitMix64(seed: masks ? 11 : 12)
        var texts = SearchFixtures.texts(count: count, rng: &rng)
        texts[count / 2 - 1] = nil
        texts[count / 2] = "Überschrift/ÉTÉ 👍"
        // Folding shortens this one: the second half's folded bytes move
        // down to meet the first's.
        texts[3] = "ÀÉÎ/Ölfeld/Straße"
        let items = texts.enumerated().map { Item(id: "i\($0.offset)", text: $0.element) }
        let snapshot = Snapshot(sections: [Section(id: "a", items: ItemList(items[..<7])), Section(id: "b", items: ItemList(items[7...]))])
        let halved = SearchIndex(snapshot: snapshot, bonusMasks: masks)
        var ordered = SearchIndex()
        ordered.tracksBonusMasks = masks
        ordered.append(contentsOf: texts)
        #expect(halved.count == count && halved.tracksBonusMasks == masks)
        #expect(Self.same(halved, ordered))
        #expect(halved.text(at: count / 2) == "Überschrift/ÉTÉ 👍" && halved.text(at: count / 2 - 1) == nil)
    }

    @Test(arguments: 0..<200 as Range<UInt64>)
    func aSpliceEqualsARebuild(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let texts = SearchFixtures.texts(count: Int.random(in: 0..<40, using: &rng), rng: &rng)
        // Remove a random subset, then insert random texts at random places.
        let removed = texts.indices.filter { _ in Int.random(in: 0..<4, using: &rng) == 0 }
        var kept: [String?] = texts.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        var inserted: [(at: Int, text: String?)] = []
        for _ in 0..<Int.random(in: 0..<6, using: &rng) {
            let at = Int.random(in: 0...kept.count, using: &rng)
            let text = SearchFixtures.texts(count: 1, rng: &rng)[0]
            kept.insert(text, at: at)
            inserted = inserted.map { $0.at >= at ? ($0.at + 1, $0.text) : $0 }
            inserted.append((at, text))
        }
        inserted.sort { $0.at < $1.at }
        let spliced = try #require(SearchIndex(texts: texts).splicing(removed: removed, inserted: inserted.map { ($0.at, .string($0.text)) }))
        #expect(Self.same(spliced, SearchIndex(texts: kept)), "seed \(seed)")
    }

    /// A match set moved through a splice (with the inserted texts that
    /// match) lists what the query matches in the spliced index, and a
    /// refining query narrowing from it finds what a fresh scan finds.
    @Test(arguments: 0..<200 as Range<UInt64>)
    func aMovedMatchSetIsTheSplicedIndexsMatchSet(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &+ 900)
        let texts = SearchFixtures.texts(count: Int.random(in: 0..<60, using: &rng), rng: &rng)
        let removed = texts.indices.filter { _ in Int.random(in: 0..<5, using: &rng) == 0 }
        var after: [String?] = texts.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        var insertedAt: [Int] = []
        for _ in 0..<Int.random(in: 0..<6, using: &rng) {
            let at = Int.random(in: 0...after.count, using: &rng)
            after.insert(SearchFixtures.texts(count: 1, rng: &rng)[0], at: at)
            insertedAt = insertedAt.map { $0 >= at ? $0 + 1 : $0 } + [at]
        }
        insertedAt.sort()
        // Texts as items (read where they are stored) and as strings (of fields).
        let splice = IndexSplice(removed: removed, inserted: insertedAt.map { at in
            (at, at % 2 == 0 ? .item(Item(id: "inserted-\(at)", content: nil, text: after[at])) : .string(after[at]))
        })
        let mode: SearchMode = Bool.random(using: &rng) ? .substring : .fuzzy
        let query = SearchQuery(text: SearchFixtures.query(length: Int.random(in: 1...2, using: &rng), rng: &rng), mode: mode,
                                order: Bool.random(using: &rng) ? .source : .score)
        let old = SearchIndex(texts: texts).evaluate(query, narrowing: nil, among: nil).matches
        let spliced = SearchIndex(texts: after)
        let fresh = spliced.evaluate(query, narrowing: nil, among: nil)
        let matchingInserted = splice.inserted.filter { spliced.score(of: $0.at, for: query) != nil }
        let moved = try #require(old.translated(through: splice, inserted: matchingInserted))
        #expect(moved.indices == fresh.matches.indices, "seed \(seed): \(query)")
        #expect(moved.indexCount == spliced.count)
        let longer = SearchQuery(text: query.text + SearchFixtures.query(length: 1, rng: &rng), mode: mode, order: query.order)
        let narrowed = spliced.evaluate(longer, narrowing: moved, among: nil)
        let scanned = spliced.evaluate(longer, narrowing: nil, among: nil)
        #expect(narrowed.matches.indices == scanned.matches.indices && narrowed.hits == scanned.hits, "seed \(seed): \(longer)")
    }

    /// Texts appended after the last one extend the buffers; runs of
    /// consecutive inserts go in one piece: both equal a rebuild.
    @Test func appendedRunsEqualARebuild() throws {
        let texts: [String?] = ["a", nil, "Bé", "c"]
        let index = SearchIndex(texts: texts)
        let tail = try #require(index.splicing(removed: [], inserted: [(4, "x"), (5, nil), (6, "yÿ")]))
        #expect(Self.same(tail, SearchIndex(texts: texts + ["x", nil, "yÿ"])))
        #expect(Self.same(index, SearchIndex(texts: texts)), "the spliced index is a copy")
        let runs = try #require(index.splicing(removed: [1], inserted: [(0, "p"), (1, "q"), (3, "r"), (4, "s")]))
        #expect(Self.same(runs, SearchIndex(texts: ["p", "q", "a", "r", "s", "Bé", "c"])))
    }

    @Test func positionsThatDoNotDescribeABatchAreRefused() {
        let index = SearchIndex(texts: ["a", "b", "c"])
        #expect(index.splicing(removed: [3], inserted: []) == nil, "out of range")
        #expect(index.splicing(removed: [1, 0], inserted: []) == nil, "not ascending")
        #expect(index.splicing(removed: [1, 1], inserted: []) == nil, "repeated")
        #expect(index.splicing(removed: [], inserted: [(4, "x")]) == nil, "past the end")
        #expect(index.splicing(removed: [], inserted: [(1, "x"), (1, "y")]) == nil, "repeated")
        #expect(index.splicing(removed: [0, 1, 2], inserted: [(0, "x")]).map { Self.same($0, SearchIndex(texts: ["x"])) } == true)
        #expect(index.splicing(removed: [], inserted: []).map { Self.same($0, index) } == true)
    }

    /// Edits made while nothing is searched wait, composed into one splice,
    /// for the next search's index; past `maxPendingChanges` waiting
    /// changes the index is dropped and rebuilt.
    @Test func editsWithoutASearchAreSplicedByTheNextSearch() throws {
        let items = (0..<50).map { Self.item("p\($0)", "person \($0)") }
        var source = DataSource(name: "picker")
        _ = try source.apply(Snapshot(sections: [Section(id: "added", items: []), Section(id: "list", items: ItemList(items))]))
        let settings = SearchSettings(query: SearchQuery(text: "person 1", mode: .substring), scope: ["list"])
        _ = source.setSearch(settings)
        _ = source.setSearch(SearchSettings(query: SearchQuery(text: "")))
        for k in 0..<10 {  // distinct items: nothing cancels out
            _ = try source.edit([.deleteItems(["p\(k)"]), .appendItems([Self.item("p\(k)", "moved \(k)")], toSection: "added")])
            _ = try source.edit([.setContent([ContentUpdate(id: "p\(10 + k)", content: nil, text: "renamed \(k)")], style: .reload)])
            #expect(source.searchCache.pendingSplice?.changeCount == 4 * (k + 1), "edit \(k): composed")
            #expect(source.searchCache.index != nil)
        }
        _ = source.setSearch(settings)
        #expect(source.searchCache.pendingSplice == nil)
        #expect(Self.same(try #require(source.searchCache.index), SearchIndex(snapshot: source.snapshot)))

        _ = source.setSearch(SearchSettings(query: SearchQuery(text: "")))
        _ = try source.edit([.deleteItems(["p30"])])
        _ = try source.edit([.moveItem("p31", .after("p45"))])
        _ = try source.edit([.setContent([ContentUpdate(id: "p40", content: nil, text: "person 1x")], style: .reconfigure)])
        _ = source.setSearch(settings)
        #expect(Self.same(try #require(source.searchCache.index), SearchIndex(snapshot: source.snapshot)))
        var fresh = DataSource(name: "fresh")
        _ = try fresh.apply(source.snapshot)
        _ = fresh.setSearch(settings)
        #expect(source.visible == fresh.visible)

        // More waiting changes than a splice is worth: rebuilt.
        _ = source.setSearch(SearchSettings(query: SearchQuery(text: "")))
        let batch = SearchCache.maxSplicedChanges - 2
        for round in 0...(SearchCache.maxPendingChanges / batch) {
            _ = try source.edit([.deleteItems(["p\(45 + round)"]),
                                 .appendItems((0..<batch).map { Self.item("b\(round)-\($0)", "bulk") }, toSection: "list")])
        }
        #expect(source.searchCache.index == nil, "too many waiting changes: rebuilt on the next search")
        _ = source.setSearch(settings)
        #expect(Self.same(try #require(source.searchCache.index), SearchIndex(snapshot: source.snapshot)))
    }

    /// A list streaming in: batches larger than `maxSplicedChanges` that
    /// only insert are spliced (the index is extended, not rebuilt), under
    /// a ranked search and with nothing typed; the index equals a rebuild
    /// and the visible list a fresh source's. Past `maxSplicedInserts`
    /// waiting inserts, the index is rebuilt.
    @Test func largeAppendsExtendTheIndex() throws {
        var source = DataSource(name: "stream")
        _ = try source.apply(Snapshot(sections: [Section(id: "list", items: []), Section(id: "tail", items: [])]))
        let ranked = SearchSettings(query: SearchQuery(text: "it 1", mode: .fuzzy, order: .score, limit: 20), scope: ["list"])
        _ = source.setSearch(ranked)
        var next = 0
        func batch(_ n: Int) -> [Item] {
            (0..<n).map { _ in next += 1; return Self.item("i\(next)", "item \(next)") }
        }
        for round in 0..<3 {
            _ = try source.edit([.appendItems(batch(SearchCache.maxSplicedChanges + 1000), toSection: round == 1 ? "tail" : "list")])
            #expect(source.searchCache.lastSplice?.inserted.count == SearchCache.maxSplicedChanges + 1000, "round \(round): spliced")
            let same = Self.same(try #require(source.searchCache.index), SearchIndex(snapshot: source.snapshot))
            #expect(same, "round \(round)")
            var fresh = DataSource(name: "fresh")
            _ = try fresh.apply(source.snapshot)
            _ = fresh.setSearch(ranked)
            let sameVisible = source.visible == fresh.visible
            #expect(sameVisible, "round \(round)")
        }
        // Nothing typed: the inserts wait, composed, up to maxSplicedInserts.
        _ = source.setSearch(SearchSettings(query: SearchQuery(text: "")))
        _ = try source.edit([.appendItems(batch(10_000), toSection: "list")])
        _ = try source.edit([.appendItems(batch(10_000), toSection: "tail")])
        #expect(source.searchCache.pendingSplice?.changeCount == 20_000)
        _ = source.setSearch(ranked)
        let spliced = Self.same(try #require(source.searchCache.index), SearchIndex(snapshot: source.snapshot))
        #expect(spliced)
        // No search field (no background splice): past maxSplicedInserts
        // waiting inserts the index is dropped, and rebuilt when searched.
        _ = source.setSearch(nil)
        for _ in 0...(SearchCache.maxSplicedInserts / 20_000) {
            _ = try source.edit([.appendItems(batch(20_000), toSection: "list")])
        }
        let dropped = source.searchCache.index == nil
        #expect(dropped, "more waiting inserts than maxSplicedInserts: rebuilt")
        _ = source.setSearch(ranked)
        let rebuilt = Self.same(try #require(source.searchCache.index), SearchIndex(snapshot: source.snapshot))
        #expect(rebuilt)
    }

    static func item(_ id: String, _ text: String?) -> Item {
        Item(id: id, content: text.map { Content(bytes: Array($0.utf8)) }, text: text)
    }

    /// Random chains of picker-like edits (move between sections, content
    /// changes, inserts, deletes, now and then a section op) under an active
    /// search: the kept index equals a rebuilt one, and the visible list
    /// equals a fresh source's.
    @Test(arguments: 0..<40 as Range<UInt64>)
    func editsUnderASearchKeepAnExactIndex(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var next = 0
        func fresh() -> Item {
            next += 1
            return Self.item("n\(next)", SearchFixtures.texts(count: 1, rng: &rng)[0])
        }
        let list = (0..<Int.random(in: 0..<60, using: &rng)).map { _ in fresh() }
        let start = Snapshot(sections: [Section(id: "added", items: []), Section(id: "list", items: ItemList(list))])
        var source = DataSource(name: "picker")
        _ = try source.apply(start)
        var carried = 0
        var pending = 0
        var translated = 0
        for round in 0..<12 {
            let query = SearchQuery(text: SearchFixtures.query(length: Int.random(in: 1...2, using: &rng), rng: &rng),
                                    mode: Bool.random(using: &rng) ? .substring : .fuzzy,
                                    order: Bool.random(using: &rng) ? .source : .score)
            let settings = SearchSettings(query: query, scope: Bool.random(using: &rng) ? ["list"] : nil,
                                          placeholder: Self.item("none", "No results"))
            // Now and then no search during the edit: its splice waits for
            // the next search (checked at the top of the next round).
            let idle = Int.random(in: 0..<3, using: &rng) == 0
            _ = source.setSearch(idle ? SearchSettings(query: SearchQuery(text: "")) : settings)
            if !idle {
                var freshSource = DataSource(name: "fresh")
                _ = try freshSource.apply(source.snapshot)
                _ = freshSource.setSearch(settings)
                #expect(source.visible == freshSource.visible, "seed \(seed) round \(round): \(query), narrowed after an edit")
            }
            if !idle, let index = source.searchCache.index {
                #expect(source.searchCache.pendingSplice == nil)
                #expect(Self.same(index, SearchIndex(snapshot: source.snapshot)), "seed \(seed) round \(round): pending splices")
            }
            let ids = source.snapshot.sections.flatMap { $0.items.map(\.id) }
            var ops: [EditOperation] = []
            switch Int.random(in: 0..<6, using: &rng) {
            case 0 where !ids.isEmpty:  // Enter in the picker: delete + append elsewhere
                let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
                let moved = source.snapshot.sections.flatMap { $0.items }.first { $0.id == id } ?? fresh()
                ops = [.deleteItems([id]), .appendItems([moved], toSection: Bool.random(using: &rng) ? "added" : "list")]
            case 1 where !ids.isEmpty:
                let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
                let text = SearchFixtures.texts(count: 1, rng: &rng)[0]
                ops = [.setContent([ContentUpdate(id: id, content: text.map { Content(bytes: Array($0.utf8)) }, text: text)],
                                   style: Bool.random(using: &rng) ? .reload : .reconfigure)]
            case 2 where ids.count > 1:
                ops = [.moveItem(ids[Int.random(in: 0..<ids.count, using: &rng)], .after(ids[0]))]
                if case .moveItem(let a, .after(let b)) = ops[0], a == b { ops = [.reloadItems([a])] }
            case 3:
                ops = [.appendItems((0..<Int.random(in: 1..<4, using: &rng)).map { _ in fresh() }, toSection: "list"),
                       .deleteItems(Array(ids.prefix(Int.random(in: 0..<3, using: &rng))))]
            case 4:
                ops = [.appendSections([Section(id: "extra\(round)", items: [fresh()])])]  // a section op: rebuilt
            default:
                ops = [.appendItems([Self.item("none", "now an item")], toSection: "added")]
                if ids.contains("none") { ops = [.deleteItems(["none"])] }
            }
            guard (try? source.edit(ops)) != nil else { continue }  // e.g. the placeholder became an item
            if idle {
                _ = source.setSearch(settings)
                pending += 1
            }
            // An unranked search moved its rows through the edit: the index
            // splice waits for the next search that reads it.
            if source.searchCache.pendingSplice != nil && !idle { translated += 1 }
            var cache = source.searchCache
            cache.applyPendingSplice()
            if let index = cache.index {
                carried += 1
                #expect(Self.same(index, SearchIndex(snapshot: source.snapshot)), "seed \(seed) round \(round): \(ops)")
                #expect(source.searchCache.sectionStarts.last == source.snapshot.itemCount)
            }
            var freshSource = DataSource(name: "fresh")
            _ = try freshSource.apply(source.snapshot)
            _ = freshSource.setSearch(settings)
            #expect(source.visible == freshSource.visible, "seed \(seed) round \(round): \(query) after \(ops)")
            for (s, section) in source.visible.sections.enumerated() {
                for r in section.items.indices {
                    let path = ItemPath(section: s, row: r)
                    #expect(source.highlights(at: path) == freshSource.highlights(at: path),
                            "seed \(seed) round \(round): highlights at \(path)")
                }
            }
            #expect(source.containsItem("none") == source.snapshot.sections.contains { $0.items.contains { $0.id == "none" } },
                    "seed \(seed) round \(round): the placeholder answer follows the edit")
        }
        if seed == 0 {
            #expect(carried > 0 && pending > 0 && translated > 0,
                    "some edits kept the index, some after waiting, some moved the rows without searching")
        }
    }
}

/// Spliced texts written as literals in these tests.
extension SplicedText: ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(nilLiteral: ()) { self = .string(nil) }
}
