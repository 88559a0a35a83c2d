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
        let count = IndexPrebuild.minimumItems + 1000
        var source = DataSource(name: "picker")
        _ = try source.apply(Self.people(count, prefix: "a"))
        #expect(source.searchCache.prebuild == nil, "no search field yet")
        _ = source.setSearch(Self.searchField)
        let prebuild = try #require(source.searchCache.prebuild, "a search field on a large source starts a build")
        _ = prebuild.index()
        _ = source.setSearch(Self.typed("person 99"))
        #expect(source.searchCache.prebuild == nil)
        #expect(SearchIndexCarryTests.same(try #require(source.searchCache.index), SearchIndex(snapshot: source.snapshot)))
        #expect(source.visible == (try Self.fresh(source.snapshot, Self.typed("person 99"))))

        // A new snapshot starts a new build; the search shows the new items.
        _ = source.setSearch(Self.searchField)
        _ = try source.apply(Self.people(count, prefix: "b"))
        #expect(source.searchCache.index == nil && source.searchCache.prebuild != nil)
        _ = source.setSearch(Self.typed("b person 99"))
        #expect(source.visible == (try Self.fresh(source.snapshot, Self.typed("b person 99"))))

        // A snapshot replaced before its build was used: the build is dropped.
        _ = source.setSearch(Self.searchField)
        _ = try source.apply(Self.people(count, prefix: "c"))
        _ = source.searchCache.prebuild?.index()
        _ = try source.apply(Self.people(count, prefix: "d"))
        _ = source.setSearch(Self.typed("d person 99"))
        #expect(source.visible == (try Self.fresh(source.snapshot, Self.typed("d person 99"))))
    }

    /// An edit after the build finished carries the built index (spliced);
    /// an edit before it finished starts a build for the edited snapshot.
    @Test(arguments: [false, true]) func editsWhileNothingIsTyped(waitForTheBuild: Bool) throws {
        var source = DataSource(name: "picker")
        _ = try source.apply(Self.people(IndexPrebuild.minimumItems, prefix: "a"))
        _ = source.setSearch(Self.searchField)
        if waitForTheBuild { _ = source.searchCache.prebuild?.index() }
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
        _ = try source.apply(Self.people(IndexPrebuild.minimumItems - 1, prefix: "a"))
        _ = source.setSearch(Self.searchField)
        #expect(source.searchCache.prebuild == nil)
    }
}
