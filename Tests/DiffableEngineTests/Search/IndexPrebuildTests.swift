import Testing
@testable import DiffableEngine

/// A source with a search field and nothing typed builds its index in the
/// background; the first keystroke then shows exactly what a source that
/// built it on the spot shows, for the snapshot it has at that moment.
@Suite struct IndexPrebuildTests {
    static let searchField = SearchSettings(query: SearchQuery(text: "", mode: .substring, order: .source), scope: ["list"],
                                            placeholder: SearchIndexCarryTests.item("none", "No results"))

    static func people(_ count: Int, prefix: String) -> Snapshot {
        let items = (0..<count).map { SearchIndexCarryTests.item("\(prefix)\($0)", "\(prefix) person \($0 % 997)") }
        return Snapshot(sections: [Section(id: "added", items: []), Section(id: "list", items: ItemList(items))])
    }

    static func typed(_ text: String) -> SearchSettings {
        var settings = searchField
        settings.query.text = text
        return settings
    }

    /// What a source without a prebuild shows for `settings` on `snapshot`.
    static func fresh(_ snapshot: Snapshot, _ settings: SearchSettings) throws -> Snapshot {
        var source = DataSource(name: "fresh")
        _ = try source.apply(snapshot)
        _ = source.setSearch(settings)
        return source.visible
    }

    @Test func theFirstKeystrokeUsesTheIndexBuiltMeanwhile() throws {
        let count = BackgroundBuilds.minimumItems + 1000
        var source = DataSource(name: "picker")
        _ = try source.apply(Self.people(count, prefix: "a"))
        #expect(source.searchCache.prebuild == nil, "no search field yet")
        _ = source.setSearch(Self.searchField)
        let prebuild = try #require(source.searchCache.prebuild, "a search field on a large source starts a build")
        _ = prebuild.value()
        #expect(source.searchCache.itemMemo.knownNonItem == "none", "the placeholder id was looked up meanwhile")
        _ = source.setSearch(Self.typed("person 99"))
        #expect(source.searchCache.prebuild == nil)
        #expect(SearchIndexCarryTests.same(try #require(source.searchCache.index), SearchIndex(snapshot: source.snapshot)))
        #expect(source.visible == (try Self.fresh(source.snapshot, Self.typed("person 99"))))
        #expect(source.searchCache.index?.tracksBonusMasks == false, "a substring field's index has no bonus masks")

        // A new snapshot starts a new build; the search shows the new items.
        _ = source.setSearch(Self.searchField)
        _ = try source.apply(Self.people(count, prefix: "b"))
        #expect(source.searchCache.index == nil && source.searchCache.prebuild != nil)
        _ = source.setSearch(Self.typed("b person 99"))
        #expect(source.visible == (try Self.fresh(source.snapshot, Self.typed("b person 99"))))

        // A snapshot replaced before its build was used: the build is dropped.
        _ = source.setSearch(Self.searchField)
        _ = try source.apply(Self.people(count, prefix: "c"))
        _ = source.searchCache.prebuild?.value()
        _ = try source.apply(Self.people(count, prefix: "d"))
        _ = source.setSearch(Self.typed("d person 99"))
        #expect(source.visible == (try Self.fresh(source.snapshot, Self.typed("d person 99"))))
    }

    /// An edit after the build finished carries the built index (spliced);
    /// an edit before it finished starts a build for the edited snapshot.
    @Test(arguments: [false, true]) func editsWhileNothingIsTyped(waitForTheBuild: Bool) throws {
        var source = DataSource(name: "picker")
        _ = try source.apply(Self.people(BackgroundBuilds.minimumItems, prefix: "a"))
        _ = source.setSearch(Self.searchField)
        if waitForTheBuild { _ = source.searchCache.prebuild?.value() }
        for k in 0..<3 {
            let item = SearchIndexCarryTests.item("a\(k * 7)", "moved person 5")
            _ = try source.edit([.deleteItems(["a\(k * 7)"]), .appendItems([item], toSection: k == 1 ? "list" : "added")])
        }
        if waitForTheBuild {
            #expect(source.searchCache.index != nil && source.searchCache.pendingSplice != nil, "carried through the edits")
        }
        _ = source.setSearch(Self.typed("person 5"))
        #expect(SearchIndexCarryTests.same(try #require(source.searchCache.index), SearchIndex(snapshot: source.snapshot)))
        #expect(source.visible == (try Self.fresh(source.snapshot, Self.typed("person 5"))))
    }

    @Test func smallSourcesBuildOnTheFirstKeystroke() throws {
        var source = DataSource(name: "small")
        _ = try source.apply(Self.people(BackgroundBuilds.minimumItems - 1, prefix: "a"))
        _ = source.setSearch(Self.searchField)
        #expect(source.searchCache.prebuild == nil)
    }
}

