import Testing
@testable import DiffableEngine

/// `editContentsInPlace` (the server's path for edits that only set
/// contents) against `edit` on a twin source: same state, changeset,
/// version and errors; `oldVisible` is the new snapshot and
/// `contentsBefore` what the changed rows had; a failing edit changes
/// nothing; any other op or a search field leaves it to `edit`.
struct ContentEditInPlaceTests {
    /// Random content-only ops on `source`'s items (some naming an unknown
    /// item, some transforms that fail when `failures`).
    static func contentOps(_ g: inout EditGenerator, ids: [String], failures: Bool) -> [EditOperation] {
        var ops: [EditOperation] = []
        for _ in 0..<g.int(1..<5) {
            func pick(_ g: inout EditGenerator) -> String {
                failures && g.chance(0.04) ? "absent" : ids[g.int(0..<ids.count)]
            }
            if g.chance(0.5) {
                let updates = (0..<g.int(1..<12)).map { _ in ContentUpdate(id: pick(&g), content: g.randomContent()) }
                ops.append(.setContent(updates, style: g.chance(0.5) ? .reload : .reconfigure))
            } else {
                let fail = failures && g.chance(0.05)
                let byte = UInt8(g.int(0..<4))
                ops.append(.transformContent(ContentTransform(id: pick(&g)) { old throws(ContentTransformFailure) in
                    if fail { throw ContentTransformFailure("refused", step: 0) }
                    // Depends on the old content, as a patch does.
                    let bytes = (old.map { Array($0.bytes.prefix(2)) } ?? []) + [byte]
                    return (Content(bytes: bytes), nil)
                }))
            }
        }
        return ops
    }

    @Test(arguments: 0..<12 as Range<UInt64>)
    func agreesWithEdit(seed: UInt64) throws {
        var g = EditGenerator(seed: seed)
        // Large enough to be chunked for some seeds.
        let n = [40, 3000, 9000][Int(seed % 3)]
        var start = Snapshot()
        for s in 0..<g.int(1..<4) {
            start.sections.append(Section(id: "s\(s)", items: ItemList((0..<n).map { Item(id: "s\(s)r\($0)", content: g.randomContent()) })))
        }
        let ids = start.sections.flatMap { $0.items.map(\.id) }
        var inPlace = DataSource(name: "p"), general = DataSource(name: "g")
        _ = try inPlace.apply(start)
        _ = try general.apply(start)
        for round in 0..<10 {
            let ops = Self.contentOps(&g, ids: ids, failures: true)
            let expected: Result<DataSource.Update, EditError>
            let before = general.snapshot
            do throws(EditError) { expected = .success(try general.edit(ops)) } catch { expected = .failure(error) }
            let got: Result<DataSource.Update?, EditError>
            do throws(EditError) { got = .success(try inPlace.editContentsInPlace(ops)) } catch { got = .failure(error) }
            switch (expected, got) {
            case let (.success(reference), .success(update?)):
                #expect(update.changeset == reference.changeset, "seed \(seed) round \(round)")
                #expect(update.newVisible == reference.newVisible && update.oldVisible == reference.newVisible)
                var previous: [ItemID: Content] = [:]
                for change in reference.changeset.itemReloads + reference.changeset.itemReconfigures {
                    if let item = before.item(at: change.old), let content = item.content { previous[item.itemID] = content }
                }
                #expect(update.contentsBefore == previous, "seed \(seed) round \(round)")
            case let (.failure(reference), .failure(error)):
                #expect(error == reference, "seed \(seed) round \(round)")
                #expect(general.snapshot == before)
            default:
                Issue.record("seed \(seed) round \(round): \(expected) vs \(got)")
            }
            #expect(inPlace.snapshot == general.snapshot && inPlace.visible == general.visible, "seed \(seed) round \(round)")
            #expect(inPlace.version == general.version)
        }
        // Any other op, or a search field, is left to `edit`.
        let version = inPlace.version
        #expect(try inPlace.editContentsInPlace([.reloadItems([ids[0]])]) == nil)
        #expect(try inPlace.editContentsInPlace(Self.contentOps(&g, ids: ids, failures: false) + [.deleteItems([ids[0]])]) == nil)
        #expect(inPlace.version == version)
        _ = inPlace.setSearch(SearchSettings(query: SearchQuery(text: "", mode: .substring, order: .source)))
        let searched = inPlace.version
        #expect(try inPlace.editContentsInPlace(Self.contentOps(&g, ids: ids, failures: false)) == nil)
        #expect(inPlace.version == searched && inPlace.snapshot == general.snapshot)
    }

    /// Once every row an `apply` read into one arena was rewritten by
    /// content edits, the source holds that arena no more: not through its
    /// rows, not through the edit index's keys (the rows' ids are views of
    /// their bytes). A ticker patched without end holds its rows once.
    @Test func rowsRewrittenLetGoOfTheArenaTheyWereReadInto() throws {
        weak var arena: ByteArena.Storage?
        var source = DataSource(name: "ticker")
        do {
            let items = ItemListTests.itemsInOneArena(6000)
            arena = items[0].storage?.storage
            _ = try source.apply(Snapshot(sections: [Section(id: "s", items: ItemList(items))]))
        }
        var g = EditGenerator(seed: 5)
        for batch in stride(from: 0, to: 6000, by: 500) {
            let updates = (batch..<batch + 500).shuffled(using: &g.rng).map { row in
                ContentUpdate(id: "a\(row)", content: Content(bytes: Array("{\"w\":\(row)}".utf8)))
            }
            #expect(try source.editContentsInPlace([.setContent(updates, style: .reload)]) != nil)
            #expect(arena != nil || batch == 5500, "freed before its last row was rewritten")
        }
        #expect(arena == nil, "the source still holds the arena its rows were read into")
        // The index still finds every row by the bytes of its id.
        let last = try #require(try source.editContentsInPlace([.setContent([ContentUpdate(id: "a5999", content: Content(bytes: [0x31]))], style: .reload)]))
        #expect(last.changeset.itemReloads == [Changeset.ItemUpdate(old: ItemPath(section: 0, row: 5999), new: ItemPath(section: 0, row: 5999))])
    }
}
