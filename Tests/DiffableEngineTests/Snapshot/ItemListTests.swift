import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// `ItemList` against an `[Item]` model: seeded random operations, chunk
/// bounds, placement reports and copy-on-write independence.
struct ItemListTests {
    static func items(_ range: Range<Int>, prefix: String = "i") -> [Item] {
        range.map { Item(id: "\(prefix)\($0)") }
    }

    /// Chunk invariants, and every reported placement is where the item is.
    static func checkStructure(_ list: ItemList, _ model: [Item], _ note: @autoclosure () -> String) {
        #expect(list.count == model.count, "\(note()): count")
        #expect(Array(list) == model, "\(note()): items")
        guard list.isChunked else { return }
        #expect(list.chunks.allSatisfy { !$0.isEmpty && $0.count <= ItemList.maxChunk }, "\(note()): chunk sizes")
        if list.chunks.count > 1 {
            #expect(list.chunks.allSatisfy { $0.count >= ItemList.minChunk }, "\(note()): small chunk")
        }
        #expect(Set(list.chunkIDs).count == list.chunkIDs.count, "\(note()): chunk ids")
        #expect(list.chunkIDs.count == list.chunks.count && list.starts.count == list.chunks.count + 1)
        #expect(list.blocks.count == (list.count + 1023) / 1024, "\(note()): blocks")
        for (b, k) in list.blocks.enumerated() {
            let row = b * 1024, k = Int(k)
            #expect(list.starts[k] <= row && row < list.starts[k + 1], "\(note()): block \(b)")
        }
        var total = 0
        for (k, chunk) in list.chunks.enumerated() {
            #expect(list.starts[k] == total, "\(note()): starts")
            total += chunk.count
        }
    }

    /// The chunk of every item, as an index would record it from placements.
    static func locations(_ list: ItemList) -> [String: Int] {
        var result: [String: Int] = [:]
        list.forEachChunk { chunk, items in for item in items { result[item.id] = chunk } }
        return result
    }

    @Test func flatListWrapsAndReadsLikeArray() {
        let model = Self.items(0..<10)
        var list = ItemList(model)
        #expect(!list.isChunked && list.count == 10 && Array(list) == model)
        #expect(list[3] == model[3] && list.firstIndex(of: model[7]) == 7)
        list.insert(Item(id: "x"), at: 2)
        list.remove(at: 0)
        var expected = model
        expected.insert(Item(id: "x"), at: 2)
        expected.remove(at: 0)
        #expect(Array(list) == expected && list == ItemList(expected))
        let literal: ItemList = [Item(id: "a")]
        #expect(literal.count == 1 && literal.first?.id == "a")
        #expect(ItemList().isEmpty)
    }

    @Test func chunkifySplitsIntoBoundedChunks() {
        for n in [0, 1, 2048, 2049, 5000, 100_000] {
            let model = Self.items(0..<n)
            var list = ItemList(model)
            list.chunkify()
            #expect(list.isChunked == (n > ItemList.maxChunk), "n \(n)")
            Self.checkStructure(list, model, "chunkify \(n)")
            #expect(list == ItemList(model))
            for r in stride(from: 0, to: n, by: max(1, n / 37)) {
                #expect(list[r] == model[r])
                #expect(list.row(of: model[r].id, inChunk: list.chunkID(at: r)) == r)
            }
        }
    }

