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

    /// Appends `lines` in `batch`es under `settings` (with `viewport`
    /// when given); after each batch, the diff must replay and the rows and
    /// the match count must be a fresh search's; `check` sees the source.
    static func stream(_ lines: [String], batch: Int, settings: SearchSettings, viewport: Viewport? = nil,
                       check: (DataSource, Int) -> Void = { _, _ in }) throws {
        let query = settings.query.text
        var source = DataSource(name: "files")
        source.prepareViewport(viewport)
        var held = try [WindowRow]().applyingWindowSteps(
            try source.apply(Snapshot(sections: [Section(id: "files", items: [])])).window?.steps ?? [])
        held = try held.applyingWindowSteps(source.setSearch(settings).window?.steps ?? [])
        var start = 0
        while start < lines.count {
            let before = source.visible
            let update = try source.edit([.appendItems(items(lines[start..<start + batch], from: start),
                                                       toSection: "files")])
            start += batch
            if let window = update.window {
                // The frontend holds the window alone: its steps must replay
                // to the rows where the window now stands.
                held = try held.applyingWindowSteps(window.steps)
                let flat = WindowPropertyTests.flatten(source)
                #expect(held == Array(flat[min(window.start, flat.count)..<min(flat.count, window.start + window.count)]),
                        "\(query): window steps replay after \(start) items")
                #expect(window.total == flat.count, "\(query): total after \(start) items")
            }
            if !update.visibleDiffOmitted {
                let replayed = try before.applyingBatch(update.changeset, contentFrom: update.newVisible)
                #expect(replayed == source.visible, "\(query): batch diff replays after \(start) items")
            }
            var fresh = DataSource(name: "fresh")
            fresh.prepareViewport(viewport)
            _ = try fresh.apply(Snapshot(sections: [Section(id: "files", items: items(lines[0..<start], from: 0))]))
            _ = fresh.setSearch(settings)
            #expect(visibleIDs(source) == visibleIDs(fresh), "\(query): after \(start) items")
            #expect(source.searchMatchCount == fresh.searchMatchCount, "\(query): after \(start) items")
            check(source, start)
        }
    }

    @Test(arguments: [("src", 50), ("src", nil), ("core sw !test", 50), ("^app 'view | model$", nil)] as [(String, Int?)])
    func appendingBatchesKeepsAFreshSearchsResult(query: String, limit: Int?) throws {
        let settings = SearchSettings(query: SearchQuery(text: query, mode: .fuzzy, order: .score, limit: limit),
                                      scope: nil, placeholder: nil)
        try Self.stream(FzfCorpus.make(count: 24_000, seed: 77), batch: 2_000, settings: settings)
    }

    /// With a window, a ranked query ranks only the rows the window can
    /// reach and the rest on first read: after each batch the rows, the
    /// match count and the window are those of a fresh search, and the
    /// window's steps replay.
    @Test(arguments: [("src", 0), ("core sw !test", 0), ("^app 'view | model$", 40), ("a", 10), ("zzzq", 0)]
          as [(String, Int)])
    func appendingBatchesUnderAWindowKeepsAFreshSearchsResult(query: String, windowStart: Int) throws {
        let settings = SearchSettings(query: SearchQuery(text: query, mode: .fuzzy, order: .score),
                                      scope: nil, placeholder: nil)
        let viewport = Viewport(start: windowStart, count: 20)
        try Self.stream(FzfCorpus.make(count: 12_000, seed: 78), batch: 1_500, settings: settings,
                        viewport: viewport) { source, start in
            // The window holds the visible rows where it stands (it follows
            // its top row, so it may stand elsewhere than a fresh one's).
            let ids = Self.visibleIDs(source)
            guard let window = source.window else { return }
            let shown = Array(ids[min(window.start, ids.count)..<min(window.start + viewport.count, ids.count)])
            #expect(window.rows.map(\.id) == shown, "\(query): window after \(start)")
        }
    }
}
