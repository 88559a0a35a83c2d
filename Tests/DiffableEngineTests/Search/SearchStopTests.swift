import Testing
@testable import DiffableEngine

/// `SearchStop`: a search stopped before its scan (a progressive key's
/// exact pass that the next key overtook while it waited for the index)
/// does no work for an answer nobody reads, and leaves its source as it was.
@Suite struct SearchStopTests {
    /// 80k names and paths: a scan on two threads, with a probed floor.
    static let index = TailSetsTests.index

    static func query(_ text: String, stop: SearchStop?) -> SearchQuery {
        var query = SearchQuery(text: text, mode: .fuzzy, order: .score, limit: nil)
        query.stop = stop
        return query
    }

    /// Stopped before it begins: no match and no hit, where the same scan
    /// unstopped finds thousands.
    @Test func aStoppedScanReadsNothing() {
        let plain = Self.index.evaluate(Self.query("src", stop: nil), narrowing: nil, among: nil, rankOnly: 150)
        #expect(plain.matches.count > 10_000 && plain.hits.count == 150)
        let stop = SearchStop()
        stop.stop()
        let stopped = Self.index.evaluate(Self.query("src", stop: stop), narrowing: nil, among: nil, rankOnly: 150)
        #expect(stopped.matches.count == 0)
        #expect(stopped.hits.isEmpty)
    }

    /// A source whose search is stopped by the time its index is there
    /// shows what it showed; the same search unstopped shows its matches.
    @Test func aSearchStoppedBeforeItsScanShowsWhatItShowed() throws {
        var source = DataSource(name: "s")
        let items = (0..<3_000).map { Item(id: "i\($0)", text: Self.index.text(at: $0)) }
        _ = try source.apply(Snapshot(sections: [Section(id: "a", items: items)]))
        _ = source.setSearch(SearchSettings(query: Self.query("src", stop: nil)))
        let shown = source.visible
        #expect(shown.itemCount > 0 && shown.itemCount < 3_000)
        var stopped = source
        let stop = SearchStop()
        stop.stop()
        _ = stopped.setSearch(SearchSettings(query: Self.query("sarah", stop: stop)))
        #expect(stopped.visible == shown)
        var unstopped = source
        _ = unstopped.setSearch(SearchSettings(query: Self.query("sarah", stop: nil)))
        #expect(unstopped.visible != shown && unstopped.visible.itemCount > 0)
    }
}