    @Test(arguments: 0..<12 as Range<UInt64>)
    func randomOperationsMatchArray(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let start = Int.random(in: 0..<5000, using: &rng)
        var model = Self.items(0..<start)
        var list = ItemList(model)
        if seed % 2 == 0 { list.chunkify() }
        var next = start
        var located = Self.locations(list)
        for step in 0..<150 {
            var placements: [ItemList.Placement]? = []
            let report = Bool.random(using: &rng)
            let kind = Int.random(in: 0..<8, using: &rng)
            let n = model.count
            switch kind {
            case 0, 1:  // insert a run
                let count = Int.random(in: 1..<(Bool.random(using: &rng) ? 4 : 3000), using: &rng)
                let new = Self.items(next..<next + count, prefix: "n")
                next += count
                let at = Int.random(in: 0...n, using: &rng)
                model.insert(contentsOf: new, at: at)
                if report { list.insert(new, at: at, report: &placements) } else { list.insert(contentsOf: new, at: at) }
            case 2, 3:  // remove one
                guard n > 0 else { continue }
                let at = Int.random(in: 0..<n, using: &rng)
                let removed = model.remove(at: at)
                let got = report ? list.remove(at: at, report: &placements) : list.remove(at: at)
                #expect(got == removed)
                located[removed.id] = nil
            case 4:  // remove a range
                guard n > 0 else { continue }
                let lo = Int.random(in: 0..<n, using: &rng)
                let hi = Int.random(in: lo...min(n, lo + 4000), using: &rng)
                for item in model[lo..<hi] { located[item.id] = nil }
                model.removeSubrange(lo..<hi)
                if report {
                    list.replace(lo..<hi, with: EmptyCollection(), report: &placements)
                } else {
                    list.removeSubrange(lo..<hi)
                }
            case 5:  // remove where
                let modulus = Int.random(in: 2..<40, using: &rng)
                let doomed = Set(model.indices.filter { $0 % modulus == 0 }.map { model[$0].id })
                for id in doomed { located[id] = nil }
                model.removeAll { doomed.contains($0.id) }
                list.removeAll(where: { doomed.contains($0.id) }, report: &placements)
            case 6:  // overwrite
                guard n > 0 else { continue }
                let at = Int.random(in: 0..<n, using: &rng)
                let item = Item(id: model[at].id, text: "t\(step)")
                model[at] = item
                list[at] = item
            default:  // append
                let new = Self.items(next..<next + Int.random(in: 1..<300, using: &rng), prefix: "a")
                next += new.count
                model.append(contentsOf: new)
                if report {
                    list.replace(list.count..<list.count, with: new, report: &placements)
                } else {
                    list.append(contentsOf: new)
                }
            }
            Self.checkStructure(list, model, "seed \(seed) step \(step) op \(kind)")
            // Placements keep an index of chunk ids exact (when every
            // mutation reports; otherwise re-index from scratch).
            if report || kind == 5 || kind == 6 {
                // Placements may name items the same call removed.
                let present = Set(model.map(\.id))
                for placement in placements ?? [] where present.contains(placement.id.string) {
                    located[placement.id.string] = placement.chunk
                }
            } else {
                located = Self.locations(list)
            }
            let actual = Self.locations(list)
            let wrong = actual.filter { located[$0.key] != $0.value }
            #expect(wrong.isEmpty && located.count == actual.count,
                    "seed \(seed) step \(step) op \(kind) report \(report): \(located.count) vs \(actual.count) \(Set(located.keys).symmetricDifference(actual.keys).prefix(3)) \(wrong.count) misplaced, e.g. \(wrong.first.map { "\($0) indexed \(located[$0.key] ?? -1)" } ?? "")")
            if !model.isEmpty {
                let r = Int.random(in: 0..<model.count, using: &rng)
                #expect(list[r] == model[r])
                #expect(list.row(of: model[r].id, inChunk: located[model[r].id] ?? -1) == r)
            }
        }
    }

    @Test func copiesAreIndependent() {
        let model = Self.items(0..<10_000)
        var a = ItemList(model)
        a.chunkify()
        let b = a
        var c = a
        var ignored: [ItemList.Placement]? = nil
        a.insert([Item(id: "x")], at: 5000, report: &ignored)
        c[9999] = Item(id: "y")
        c.removeSubrange(0..<3000)
        #expect(Array(b) == model)
        #expect(a.count == 10_001 && a[5000].id == "x" && a[9999] == model[9998])
        #expect(c.count == 7000 && c[6999].id == "y" && c[0] == model[3000])
        // Untouched chunks stay shared: only the touched one was copied.
        let shared = zip(a.chunks, b.chunks).filter { lhs, rhs in
            lhs.withUnsafeBufferPointer { l in rhs.withUnsafeBufferPointer { r in l.baseAddress == r.baseAddress } }
        }
        #expect(shared.count >= a.chunks.count - 2)
    }

    /// Items in one shared arena, as an `apply` reads them, and weak
    /// references to that arena.
    static func itemsInOneArena(_ count: Int) -> [Item] {
        var builder = ByteArena.Builder()
        return (0..<count).map { k in
            let id = Array("a\(k)".utf8), content = Array("{\"v\":\(k)}".utf8)
            return id.withUnsafeBytes { i in content.withUnsafeBytes { c in builder.item(id: i, content: c) } }
        }
    }

    /// A chunked list whose every row was written holds none of the items
    /// it replaced: the chunks cut from one buffer do not keep that buffer
    /// (and the arena its items were read into) alive once each was
    /// written, whatever the order of the writes.
    @Test(arguments: [false, true]) func writtenChunksLetGoOfTheItemsTheyReplaced(backwards: Bool) {
        weak var arena: ByteArena.Storage?
        var list: ItemList
        do {
            let items = Self.itemsInOneArena(9000)
            arena = items[0].storage?.storage
            list = ItemList(items)
        }
        list.chunkify()
        #expect(list.chunks.count > 1 && arena != nil)
        let rows = backwards ? Array(list.indices.reversed()) : Array(list.indices)
        for row in rows { list[row] = Item(id: "a\(row)", content: Content(bytes: Array("{\"v\":-\(row)}".utf8))) }
        #expect(arena == nil, "a chunk written in place kept the buffer it was cut from")
        #expect(list.count == 9000 && list[4321].id == "a4321" && list[4321].content?.bytes == Array("{\"v\":-4321}".utf8))
    }

    @Test func mergesAtTheLowerBoundAndSplitsAtTheUpper() {
        var list = ItemList(Self.items(0..<4096))
        list.chunkify()
        #expect(list.chunks.count == 4)
        var placements: [ItemList.Placement]? = []
        // Shrink the first chunk below minChunk: it merges into its neighbour.
        while list.chunks.count == 4 { _ = list.remove(at: 0, report: &placements) }
        #expect(list.chunks.count == 3 && list.count == 4096 - (1024 - ItemList.minChunk + 1))
        #expect(list.chunks.allSatisfy { $0.count <= ItemList.maxChunk })
        // Grow a chunk past maxChunk: it splits.
        let before = list.chunks.count
        list.insert(Self.items(0..<ItemList.maxChunk, prefix: "g"), at: 10, report: &placements)
        #expect(list.chunks.count > before && list.chunks.allSatisfy { $0.count <= ItemList.maxChunk })
        // Emptying a chunked list goes back to the flat form.
        list.removeSubrange(0..<list.count)
        #expect(list.isEmpty && !list.isChunked)
        list.append(Item(id: "z"))
        #expect(Array(list) == [Item(id: "z")])
    }
}

