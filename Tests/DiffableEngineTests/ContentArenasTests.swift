import Testing
import DiffableTestSupport
@testable import DiffableEngine

/// Content edits made in place (`editContentsInPlace`) write changed rows
/// into the source's shared arenas and copy rows out of arenas left
/// mostly dead (`ContentArenas`): the rows are those `edit` gives, and the
/// bytes the rows keep alive stay within the bound (at most a quarter of
/// each arena dead, plus the arena being written).
struct ContentArenasTests {
    /// Items as `apply` decodes them: packed into a builder's arenas, their
    /// use recorded.
    static func packed(_ items: [(id: String, content: [UInt8], text: String?)]) -> [Item] {
        var builder = ByteArena.Builder()
        var use = ArenaUse()
        let result = items.map { row -> Item in
            var id = row.id
            let item = id.withUTF8 { id in
                row.content.withUnsafeBytes { builder.item(id: UnsafeRawBufferPointer(id), content: $0) }
            }
            use.add(item)
            return item
        }
        use.record()
        return result
    }

    /// Bytes written in the distinct arenas the snapshot's items use, and
    /// the bytes those items use of them.
    static func held(_ snapshot: Snapshot) -> (written: Int, used: Int) {
        var seen = Set<UInt>(), written = 0, used = 0
        for section in snapshot.sections {
            for item in section.items {
                used += item.arenaBytes
                guard let arena = item.arena, seen.insert(item.arenaAddress).inserted else { continue }
                written += arena.used
            }
        }
        return (written, used)
    }

    @Test(arguments: 0..<8 as Range<UInt64>)
    func rowsAreEditsAndDeadBytesStayBounded(seed: UInt64) throws {
        var rng = SplitMix64(seed: 0xA4E7 &+ seed)
        func int(_ r: Range<Int>) -> Int { Int.random(in: r, using: &rng) }
        func content() -> [UInt8] { Array("{\"v\":\(int(0..<1_000_000)),\"pad\":\"\(String(repeating: "x", count: int(0..<40)))\"}".utf8) }
        let n = [300, 2500, 5000][Int(seed % 3)]
        let ids = (0..<n).map { "r\($0)" }
        let start = Snapshot(sections: [Section(id: "s", items: ItemList(Self.packed(ids.map { ($0, content(), nil) })))])
        var inPlace = DataSource(name: "p"), general = DataSource(name: "g")
        let arenaSize = 2_048
        inPlace.contentArenas = ContentArenas(arenaSize: arenaSize)
        _ = try inPlace.apply(start)
        _ = try general.apply(start)
        for round in 0..<150 {
            var ops: [EditOperation] = []
            for _ in 0..<int(1..<4) {
                let updates = (0..<int(1..<40)).map { _ -> ContentUpdate in
                    let bytes = content()
                    // Some with a search text of their own, kept after the content.
                    let text = int(0..<4) == 0 ? "t\(int(0..<100))" : nil
                    return ContentUpdate(id: ids[int(0..<n)], content: Content(bytes: bytes), text: text)
                }
                ops.append(.setContent(updates, style: .reload))
            }
            // Now and then an edit that fails at its end: nothing changes.
            let failing = int(0..<10) == 0
            if failing { ops.append(.transformContent(ContentTransform(id: ids[0]) { _ throws(ContentTransformFailure) in
                throw ContentTransformFailure("refused", step: 0)
            })) }
            let reference = try? general.edit(ops)
            let update = try? inPlace.editContentsInPlace(ops)
            #expect((reference == nil) == failing && (update == nil) == failing, "seed \(seed) round \(round)")
            #expect(inPlace.snapshot == general.snapshot, "seed \(seed) round \(round)")
            if let reference, let update { #expect(update.changeset == reference.changeset) }
            for (a, b) in zip(inPlace.snapshot.sections[0].items, general.snapshot.sections[0].items) {
                #expect(a.text == b.text, "seed \(seed) round \(round) \(b.id)")
            }
            let (written, used) = Self.held(inPlace.snapshot)
            // Each arena that lost rows is at least 3/4 used, or was copied
            // out, or waits for it (an edit copies about what it wrote, so
            // some arenas' worth); the one being written may be anything.
            #expect(written * 3 <= used * 4 + 3 * 4 * (arenaSize + 128), "seed \(seed) round \(round): \(written) written, \(used) used")
        }
    }
}
