import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// A source searching fields (`SearchSettings.fields`): the field texts
/// follow the content through edits (`setContent`, appended batches,
/// deletes, moves), the caches are keyed by the field set, and window rows
/// say which field each highlight is in. The contents here are
/// `name⇥path⇥kind` lines (a field `-` is missing), read by an extractor
/// of the test's own: the engine only sees the texts it returns.
@Suite struct SearchFieldsSourceTests {
    static let columns = ["name", "path", "kind"]

    /// Fields of `name⇥path⇥kind` contents, in the order `names` lists them.
    static func fields(_ names: [String]) -> SearchFields {
        let picks = names.compactMap { columns.firstIndex(of: $0) }
        return SearchFields(names: names) { content in
            let parts = String(decoding: content.bytes, as: UTF8.self).split(separator: "\t", omittingEmptySubsequences: false)
            return picks.map { k in k < parts.count && parts[k] != "-" ? String(parts[k]) : nil }
        }
    }

    static func item(_ id: String, _ line: String) -> Item {
        Item(id: id, content: Content(bytes: Array(line.utf8)), text: "never searched \(line)")
    }

    static func randomLine(_ values: [String], _ rng: inout SplitMix64) -> String {
        (0..<3).map { _ in rng.next() % 9 == 0 ? "-" : values.randomElement(using: &rng) ?? "x" }.joined(separator: "\t")
    }

    static func visibleIDs(_ source: DataSource) -> [String] {
        source.visible.sections.flatMap { $0.items.map(\.id) }
    }

    /// The same settings on a fresh source holding the same snapshot.
    static func fresh(_ source: DataSource, _ settings: SearchSettings) throws -> DataSource {
        var fresh = DataSource(name: "fresh")
        _ = try fresh.apply(source.snapshot)
        _ = fresh.setSearch(settings)
        return fresh
    }