/// A large source shown through a viewport builds its edit index in the
/// background; the first edit then uses it and answers exactly what an
/// edit that built its index on the spot answers.
@Suite struct EditIndexPrebuildTests {
    static func edits(_ k: Int) -> [EditOperation] {
        [.deleteItems(["a\(k * 13)"]), .appendItems([SearchIndexCarryTests.item("a\(k * 13)", "moved")], toSection: "added"),
         .moveItem("a\(k * 13 + 5000)", .after("a\(k * 13 + 1)"))]
    }

    @Test(arguments: [false, true]) func theFirstEditUsesTheIndexBuiltMeanwhile(viewportFirst: Bool) throws {
        let snapshot = IndexPrebuildTests.people(BackgroundBuilds.minimumItems + 10, prefix: "a")
        var shown = DataSource(name: "shown")
        if viewportFirst { shown.prepareViewport(Viewport(start: 0, count: 30)) }
        _ = try shown.apply(snapshot)
        if !viewportFirst { _ = shown.setViewport(Viewport(start: 0, count: 30)) }
        let prebuild = try #require(shown.editPrebuild, "a large source in a viewport starts a build")
        _ = prebuild.value()
        var plain = DataSource(name: "plain")
        _ = try plain.apply(snapshot)
        _ = plain.setViewport(Viewport(start: 0, count: 30))
        plain.editPrebuild = nil  // builds its index on the spot
        for k in 0..<3 {
            let a = try shown.edit(Self.edits(k)), b = try plain.edit(Self.edits(k))
            #expect(shown.editPrebuild == nil)
            #expect(a.changeset == b.changeset && a.window == b.window, "edit \(k)")
            #expect(shown.snapshot == plain.snapshot && shown.visible == plain.visible, "edit \(k)")
            #expect(shown.editIndex?.locationOfItem == plain.editIndex?.locationOfItem, "edit \(k)")
        }
    }

    @Test func aNewSnapshotDropsTheBuildAndSmallOrUnshownSourcesStartNone() throws {
        var source = DataSource(name: "s")
        source.prepareViewport(Viewport(start: 0, count: 30))
        _ = try source.apply(IndexPrebuildTests.people(BackgroundBuilds.minimumItems, prefix: "a"))
        _ = source.editPrebuild?.value()
        _ = try source.apply(IndexPrebuildTests.people(BackgroundBuilds.minimumItems, prefix: "b"))
        _ = try source.edit([.deleteItems(["b7"])])
        #expect(!source.snapshot.sections[1].items.contains { $0.id == "b7" } && source.snapshot.itemCount == BackgroundBuilds.minimumItems - 1)
        #expect(source.editIndex?.itemCount == source.snapshot.itemCount)
        #expect(source.editIndex?.locationOfItem[ItemID("a3")] == nil, "the index of the new snapshot")

        var small = DataSource(name: "small")
        small.prepareViewport(Viewport(start: 0, count: 30))
        _ = try small.apply(IndexPrebuildTests.people(BackgroundBuilds.minimumItems - 1, prefix: "a"))
        #expect(small.editPrebuild == nil)
        var unshown = DataSource(name: "unshown")
        _ = try unshown.apply(IndexPrebuildTests.people(BackgroundBuilds.minimumItems, prefix: "a"))
        #expect(unshown.editPrebuild == nil)
    }
}

/// After an edit under an active search, a large source splices its index
/// in the background; the next keystroke shows what a fresh source shows,
/// whether the splice had finished, was still running, or was overtaken by
/// more edits.
@Suite struct BackgroundSpliceTests {
    @Test(arguments: [0, 1, 2]) func keystrokesAfterEditsSeeEveryEdit(waits: Int) throws {
        var source = DataSource(name: "picker")
        _ = try source.apply(IndexPrebuildTests.people(BackgroundBuilds.minimumItems, prefix: "a"))
        _ = source.setSearch(IndexPrebuildTests.typed("person 12"))
        for k in 0..<4 {
            let id = "a\(12 + 997 * k)"
            _ = try source.edit([.deleteItems([id]), .appendItems([SearchIndexCarryTests.item(id, "person 12 added")], toSection: "added"),
                                 .setContent([ContentUpdate(id: "a\(5 + k)", content: nil, text: "now person 12")], style: .reload)])
            let splicing = try #require(source.searchCache.splicing, "edit \(k): spliced in the background")
            // 0: never wait; 1: wait after every other edit; 2: always.
            if waits == 2 || (waits == 1 && k % 2 == 0) { _ = splicing.value() }
            #expect(source.visible == (try IndexPrebuildTests.fresh(source.snapshot, IndexPrebuildTests.typed("person 12"))),
                    "edit \(k): the rows moved through the edit")
        }
        // The next key narrows the "person 12" matches moved through the edits.
        #expect(source.searchCache.movedMatches != nil)
        _ = source.setSearch(IndexPrebuildTests.typed("person 12 "))
        #expect(source.searchCache.recent.count == 2, "the moved set, then the narrowed one")
        #expect(source.visible == (try IndexPrebuildTests.fresh(source.snapshot, IndexPrebuildTests.typed("person 12 "))))
        _ = source.setSearch(IndexPrebuildTests.typed("person 1"))
        #expect(source.searchCache.splicing == nil && source.searchCache.pendingSplice == nil)
        #expect(SearchIndexCarryTests.same(try #require(source.searchCache.index), SearchIndex(snapshot: source.snapshot)))
        #expect(source.visible == (try IndexPrebuildTests.fresh(source.snapshot, IndexPrebuildTests.typed("person 1"))))
    }
}

