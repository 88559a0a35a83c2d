import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// Edits that only append items take their own path
/// (`Snapshot.appendingItems`): for random snapshots (sections past a
/// chunk's size too, so appends split chunks) and random batches of
/// `appendItems` ops, some naming ids already there, twice in one op or in
/// two ops, or an unknown section, it gives exactly what the general path
/// gives: the same snapshot and changeset, the same error, and an index
/// equal to one built afresh from the edited snapshot (untouched on error).
struct EditAppendTests {
    struct Generator: RandomSnapshots {
        var rng: SplitMix64
        var nextID = 0
        var noContentChance: Double { 0.3 }
    }

    static func ops(on snapshot: Snapshot, _ g: inout Generator) -> [EditOperation] {
        let ids = snapshot.sections.flatMap { $0.items.map(\.id) }
        var ops: [EditOperation] = []
        var earlier: [String] = []
        for _ in 0..<g.int(1..<4) {
            let large = g.chance(0.15)
            var items = (0..<(large ? g.int(1000..<5000) : g.int(0..<12))).map { _ in g.freshItem() }
            if !items.isEmpty, g.chance(0.1), let existing = ids.randomElement(using: &g.rng) {
                items[g.int(0..<items.count)] = Item(id: existing)
            }
            if items.count > 1, g.chance(0.1) { items.append(items[g.int(0..<items.count)]) }
            if g.chance(0.05), let again = earlier.randomElement(using: &g.rng) { items.append(Item(id: again)) }
            earlier += items.map(\.id)
            let section: String?
            switch g.int(0..<10) {
            case 0: section = nil
            case 1: section = "nowhere"
            default: section = snapshot.sections.randomElement(using: &g.rng)?.id ?? "nowhere"
            }
            ops.append(.appendItems(items, toSection: section))
        }
        return ops
    }

    @Test func appendsGiveWhatTheGeneralPathGives() throws {
        var failures = 0, successes = 0
        for seed in UInt64(1)...300 {
            var g = Generator(rng: SplitMix64(seed: seed))
            var snapshot = g.randomSnapshot(maxSections: 3, maxItems: 8)
            if g.chance(0.3), !snapshot.sections.isEmpty {
                // A section of several chunks: appends split its last one.
                for _ in 0..<g.int(2000..<6000) { snapshot.sections[0].items.append(g.freshItem()) }
            }
            snapshot.chunkify()
            let original = EditIndex(snapshot)
            let ops = Self.ops(on: snapshot, &g)
            var fastIndex = original, generalIndex = original
            var fast: Result<(snapshot: Snapshot, changeset: Changeset), EditError>
            var general: Result<(snapshot: Snapshot, changeset: Changeset), EditError>
            do throws(EditError) {
                guard let appended = try snapshot.appendingItems(ops, index: &fastIndex) else {
                    Issue.record("seed \(seed): appends must take the append path")
                    continue
                }
                fast = .success(appended)
            } catch { fast = .failure(error) }
            do throws(EditError) {
                general = .success(try snapshot.applyingEditsInGeneral(ops, index: &generalIndex))
            } catch { general = .failure(error) }
            switch (fast, general) {
            case let (.success(a), .success(b)):
                successes += 1
                #expect(a.snapshot == b.snapshot, "seed \(seed): snapshot")
                #expect(a.changeset == b.changeset, "seed \(seed): changeset")
                let fresh = EditIndex(a.snapshot)
                #expect(fastIndex.locationOfItem == fresh.locationOfItem, "seed \(seed): index of the edited snapshot")
                #expect(fastIndex.sectionPosition == fresh.sectionPosition, "seed \(seed): section positions")
                #expect(try snapshot.applyingBatch(a.changeset, contentFrom: a.snapshot) == a.snapshot,
                        "seed \(seed): the changeset replays")
            case let (.failure(a), .failure(b)):
                failures += 1
                #expect(a == b, "seed \(seed): the same error")
                #expect(fastIndex.locationOfItem == original.locationOfItem, "seed \(seed): index untouched")
            default:
                Issue.record("seed \(seed): one path failed, the other did not: \(fast) vs \(general)")
            }
        }
        // Both outcomes are exercised.
        #expect(failures > 20 && successes > 100, "failures \(failures), successes \(successes)")
    }

    /// Other ops, or appends mixed with them, take the general path.
    @Test func otherOpsTakeTheGeneralPath() throws {
        let snapshot = Snapshot(sections: [Section(id: "s", items: [Item(id: "a")])])
        var index = EditIndex(snapshot)
        #expect(try snapshot.appendingItems([.appendItems([Item(id: "b")], toSection: "s"), .deleteItems(["a"])],
                                            index: &index) == nil)
        #expect(try snapshot.appendingItems([], index: &index) == nil)
    }
}