/// The mapped form (a search's visible rows): reads agree with the rows it
/// names, in every base form; every mutation materializes first, so the
/// result equals the same mutation on an array; the base is never touched.
@Suite struct MappedItemListTests {
    static func bases(_ n: Int) -> [(String, ItemList)] {
        let items = ItemListTests.items(0..<n)
        var chunked = ItemList(items)
        chunked.chunkify()
        var edited = chunked
        if n > 10 { edited.remove(at: 3) ; edited.insert(Item(id: "z"), at: 7) }
        return [("flat", ItemList(items)), ("chunked", chunked), ("edited", edited)]
    }

    @Test(arguments: [0, 5, 3000, 9000]) func readsAndMutationsMatchTheRows(n: Int) {
        var rng = SplitMix64(seed: UInt64(n) &+ 11)
        for (form, base) in Self.bases(n) {
            let baseItems = Array(base)
            for round in 0..<20 {
                let offset = round % 3 == 0 ? 100 : 0
                // Rows in any order, some out of range (left out).
                let rows = (0..<Int.random(in: 0...(n + 3), using: &rng)).map { _ in
                    Int.random(in: -2...(n + 2), using: &rng) + offset
                }
                let model = rows.map { $0 - offset }.filter { baseItems.indices.contains($0) }.map { baseItems[$0] }
                var list = ItemList(rows: rows, offset: offset, of: base)
                let note = "\(form) n=\(n) round \(round)"
                #expect(list.isMapped, "\(note)")
                #expect(list.count == model.count && Array(list) == model, "\(note): reads")
                for i in model.indices.shuffled(using: &rng).prefix(20) { #expect(list[i] == model[i], "\(note): [\(i)]") }
                #expect(list == ItemList(model), "\(note): ==")
                #expect(ItemList(rows: rows, offset: offset, of: base) == list, "\(note): same map ==")
                // A map of a map composes.
                let again = (0..<model.count).filter { $0 % 2 == 0 }
                #expect(Array(ItemList(rows: again, of: list)) == again.map { model[$0] }, "\(note): composed")
                var expected = model
                switch round % 5 {
                case 0:
                    list.append(Item(id: "new")); expected.append(Item(id: "new"))
                case 1 where !model.isEmpty:
                    list[0] = Item(id: "set"); expected[0] = Item(id: "set")
                case 2 where !model.isEmpty:
                    list.remove(at: model.count - 1); expected.removeLast()
                case 3:
                    list.chunkify()
                default:
                    list.replaceSubrange(0..<min(2, model.count), with: [Item(id: "r")])
                    expected.replaceSubrange(0..<min(2, model.count), with: [Item(id: "r")])
                }
                #expect(Array(list) == expected, "\(note): after mutation")
                #expect(Array(base) == baseItems, "\(note): base untouched")
            }
        }
    }

    /// A reader lists what iteration lists, in every form: flat, chunked,
    /// edited (chunks of several sizes), and mapped over each, with and
    /// without deferred rows.
    @Test(arguments: [0, 5, 3000, 9000]) func readersReadWhatIterationReads(n: Int) {
        var rng = SplitMix64(seed: UInt64(n) &+ 29)
        for (form, base) in Self.bases(n) {
            #expect(base.withReader { Array($0) } == Array(base), "\(form) n=\(n)")
            for round in 0..<10 {
                let rows = (0..<Int.random(in: 0...(n + 1), using: &rng)).map { _ in Int.random(in: 0..<max(n, 1), using: &rng) }
                    .filter { $0 < base.count }
                let split = Int.random(in: 0...rows.count, using: &rng)
                let rest = round % 2 == 0 ? nil : DeferredRows(count: rows.count - split) { rows[split...].map { Int32($0) } }
                let list = ItemList(rows: rest == nil ? rows : Array(rows[..<split]), of: base, rest: rest)
                let note = "\(form) n=\(n) round \(round)"
                let read = list.withReader { reader in reader.indices.map { reader[$0] } }
                #expect(read == Array(list), "\(note)")
                #expect(read == rows.map { base[$0] }, "\(note): rows")
            }
        }
    }

    /// Diffs over mapped lists (a search's visible sections) equal the
    /// diffs of their materialized copies, when an edit shares most of the
    /// storage between the two sides (rows at one address link unread) and
    /// when it changed contents in place.
    @Test(arguments: 0..<6 as Range<UInt64>) func mappedDiffsEqualMaterializedDiffs(seed: UInt64) {
        var rng = SplitMix64(seed: seed &+ 301)
        let n = 6000
        var old = ItemList((0..<n).map { Item(id: "p\($0)", content: content("\($0 % 7)")) })
        old.chunkify()
        var new = old
        for _ in 0..<Int.random(in: 1...30, using: &rng) {
            let row = Int.random(in: 0..<new.count, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: new.remove(at: row)
            case 1: new.insert(Item(id: "n\(row)-\(new.count)", content: content("x")), at: row)
            default: new[row] = Item(id: new[row].id, content: content("changed"))
            }
        }
        // The same filter on both sides, as a search keeps its query
        // through an edit, so the walk (not the symbol table) links rows.
        func shown(_ item: Item) -> Bool { item.id.utf8.reduce(0) { $0 + Int($1) } % 3 != 0 }
        let oldRows = (0..<old.count).filter { shown(old[$0]) }
        let newRows = (0..<new.count).filter { shown(new[$0]) }
        let mapped = (Snapshot(sections: [Section(id: "s", items: ItemList(rows: oldRows, of: old))]),
                      Snapshot(sections: [Section(id: "s", items: ItemList(rows: newRows, of: new))]))
        let copied = (Snapshot(sections: [Section(id: "s", items: ItemList(oldRows.map { old[$0] }))]),
                      Snapshot(sections: [Section(id: "s", items: ItemList(newRows.map { new[$0] }))]))
        let changeset = mapped.0.difference(to: mapped.1)
        #expect(changeset == copied.0.difference(to: copied.1), "seed \(seed)")
        #expect((try? mapped.0.applyingBatch(changeset, contentFrom: mapped.1)) == mapped.1, "seed \(seed): replay")
    }
}