    /// Random edits under random searches of fields: after each step the
    /// visible list is a fresh search's, and the diff replays.
    @Test(arguments: [101, 102, 103] as [UInt64])
    func editsKeepTheFieldTextsCurrent(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let values = FzfCorpus.make(count: 400, seed: seed)
        var next = 0
        func newItem() -> Item {
            next += 1
            return Self.item("i\(next)", Self.randomLine(values, &rng))
        }
        var source = DataSource(name: "files")
        _ = try source.apply(Snapshot(sections: [Section(id: "a", items: (0..<300).map { _ in newItem() }),
                                                 Section(id: "b", items: (0..<200).map { _ in newItem() })]))
        let fieldSets = [["name", "path"], ["path"], ["kind", "name", "path"]]
        let queries = ["src", "sw", "core sw", "^app", "'view !test", "md$ | json$", "a", "e", "mo"]
        var settings = SearchSettings(query: SearchQuery(text: ""))
        for step in 0..<60 {
            if step % 6 == 0 {
                let mode: SearchMode = [.fuzzy, .fuzzy, .exact, .substring].randomElement(using: &rng) ?? .fuzzy
                let order: SearchOrder = mode == .substring || rng.next() % 3 == 0 ? .source : .score
                let limit: Int? = rng.next() % 2 == 0 ? nil : 20
                settings = SearchSettings(query: SearchQuery(text: queries.randomElement(using: &rng) ?? "a", mode: mode,
                                                             order: order, limit: limit),
                                          scope: rng.next() % 3 == 0 ? ["b"] : nil,
                                          fields: Self.fields(fieldSets.randomElement(using: &rng) ?? ["name"]))
                _ = source.setSearch(settings)
            } else {
                let ids = source.snapshot.sections.flatMap { $0.items.map(\.id) }
                let op: EditOperation
                switch rng.next() % 5 {
                case 0:
                    op = .appendItems((0..<Int(1 + rng.next() % 40)).map { _ in newItem() }, toSection: rng.next() % 2 == 0 ? "a" : "b")
                case 1:
                    op = .deleteItems(Array(ids.shuffled(using: &rng).prefix(3)))
                case 2:
                    op = .moveItem(ids.randomElement(using: &rng) ?? "i1", .after(ids.randomElement(using: &rng) ?? "i2"))
                default:
                    op = .setContent(ids.shuffled(using: &rng).prefix(4).map { id in
                        let line = Self.randomLine(values, &rng)
                        return ContentUpdate(id: id, content: Content(bytes: Array(line.utf8)), text: "never searched")
                    }, style: .reload)
                }
                let before = source.visible
                guard let update = try? source.edit([op]) else { continue }
                let replayed = try before.applyingBatch(update.changeset, contentFrom: update.newVisible)
                #expect(replayed == source.visible, "step \(step): the edit's diff replays")
            }
            let fresh = try Self.fresh(source, settings)
            #expect(Self.visibleIDs(source) == Self.visibleIDs(fresh), "step \(step): \(settings.query.text)")
            // Counts come with search answers only (an unranked search
            // moves its rows through an edit without counting).
            if step % 6 == 0 { #expect(source.searchMatchCount == fresh.searchMatchCount) }
        }
    }

    /// A batch stream under a query of fields, as the streaming tests for
    /// texts: each batch leaves a fresh search's list.
    @Test func appendedBatchesUnderAQueryOfFields() throws {
        let values = FzfCorpus.make(count: 3000, seed: 5)
        var rng = SplitMix64(seed: 6)
        let lines = (0..<12_000).map { _ in Self.randomLine(values, &rng) }
        let settings = SearchSettings(query: SearchQuery(text: "src sw", mode: .fuzzy, order: .score, limit: 50),
                                      fields: Self.fields(["name", "path"]))
        var source = DataSource(name: "files")
        _ = try source.apply(Snapshot(sections: [Section(id: "files", items: [])]))
        _ = source.setSearch(settings)
        var start = 0
        while start < lines.count {
            let batch = lines[start..<start + 3000].enumerated().map { Self.item("f\(start + $0.offset)", $0.element) }
            _ = try source.edit([.appendItems(batch, toSection: "files")])
            start += 3000
            #expect(Self.visibleIDs(source) == Self.visibleIDs(try Self.fresh(source, settings)), "after \(start)")
        }
    }

    /// Another field set searches other texts (the index is rebuilt), and
    /// the item's own `text` is never searched with fields.
    @Test func theFieldSetChoosesTheTexts() throws {
        var source = DataSource(name: "files")
        _ = try source.apply(Snapshot(sections: [Section(id: "s", items: [
            Self.item("1", "Main.swift\tSources/app/Main.swift\tswift"),
            Self.item("2", "app.md\tdocs/app.md\t-"),
            Self.item("3", "-\t-\t-"),
        ])]))
        func ids(_ text: String, _ names: [String]) -> [String] {
            _ = source.setSearch(SearchSettings(query: SearchQuery(text: text), fields: Self.fields(names)))
            return Self.visibleIDs(source)
        }
        #expect(ids("app", ["name"]) == ["2"])
        #expect(ids("app", ["path"]) == ["2", "1"])
        #expect(ids("swift", ["kind"]) == ["1"])
        #expect(ids("never", ["name", "path", "kind"]) == [])
        #expect(ids("app", ["name"]) == ["2"])
        // An item lacking every field: shown by the empty query only.
        #expect(ids("", ["name"]) == ["1", "2", "3"])
        #expect(ids("!zzz", ["name"]) == ["1", "2"])
    }

    /// Window rows and `fieldHighlights` name the field of each range.
    @Test func highlightsNameTheirField() throws {
        var source = DataSource(name: "files")
        _ = try source.apply(Snapshot(sections: [Section(id: "s", items: [
            Self.item("1", "Main.swift\tSources/app/Main.swift\tswift"),
        ])]))
        source.prepareViewport(Viewport(start: 0, count: 10))
        let update = source.setSearch(SearchSettings(query: SearchQuery(text: "main app"),
                                                     fields: Self.fields(["name", "path"])))
        let marks = source.fieldHighlights(at: ItemPath(section: 0, row: 0))
        #expect(marks.map(\.field) == [0, 1])
        #expect(marks.map(\.range) == [0..<4, 8..<11])
        var rows: [WindowRow] = []
        for case .insert(_, let inserted) in update.window?.steps ?? [] { rows += inserted }
        #expect(rows.first?.highlights == [0..<4, 8..<11])
        #expect(rows.first?.highlightFields == ["name", "path"])
        // Without fields: no field names, the text's ranges.
        _ = source.setSearch(SearchSettings(query: SearchQuery(text: "never")))
        #expect(source.highlights(at: ItemPath(section: 0, row: 0)) == [0..<5])
        #expect(source.fieldHighlights(at: ItemPath(section: 0, row: 0)).map(\.field) == [0])
    }
}
