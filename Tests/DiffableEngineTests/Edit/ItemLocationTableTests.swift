import Testing
@testable import DiffableEngine
import DiffableTestSupport

@Suite struct ItemLocationTableTests {
    /// Random inserts, updates and removals (from a few ids to thousands,
    /// so the table grows and is rebuilt over its removed slots) give the
    /// same answers as a `Dictionary`: every lookup, every replaced or
    /// removed location, the count, the entries iterated, and equality.
    @Test(arguments: 0..<12) func behavesAsADictionary(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 1201)
        let universe = seed % 3 == 0 ? 20 : Int.random(in: 200...6000, using: &rng)
        let ids = (0..<universe).map { ItemID("id-\($0)-\(seed)") }
        var table = ItemLocationTable(minimumCapacity: seed % 2 == 0 ? 0 : universe / 2)
        var model: [ItemID: EditIndex.Location] = [:]
        for step in 0..<(universe * 6) {
            let id = ids[Int.random(in: 0..<universe, using: &rng)]
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let location = EditIndex.Location(section: "s\(step % 3)", chunk: step % 7)
                #expect(table.updateValue(location, forKey: id) == model.updateValue(location, forKey: id), "seed \(seed) step \(step)")
            case 5..<8:
                #expect(table.removeValue(forKey: id) == model.removeValue(forKey: id), "seed \(seed) step \(step)")
            case 8:
                table[id] = nil; model[id] = nil
            case 9 where step % 5 == 0:
                // A batch's way in: room reserved, slots prefetched, the
                // hash given.
                table.reserveCapacity(table.count + Int.random(in: 0..<64, using: &rng))
                table.prefetchSlots([id.hashValue])
                let location = EditIndex.Location(section: "b\(step % 3)", chunk: step % 5)
                #expect(table.updateValue(location, forKey: id, hash: id.hashValue) == model.updateValue(location, forKey: id),
                        "seed \(seed) step \(step)")
            default:
                #expect(table[id] == model[id], "seed \(seed) step \(step)")
            }
            #expect(table.count == model.count)
        }
        for id in ids { #expect(table[id] == model[id], "seed \(seed)") }
        var iterated: [ItemID: EditIndex.Location] = [:]
        for (id, location) in table { #expect(iterated.updateValue(location, forKey: id) == nil, "an id iterated twice") }
        #expect(iterated == model)

        var rebuilt = ItemLocationTable()
        for (id, location) in model.shuffled(using: &rng) { rebuilt[id] = location }
        #expect(rebuilt == table)
        if let (id, location) = model.first {
            rebuilt[id] = EditIndex.Location(section: location.section + "x", chunk: location.chunk)
            #expect(rebuilt != table)
            rebuilt[id] = nil
            #expect(rebuilt != table)
        }
    }
}