extension BackgroundSpliceTests {
    /// An edit that comes while the previous edit's splice is still running
    /// keeps that splice and waits after it (one splice runs at a time); a
    /// finished splice becomes the index first. The next search takes the
    /// splice and adds what came after it, or splices everything from the
    /// old index when the splice is still running.
    @Test(arguments: [false, true]) func anEditDuringASpliceWaitsAfterIt(finished: Bool) throws {
        let texts = (0..<40).map { "person \($0)" }
        let first = Snapshot(sections: [Section(id: "list", items: ItemList(texts.enumerated().map {
            SearchIndexCarryTests.item("p\($0.offset)", $0.element) }))])
        var source = DataSource(name: "s")
        _ = try source.apply(first)
        _ = source.setSearch(IndexPrebuildTests.typed("person 1"))
        _ = try source.edit([.deleteItems(["p3"])])
        let index = try #require(source.searchCache.index), pending = try #require(source.searchCache.pendingSplice)
        let job = BackgroundBuild<SearchIndex?>.onDemand({ index.splicing(removed: pending.removed, inserted: pending.inserted) })
        if finished { _ = job.value() }
        source.searchCache.splicing = job
        _ = try source.edit([.deleteItems(["p7"]), .appendItems([SearchIndexCarryTests.item("n1", "person 1 new")], toSection: "list")])
        #expect((source.searchCache.splicing == nil) == finished, "a finished splice is taken, a running one kept")
        #expect(source.searchCache.pendingSplice?.changeCount == (finished ? 2 : 3), "the waiting changes")
        #expect(source.searchCache.splicedLater?.changeCount == (finished ? nil : 2), "the changes after the running splice")
        for ready in finished ? [true] : [false, true] {
            var cache = source.searchCache
            if ready { _ = job.value() }
            cache.applyPendingSplice()
            #expect(SearchIndexCarryTests.same(try #require(cache.index), SearchIndex(snapshot: source.snapshot)), "ready: \(ready)")
            #expect(cache.splicing == nil && cache.splicedLater == nil && cache.pendingSplice == nil)
        }
        _ = source.setSearch(IndexPrebuildTests.typed("person"))
        #expect(source.visible == (try IndexPrebuildTests.fresh(source.snapshot, IndexPrebuildTests.typed("person"))))
    }

    /// With a search field but nothing typed, an edit to a large source
    /// splices in the background too: the first letter after it finds the
    /// index done. A source without a search field starts nothing.
    @Test func anEditWithNothingTypedSplicesInTheBackground() throws {
        var source = DataSource(name: "picker")
        _ = try source.apply(IndexPrebuildTests.people(BackgroundBuilds.minimumItems, prefix: "a"))
        var plain = source
        _ = source.setSearch(IndexPrebuildTests.typed(""))
        _ = try #require(source.searchCache.prebuild, "the declared field builds the index").value()
        for k in 0..<3 {
            let edit: [EditOperation] = [.deleteItems(["a\(40 + k)"]),
                                        .appendItems([SearchIndexCarryTests.item("n\(k)", "person \(k) new")], toSection: "added")]
            _ = try source.edit(edit)
            _ = try plain.edit(edit)
            let splicing = try #require(source.searchCache.splicing, "edit \(k): spliced in the background")
            _ = splicing.value()
            #expect(plain.searchCache.splicing == nil && plain.searchCache.index == nil)
        }
        _ = source.setSearch(IndexPrebuildTests.typed("person 4"))
        #expect(SearchIndexCarryTests.same(try #require(source.searchCache.index), SearchIndex(snapshot: source.snapshot)))
        #expect(source.visible == (try IndexPrebuildTests.fresh(source.snapshot, IndexPrebuildTests.typed("person 4"))))
    }
}
