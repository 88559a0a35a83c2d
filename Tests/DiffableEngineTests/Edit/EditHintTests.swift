import Testing
@testable import DiffableEngine

/// The offsets `EditIndex` keeps as hints (`ItemList.find`): a lookup is
/// right whatever the hint, a content-only edit keeps every hint right,
/// and edits that shift rows leave the results exact.
struct EditHintTests {
    @Test(arguments: 0..<4 as Range<UInt64>)
    func findIsRightWhateverTheHint(seed: UInt64) {
        var g = EditGenerator(seed: seed)
        let n = [10, 2100, 5000, 9000][Int(seed)]
        var list = ItemList((0..<n).map { Item(id: "r\($0)") })
        list.chunkify()
        let chunkOf = ItemListTests.locations(list)
        for _ in 0..<300 {
            let r = g.int(0..<n)
            let id = ItemID("r\(r)")
            guard let chunk = chunkOf["r\(r)"] else {
                Issue.record("r\(r) has no chunk")
                continue
            }
            let row = list.withChunk(chunk) { _, start in start }
            let offset = r - (row ?? 0)
            for hint in [nil, offset, offset + 1, -3, 1 << 20, g.int(0..<3000)] as [Int?] {
                let found = list.find(id, inChunk: chunk, hint: hint)
                #expect(found?.row == r && found?.offset == offset, "r\(r) hint \(String(describing: hint))")
            }
            #expect(list.row(of: id, inChunk: chunk, atOffset: offset) == r)
            #expect(list.row(of: id, inChunk: chunk, atOffset: offset + 1) == nil)
            // In another chunk, or not in the list: not found.
            #expect(list.find(ItemID("nope"), inChunk: chunk, hint: offset) == nil)
            if let other = list.chunkIDs.first(where: { $0 != chunk }) {
                #expect(list.find(id, inChunk: other, hint: offset) == nil)
            }
        }
    }

    @Test func rowsOfManyIdsScanTheChunkOnce() {
        var list = ItemList((0..<6000).map { Item(id: "r\($0)") })
        list.chunkify()
        for chunk in list.chunkIDs {
            guard let members = list.withChunk(chunk, { items, start in (start, items.count) }) else { continue }
            for wanted in [1, 8, 9, 40] {
                let rows = (0..<wanted).map { members.0 + ($0 * 37) % members.1 }
                let ids = rows.map { ItemID("r\($0)") } + [ItemID("absent")]
                let found = list.rows(of: ids, inChunk: chunk)
                #expect(Set(found.map(\.row)) == Set(rows))
                #expect(found.allSatisfy { $0.id.string == "r\($0.row)" && $0.row == members.0 + $0.offset })
            }
        }
    }

    /// After any edit every hint the index keeps is either right or
    /// absent/stale (never used unchecked), and after content-only edits
    /// every touched item's hint is right.
    @Test(arguments: 0..<6 as Range<UInt64>)
    func contentEditsKeepHintsAndOtherEditsStayExact(seed: UInt64) throws {
        var g = EditGenerator(seed: seed)
        let n = g.int(2100..<6000)
        var source = DataSource(name: "hints")
        _ = try source.apply(Snapshot(sections: [Section(id: "s", items: (0..<n).map { Item(id: "r\($0)") })]))
        var next = 0
        for round in 0..<30 {
            let ids = source.snapshot.sections[0].items.map(\.id)
            var ops: [EditOperation] = []
            let contentOnly = round % 3 != 2
            if contentOnly {
                for _ in 0..<g.int(1..<40) {
                    ops.append(.setContent([ContentUpdate(id: ids[g.int(0..<ids.count)], content: Content(bytes: [UInt8(round), UInt8(g.int(0..<200))]))],
                                           style: g.chance(0.5) ? .reload : .reconfigure))
                }
            } else {
                let anchor = ids[g.int(0..<ids.count)]
                next += 1
                ops = [.insertItems((0..<g.int(1..<50)).map { Item(id: "n\(next)_\($0)") }, g.chance(0.5) ? .before(anchor) : .after(anchor))]
                let doomed = ids[g.int(0..<ids.count)]
                if doomed != anchor { ops.append(.deleteItems([doomed])) }
            }
            let before = source.snapshot
            let (expected, failed) = NaiveEdit.apply(ops, to: before)
            guard failed == nil else { continue }
            let update = try source.edit(ops)
            #expect(source.snapshot == expected, "seed \(seed) round \(round)")
            #expect((try? before.applyingBatch(update.changeset, contentFrom: expected)) == expected, "seed \(seed) round \(round): changeset")
            let index = try #require(source.editIndex)
            #expect(EditChunkedTests.indexIsExact(index, source.snapshot), "seed \(seed) round \(round): index")
            guard contentOnly else { continue }
            let items = source.snapshot.sections[0].items
            for case .setContent(let updates, _) in ops {
                for update in updates {
                    let location = try #require(index.locationOfItem[ItemID(update.id)])
                    let offset = try #require(location.offset, "\(update.id) lost its hint")
                    #expect(items.row(of: ItemID(update.id), inChunk: location.chunk, atOffset: offset) != nil,
                            "seed \(seed) round \(round): \(update.id)'s hint is stale after a content edit")
                }
            }
        }
    }

    @Test func locationsCompareWithoutTheirHints() {
        let a = EditIndex.Location(section: "s", chunk: 7, offset: 3)
        #expect(a == EditIndex.Location(section: "s", chunk: 7, offset: 900))
        #expect(a == EditIndex.Location(section: "s", chunk: 7))
        #expect(a != EditIndex.Location(section: "s", chunk: 8, offset: 3))
        #expect(a != EditIndex.Location(section: "t", chunk: 7, offset: 3))
        #expect(a.chunk == 7 && a.offset == 3)
        #expect(EditIndex.Location(section: "s", chunk: 1 << 40, offset: 1 << 20).offset == nil)
        #expect(EditIndex.Location(section: "s", chunk: 1 << 40, offset: 65_000).chunk == 1 << 40)
    }
}
