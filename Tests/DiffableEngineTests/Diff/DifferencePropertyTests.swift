import Testing
@testable import DiffableEngine

@Suite("Snapshot.difference properties")
struct DifferencePropertyTests {
    /// Every check a changeset between `old` and `new` must pass.
    static func verify(_ old: Snapshot, _ new: Snapshot, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) {
        let c = old.difference(to: new)
        let tag = "seed \(seed)"
        func ascending<T>(_ values: [T], _ less: (T, T) -> Bool) -> Bool {
            zip(values, values.dropFirst()).allSatisfy { less($0, $1) }
        }
        #expect(ascending(c.sectionDeletes, <), "\(tag) sectionDeletes", sourceLocation: sourceLocation)
        #expect(ascending(c.sectionInserts, <), "\(tag) sectionInserts", sourceLocation: sourceLocation)
        #expect(ascending(c.sectionMoves) { $0.to < $1.to }, "\(tag) sectionMoves", sourceLocation: sourceLocation)
        #expect(ascending(c.sectionReloads) { $0.old < $1.old && $0.new < $1.new }, "\(tag) sectionReloads", sourceLocation: sourceLocation)
        #expect(ascending(c.itemDeletes, <), "\(tag) itemDeletes", sourceLocation: sourceLocation)
        #expect(ascending(c.itemInserts, <), "\(tag) itemInserts", sourceLocation: sourceLocation)
        #expect(ascending(c.itemMoves) { $0.to < $1.to }, "\(tag) itemMoves", sourceLocation: sourceLocation)
        #expect(ascending(c.itemReloads) { $0.old < $1.old }, "\(tag) itemReloads", sourceLocation: sourceLocation)
        if old == new { #expect(c.isEmpty, "\(tag) identical", sourceLocation: sourceLocation) }

        do {
            let batch = try old.applyingBatch(c, contentFrom: new)
            #expect(batch == new, "\(tag) batch replay\nold \(old)\nnew \(new)\n\(c)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(tag) batch replay threw \(error)\nold \(old)\nnew \(new)\n\(c)", sourceLocation: sourceLocation)
        }

        let steps = c.steps(from: old, to: new)
        let phases = steps.map(phase(of:))
        #expect(ascending(phases, <=), "\(tag) phase order \(steps)", sourceLocation: sourceLocation)
        var lastDelete: ItemPath?
        for step in steps {
            if case let .deleteItems(s, r, _) = step {
                let here = ItemPath(section: s, row: r)
                #expect(lastDelete.map { here < $0 } ?? true, "\(tag) item deletes descending", sourceLocation: sourceLocation)
                lastDelete = here
            }
        }
        do {
            let sequential = try old.applyingSteps(steps, contentFrom: new)
            #expect(sequential == new, "\(tag) steps replay\nold \(old)\nnew \(new)\n\(steps)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(tag) steps replay threw \(error)\nold \(old)\nnew \(new)\n\(steps)", sourceLocation: sourceLocation)
        }
    }

    @Test func derivedPairs() {
        // How often each kind of operation shows up, to keep the generator honest.
        var seen: [String: Int] = [:]
        for seed in UInt64(0)..<3000 {
            var g = PairGenerator(seed: seed)
            let old = g.randomSnapshot()
            let intensity = [0.0, 0.05, 0.2, 0.5, 0.9][g.int(0..<5)]
            let new = g.derive(from: old, intensity: intensity)
            Self.verify(old, new, seed: seed)
            Self.verify(new, old, seed: seed)
            let c = old.difference(to: new)
            seen["sectionDelete", default: 0] += c.sectionDeletes.count
            seen["sectionInsert", default: 0] += c.sectionInserts.count
            seen["sectionMove", default: 0] += c.sectionMoves.count
            seen["sectionMoveHeader", default: 0] += c.sectionMoves.filter(\.headerChanged).count
            seen["sectionReload", default: 0] += c.sectionReloads.count
            seen["itemDelete", default: 0] += c.itemDeletes.count
            seen["itemInsert", default: 0] += c.itemInserts.count
            seen["itemMoveWithin", default: 0] += c.itemMoves.filter { $0.from.section == $0.to.section }.count
            seen["itemMoveAcross", default: 0] += c.itemMoves.filter { $0.from.section != $0.to.section }.count
            seen["itemMoveContent", default: 0] += c.itemMoves.filter(\.contentChanged).count
            seen["itemReload", default: 0] += c.itemReloads.count
            seen["empty", default: 0] += c.isEmpty ? 1 : 0
        }
        for (kind, count) in seen {
            #expect(count >= 20, "generator rarely produces \(kind): \(count)")
        }
        #expect(seen.count == 12)
    }

    @Test func largerDerivedPairs() {
        for seed in UInt64(10_000)..<10_200 {
            var g = PairGenerator(seed: seed)
            let old = g.randomSnapshot(maxSections: 12, maxItems: 40)
            let new = g.derive(from: old, intensity: [0.02, 0.2, 0.6][g.int(0..<3)])
            Self.verify(old, new, seed: seed)
        }
    }

    /// Long sections with long runs of edits exercise the walk's look-ahead
    /// and give-up paths; a weak id hash exercises the collision fallback.
    @Test func longSectionsAndCollisions() {
        for seed in UInt64(50_000)..<50_040 {
            var g = PairGenerator(seed: seed)
            let old = g.randomSnapshot(maxSections: 2, maxItems: 700)
            let new = g.derive(from: old, intensity: [0.01, 0.3, 0.9][g.int(0..<3)])
            Self.verify(old, new, seed: seed)
            let weak = old.difference(to: new, hashingIDsWith: { $0.utf8.count })
            #expect(weak == old.difference(to: new), "seed \(seed): collision fallback")
        }
        var g = PairGenerator(seed: 7)
        let old = g.randomSnapshot(maxSections: 1, maxItems: 500)
        var shuffled = old
        if !shuffled.sections.isEmpty { shuffled.sections[0].items.shuffle(using: &g.rng) }
        Self.verify(old, shuffled, seed: 7)
    }

    /// Items carry 32-bit id hashes, so distinct ids of a large list share
    /// one now and then: two such ids must never be taken for one, in the
    /// walk or in the table.
    @Test func idsSharingAHashStayDistinct() throws {
        let (a, b) = try #require(Item.idsSharingAHash(prefix: "collision-candidate-"))
        #expect(Item(id: a).idHash == Item(id: b).idHash && a != b)
        func snapshot(_ ids: [String]) -> Snapshot {
            Snapshot(sections: [Section(id: "s", items: ids.map { Item(id: $0, content: Content(bytes: Array($0.utf8))) })])
        }
        let filler = (0..<100).map { "filler-\($0)" }
        // In place (the walk), and far apart (the table).
        Self.verify(snapshot(["p", a, "q"]), snapshot(["p", b, "q"]), seed: 0)
        Self.verify(snapshot([a] + filler), snapshot(filler.reversed() + [b]), seed: 1)
        Self.verify(snapshot([a, b] + filler), snapshot(filler.shuffled() + [b, a]), seed: 2)
        let change = snapshot(["p", a, "q"]).difference(to: snapshot(["p", b, "q"]))
        #expect(change.itemDeletes.count == 1 && change.itemInserts.count == 1 && change.itemReloads.isEmpty)
    }

    @Test func unrelatedPairs() {
        for seed in UInt64(20_000)..<23_000 {
            var g = PairGenerator(seed: seed)
            let (old, new) = g.randomPair()
            Self.verify(old, new, seed: seed)
        }
    }

    @Test func extremePairs() {
        for seed in UInt64(30_000)..<30_300 {
            var g = PairGenerator(seed: seed)
            let old = g.randomSnapshot()
            let other = g.randomSnapshot()
            Self.verify(old, other, seed: seed)  // all new
            Self.verify(old, Snapshot(), seed: seed)  // all deleted
            Self.verify(Snapshot(), old, seed: seed)
            let emptied = Snapshot(sections: old.sections.map { Section(id: $0.id, header: $0.header) })
            Self.verify(old, emptied, seed: seed)
            Self.verify(emptied, old, seed: seed)
            let reversed = Snapshot(sections: old.sections.reversed().map {
                Section(id: $0.id, header: $0.header, items: $0.items.reversed())
            })
            Self.verify(old, reversed, seed: seed)
            Self.verify(old, old, seed: seed)
        }
    }

    /// Moves are minimal: removing any one operation from a correct changeset
    /// breaks it, and the batch replayer notices (throws or gives a wrong result).
    @Test func replayerRejectsIncompleteChangesets() {
        var checked = 0
        for seed in UInt64(40_000)..<40_500 {
            var g = PairGenerator(seed: seed)
            let old = g.randomSnapshot()
            let new = g.derive(from: old, intensity: 0.4)
            let c = old.difference(to: new)
            for variant in Self.withOneOperationRemoved(c) {
                checked += 1
                let result = try? old.applyingBatch(variant, contentFrom: new)
                #expect(result != new, "seed \(seed): incomplete changeset accepted \(variant)")
            }
        }
        #expect(checked > 1000)
    }

    /// Every changeset obtained by removing exactly one operation from `c`.
    static func withOneOperationRemoved(_ c: Changeset) -> [Changeset] {
        var variants: [Changeset] = []
        func each<T>(_ keyPath: WritableKeyPath<Changeset, [T]>) {
            for i in c[keyPath: keyPath].indices {
                var v = c
                v[keyPath: keyPath].remove(at: i)
                variants.append(v)
            }
        }
        each(\.sectionDeletes)
        each(\.sectionInserts)
        each(\.sectionMoves)
        each(\.sectionReloads)
        each(\.itemDeletes)
        each(\.itemInserts)
        each(\.itemMoves)
        each(\.itemReloads)
        for i in c.itemMoves.indices where c.itemMoves[i].contentChanged {
            var v = c
            v.itemMoves[i].contentChanged = false
            variants.append(v)
        }
        for i in c.sectionMoves.indices where c.sectionMoves[i].headerChanged {
            var v = c
            v.sectionMoves[i].headerChanged = false
            variants.append(v)
        }
        return variants
    }
}
