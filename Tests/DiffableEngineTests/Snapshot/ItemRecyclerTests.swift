import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// `ItemRecycler`: what it hands back is always the item asked for, and it
/// finds the unchanged items of a lightly edited list.
struct ItemRecyclerTests {
    static func item(_ n: Int, version: Int = 0) -> Item {
        // UUID-sized ids (not inline small strings), content with a version.
        Item(id: "0000-item-\(n)-aaaaaaaa-bbbbbbbb-cccc", content: Content(bytes: Array("{\"v\":\(version)}".utf8)))
    }

    /// Feeds `new` to a recycler of `old` (a flat list, or the same list in
    /// chunks); returns how many items came back recycled, after checking
    /// each one is exactly the item asked for.
    static func recycle(_ old: [Item], _ new: [Item], chunked: Bool, near: Int = 0,
                        sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var list = ItemList(old)
        if chunked { list.chunkify() }
        return list.withRecycler(near: near) { recycler in
            var hits = 0
            for item in new {
                let found = item.id.utf8.withContiguousStorageIfAvailable { id in
                    if let content = item.content {
                        return content.bytes.withUnsafeBufferPointer { recycler.take(id: id, content: $0) }
                    }
                    return recycler.take(id: id, content: nil)
                } ?? nil
                guard let found else { continue }
                hits += 1
                #expect(found.id == item.id && found.content == item.content, "asked for \(item), got \(found)",
                        sourceLocation: sourceLocation)
            }
            return hits
        }
    }

    @Test func anUnchangedListIsRecycledWhole() {
        let old = (0..<5000).map { Self.item($0) }
        #expect(Self.recycle(old, old, chunked: false) == 5000)
        #expect(Self.recycle(old, old, chunked: true) == 5000)
        // A part read from the middle of a request starts near its place.
        #expect(Self.recycle(old, Array(old[2500...]), chunked: true, near: 2400) == 2500)
    }

    /// Changed contents, runs inserted and deleted (shorter and longer than
    /// the look-ahead, longer than the wide window), moved items: every
    /// item handed back is the one asked for, and almost every unchanged
    /// item is found.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func editedListsRecycleTheirUnchangedItems(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for round in 0..<20 {
            let old = (0..<Int.random(in: 0...20_000, using: &rng)).map { Self.item($0) }
            var new: [Item] = []
            var fresh = 1_000_000
            var i = 0
            while i < old.count {
                switch Int.random(in: 0..<400, using: &rng) {
                case 0: i += Int.random(in: 1...(round % 4 == 0 ? 6000 : 200), using: &rng)  // deleted run
                case 1:  // inserted run
                    for _ in 0..<Int.random(in: 1...200, using: &rng) { new.append(Self.item(fresh)); fresh += 1 }
                case 2..<6: new.append(Self.item(i, version: 1)); i += 1  // content changed
                case 6: new.insert(old[i], at: Int.random(in: 0...new.count, using: &rng)); i += 1  // moved up
                default: new.append(old[i]); i += 1
                }
            }
            let oldIDs = Set(old.map(\.id))
            let unchanged = new.filter { oldIDs.contains($0.id) && $0.content == Self.item(0).content }.count
            let hits = Self.recycle(old, new, chunked: round % 2 == 1)
            #expect(hits <= unchanged)
            // A deleted run longer than the look-ahead costs a few misses
            // before the wide search: a small list may lose a larger share.
            #expect(hits * 100 >= unchanged * 90 || unchanged - hits <= 16, "seed \(seed) round \(round): \(hits) of \(unchanged) unchanged found")
        }
    }

    /// A list in another order, or of other items: nothing wrong comes back
    /// (`recycle` checks each one).
    @Test func shuffledAndUnrelatedLists() {
        var rng = SplitMix64(seed: 9)
        let old = (0..<3000).map { Self.item($0) }
        _ = Self.recycle(old, old.shuffled(using: &rng), chunked: false)
        _ = Self.recycle(old, old.reversed(), chunked: true)
        #expect(Self.recycle(old, (5000..<9000).map { Self.item($0) }, chunked: false) == 0)
        #expect(Self.recycle(old, old.map { Self.item(Int($0.id.split(separator: "-")[2])!, version: 2) }, chunked: false) == 0)
        // No content asked for vs content held, and the reverse.
        #expect(Self.recycle(old, old.map { Item(id: $0.id) }, chunked: false) == 0)
        #expect(Self.recycle(old.map { Item(id: $0.id) }, old, chunked: false) == 0)
        #expect(Self.recycle(old.map { Item(id: $0.id) }, old.map { Item(id: $0.id) }, chunked: false) == 3000)
    }

    /// The table of every held row goes by 32-bit id hashes: an id that
    /// shares its hash (and its content) with a held one is not that one.
    @Test func anIDSharingAHashIsNotTakenForAnother() throws {
        let (a, b) = try #require(Item.idsSharingAHash(prefix: "recycled-candidate-"))
        let content = Content(bytes: Array("{\"v\":0}".utf8))
        let old = [Item(id: a, content: content)] + (0..<9999).map { Self.item($0) }
        // Misses first, so that the wide search fails and the table is built.
        let asked = (0..<10).map { Item(id: "absent-\($0)", content: content) } + [Item(id: b, content: content)]
        #expect(Self.recycle(old, asked, chunked: false) == 0)
        #expect(Self.recycle(old, asked + [old[0]], chunked: false) == 1)
    }
}
