import Testing
@testable import DiffableEngine

/// A list that arrives in batches (`edit appendItems`) while a query is
/// active: after every batch the visible list is what a fresh search of the
/// whole list shows, and the batch diff replays onto the previous one.
@Suite struct SearchStreamingTests {
    static func items(_ lines: ArraySlice<String>, from start: Int) -> [Item] {
        lines.enumerated().map { k, line in
            Item(id: "f\(start + k)", content: Content(bytes: Array(line.utf8)), text: line)
        }
    }

    static func visibleIDs(_ source: DataSource) -> [String] {
        source.visible.sections.flatMap { $0.items.map(\.id) }
    }

    @Test(arguments: [("src", 50), ("src", nil), ("core sw !test", 50), ("^app 'view | model$", nil)] as [(String, Int?)])
    func appendingBatchesKeepsAFreshSearchsResult(query: String, limit: Int?) throws {
        let lines = FzfCorpus.make(count: 24_000, seed: 77)
        let settings = SearchSettings(query: SearchQuery(text: query, mode: .fuzzy, order: .score, limit: limit),
                                      scope: nil, placeholder: nil)
        var source = DataSource(name: "files")
        _ = try source.apply(Snapshot(sections: [Section(id: "files", items: [])]))
        _ = source.setSearch(settings)
        let batch = 2_000
        var start = 0
        while start < lines.count {
            let before = source.visible
            let update = try source.edit([.appendItems(Self.items(lines[start..<start + batch], from: start),
                                                       toSection: "files")])
            start += batch
            let replayed = try before.applyingBatch(update.changeset, contentFrom: update.newVisible)
            #expect(replayed == source.visible, "\(query): batch diff replays after \(start) items")
            var fresh = DataSource(name: "fresh")
            _ = try fresh.apply(Snapshot(sections: [Section(id: "files",
                                                            items: Self.items(lines[0..<start], from: 0))]))
            _ = fresh.setSearch(settings)
            #expect(Self.visibleIDs(source) == Self.visibleIDs(fresh), "\(query): after \(start) items")
            #expect(source.searchMatchCount == fresh.searchMatchCount)
        }
    }
}
