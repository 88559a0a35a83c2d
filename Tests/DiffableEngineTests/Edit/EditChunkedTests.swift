import Testing
@testable import DiffableEngine

/// Edits of sections large enough to be chunked (see `ItemList`): results,
/// changesets and the kept index against the naive implementation.
struct EditChunkedTests {
    /// Every indexed item is found at its recorded chunk, and nothing else
    /// is indexed.
    static func indexIsExact(_ index: EditIndex, _ snapshot: Snapshot) -> Bool {
        guard index.itemCount == snapshot.itemCount else { return false }
        for (id, location) in index.locationOfItem {
            guard let s = index.sectionPosition[location.section], snapshot.sections.indices.contains(s),
                  snapshot.sections[s].id == location.section,
                  let r = snapshot.sections[s].items.row(of: id.string, inChunk: location.chunk),
                  snapshot.sections[s].items[r].itemID == id
            else { return false }
        }
        return true
    }

    @Test(arguments: 0..<5 as Range<UInt64>)
    func editChainsOnBigSections(seed: UInt64) throws {
        var g = EditGenerator(seed: seed)
        var start = Snapshot()
        for s in 0..<(seed % 3 == 0 ? 2 : 1) {
            let count = g.int(2100..<3200)  // above 2048: the section is chunked
            start.sections.append(Section(id: "big\(s)", items: (0..<count).map { Item(id: "b\(s)_\($0)") }))
        }
        var source = DataSource(name: "big")
        _ = try source.apply(start)
        var next = 0
        for round in 0..<8 {
            let before = source.snapshot
            let ids = before.sections.flatMap { $0.items.map(\.id) }
            guard !ids.isEmpty else { break }
            let anchor = g.int(0..<ids.count)
            var ops: [EditOperation] = []
            for _ in 0..<g.int(1..<4) {
                switch g.int(0..<6) {
                case 0:  // a run of deletes around the anchor (merges chunks)
                    let lo = max(0, anchor - g.int(0..<300)), hi = min(ids.count, anchor + g.int(1..<300))
                    ops = [.deleteItems(Array(ids[lo..<hi]))]
                case 1:  // a long insert (splits chunks)
                    let items = (0..<g.int(1..<3000)).map { Item(id: "n\(next + $0)") }
                    next += items.count
                    ops.append(.insertItems(items, g.position(ids[anchor])))
                case 2:
                    let other = ids[g.int(0..<ids.count)]
                    if other != ids[anchor] { ops.append(.moveItem(ids[anchor], g.position(other))) }
                case 3:
                    ops.append(.setContent([ContentUpdate(id: ids[anchor], content: g.randomContent())], style: .reload))
                case 4:
                    let items = (0..<g.int(1..<100)).map { Item(id: "a\(next + $0)") }
                    next += items.count
                    ops.append(.appendItems(items, toSection: nil))
                default:
                    ops.append(.deleteItems([ids[g.int(0..<ids.count)]]))
                }
                if case .deleteItems = ops.last { break }
            }
            let (expected, failed) = NaiveEdit.apply(ops, to: before)
            guard failed == nil else { continue }
            let update = try source.edit(ops)
            #expect(source.snapshot == expected, "seed \(seed) round \(round): \(ops.map(\.name))")
            #expect((try? before.applyingBatch(update.changeset, contentFrom: expected)) == expected,
                    "seed \(seed) round \(round): changeset does not replay")
            if let index = source.editIndex {
                #expect(Self.indexIsExact(index, source.snapshot), "seed \(seed) round \(round): index")
            } else {
                Issue.record("seed \(seed): index dropped")
            }
        }
    }

    @Test func failedEditOfChunkedSectionLeavesItUntouched() throws {
        var source = DataSource(name: "x")
        let items = (0..<5000).map { Item(id: "i\($0)") }
        _ = try source.apply(Snapshot(sections: [Section(id: "s", items: items)]))
        _ = try source.edit([.deleteItems(["i10"])])
        let before = source.snapshot
        #expect(throws: EditError.self) {
            try source.edit([.insertItems([Item(id: "n")], .after("i2500")), .deleteItems(["nope"])])
        }
        #expect(source.snapshot == before)
        #expect(source.editIndex.map { Self.indexIsExact($0, source.snapshot) } ?? false)
        _ = try source.edit([.moveItem("i0", .after("i4999"))])
        #expect(source.snapshot.sections[0].items.last?.id == "i0")
    }
}
