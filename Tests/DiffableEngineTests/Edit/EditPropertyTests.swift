import Testing
@testable import DiffableEngine

/// Seeded random snapshots and op sequences: the edit result, its
/// op-derived changeset and the DataSource path are checked against a naive
/// implementation and the reference replayers.
struct EditPropertyTests {
    /// Sorted as `Changeset` promises.
    static func isSorted(_ c: Changeset) -> Bool {
        func ascending<T>(_ a: [T], _ key: (T) -> ItemPath) -> Bool {
            zip(a, a.dropFirst()).allSatisfy { key($0) < key($1) }
        }
        func ascendingInt<T>(_ a: [T], _ key: (T) -> Int) -> Bool {
            zip(a, a.dropFirst()).allSatisfy { key($0) < key($1) }
        }
        return ascendingInt(c.sectionDeletes, { $0 }) && ascendingInt(c.sectionInserts, { $0 })
            && ascendingInt(c.sectionMoves, { $0.to }) && ascendingInt(c.sectionReloads, { $0.old })
            && ascending(c.itemDeletes, { $0 }) && ascending(c.itemInserts, { $0 })
            && ascending(c.itemMoves, { $0.to }) && ascending(c.itemReloads, { $0.old })
            && ascending(c.itemReconfigures, { $0.old })
    }

    /// No old path is both reloaded and reconfigured (the replayer checks the rest).
    static func updatesDisjoint(_ c: Changeset) -> Bool {
        Set(c.itemReloads.map(\.old)).isDisjoint(with: c.itemReconfigures.map(\.old))
    }

    static func check(_ old: Snapshot, _ ops: [EditOperation], expected: Snapshot, seed: UInt64) {
        let result: (snapshot: Snapshot, changeset: Changeset)
        do {
            result = try old.applyingEdits(ops)
        } catch {
            Issue.record("seed \(seed): unexpected \(error) for \(ops)")
            return
        }
        let (new, c) = result
        // (a) same result as the naive implementation.
        #expect(new == expected, "seed \(seed): edit result differs from naive; ops \(ops)")
        #expect(isSorted(c), "seed \(seed): changeset not sorted \(c)")
        #expect(updatesDisjoint(c), "seed \(seed): reload and reconfigure of one row \(c)")
        // (b) the op-derived changeset replays in both forms.
        do {
            let batch = try old.applyingBatch(c, contentFrom: new)
            #expect(batch == new, "seed \(seed): batch replay differs\nops \(ops)\nchangeset \(c)\nold \(old)")
        } catch {
            Issue.record("seed \(seed): batch replay rejected: \(error)\nops \(ops)\nchangeset \(c)\nold \(old)\nnew \(new)")
        }
        let steps = c.steps(from: old, to: new)
        #expect(c.isEmpty == steps.isEmpty, "seed \(seed): steps lost (invalid changeset?) \(c)")
        do {
            let replayed = try old.applyingSteps(steps, contentFrom: new)
            #expect(replayed == new, "seed \(seed): steps replay differs\nops \(ops)\nsteps \(steps)")
        } catch {
            Issue.record("seed \(seed): steps replay rejected: \(error)\nops \(ops)\nsteps \(steps)")
        }
        // (c) diffing the snapshots reaches the same state.
        let diff = old.difference(to: new)
        #expect((try? old.applyingBatch(diff, contentFrom: new)) == new, "seed \(seed): difference disagrees")
        // Nothing that did not change is reported as inserted or deleted when
        // the diff says it survives.
        #expect(c.sectionDeletes.count == diff.sectionDeletes.count, "seed \(seed): section deletes \(c) vs \(diff)")
        #expect(c.sectionInserts.count == diff.sectionInserts.count, "seed \(seed): section inserts")
        #expect(c.itemDeletes == diff.itemDeletes || c.itemDeletes.count >= diff.itemDeletes.count)
    }

    @Test(arguments: 0..<300 as Range<UInt64>)
    func randomEditsMatchNaiveAndReplay(seed: UInt64) {
        var g = EditGenerator(seed: seed)
        let old = g.randomSnapshot()
        let (ops, expected) = g.randomOps(on: old, count: g.int(1..<9))
        Self.check(old, ops, expected: expected, seed: seed)
    }

    @Test(arguments: 1000..<1100 as Range<UInt64>)
    func singleOpsOnLargerSnapshots(seed: UInt64) {
        var g = EditGenerator(seed: seed)
        let old = g.randomSnapshot(maxSections: 8, maxItems: 30)
        for _ in 0..<5 {
            let (ops, expected) = g.randomOps(on: old, count: 1)
            Self.check(old, ops, expected: expected, seed: seed)
        }
    }

    /// A chain of edits on one DataSource (the kept index is reused and
    /// updated), compared with `apply` of the naive results.
    @Test(arguments: 2000..<2060 as Range<UInt64>)
    func dataSourceEditChainsAgreeWithApply(seed: UInt64) throws {
        var g = EditGenerator(seed: seed)
        var edited = DataSource(name: "e")
        var applied = DataSource(name: "a")
        let start = g.randomSnapshot()
        _ = try edited.apply(start)
        _ = try applied.apply(start)
        for round in 0..<8 {
            let before = edited.snapshot
            let (ops, expected) = g.randomOps(on: before, count: g.int(1..<6))
            let update = try edited.edit(ops)
            let reference = try applied.apply(expected)
            #expect(edited.snapshot == expected, "seed \(seed) round \(round): \(ops)")
            #expect(edited.version == applied.version)
            #expect(update.oldVisible == before && update.newVisible == expected)
            #expect((try? before.applyingBatch(update.changeset, contentFrom: expected)) == expected,
                    "seed \(seed) round \(round): edit changeset does not replay: \(ops)")
            #expect((try? before.applyingBatch(reference.changeset, contentFrom: expected)) == expected)
            if let index = edited.editIndex {
                #expect(index.sectionOfItem == EditIndex(expected).sectionOfItem, "seed \(seed): stale item index")
                #expect(index.sectionPosition == EditIndex(expected).sectionPosition, "seed \(seed): stale section index")
            }
        }
    }

    /// (d) An invalid op anywhere fails the whole edit, names its index, and
    /// leaves the source (version, snapshot, index) untouched.
    @Test(arguments: 3000..<3150 as Range<UInt64>)
    func invalidOpLeavesEverythingUntouched(seed: UInt64) throws {
        var g = EditGenerator(seed: seed)
        var source = DataSource(name: "x")
        let start = g.randomSnapshot()
        _ = try source.apply(start)
        let (prefix, reached) = g.randomOps(on: start, count: g.int(0..<5))
        let present = reached.sections.flatMap { $0.items.map(\.id) }
        let sectionIDs = reached.sections.map(\.id)
        var candidates: [(EditOperation, EditError.Reason)] = [
            (.deleteItems(["nope"]), .unknownItem),
            (.moveItem("nope", .after(present.first ?? "nope2")), .unknownItem),
            (.reloadSections(["nope"]), .unknownSection),
            (.insertSections([Section(id: "z1")], .before("nope")), .unknownSection),
            (.appendItems([Item(id: "z2")], toSection: "nope"), .unknownSection),
        ]
        if let id = present.first {
            candidates.append((.appendSections([Section(id: "z3", items: [Item(id: id)])]), .duplicateItem))
            candidates.append((.insertItems([Item(id: "z4")], .after("nope")), .unknownItem))
            candidates.append((.moveItem(id, .before(id)), .relativeToItself))
            candidates.append((.deleteItems([id, id]), .duplicateItem))
        }
        if let id = sectionIDs.first {
            candidates.append((.appendSections([Section(id: id)]), .duplicateSection))
            candidates.append((.moveSection(id, .after(id)), .relativeToItself))
        } else {
            candidates.append((.appendItems([Item(id: "z5")], toSection: nil), .noSection))
        }
        let (bad, reason) = candidates[g.int(0..<candidates.count)]
        let ops = prefix + [bad] + [.deleteAllItems]
        let version = source.version
        #expect(throws: EditError.self) { try start.applyingEdits(ops) }
        do {
            _ = try source.edit(ops)
            Issue.record("seed \(seed): \(ops) should fail")
        } catch {
            #expect(error.op == prefix.count, "seed \(seed): \(error)")
            #expect(error.reason == reason, "seed \(seed): \(error)")
            #expect(error.opName == bad.name)
        }
        #expect(source.version == version)
        #expect(source.snapshot == start)
        #expect(source.editIndex.map { $0.sectionOfItem == EditIndex(start).sectionOfItem } ?? true)
        // The source still edits correctly afterwards.
        let (next, expected) = g.randomOps(on: start, count: 3)
        _ = try source.edit(next)
        #expect(source.snapshot == expected)
        #expect(NaiveEdit.apply(ops, to: start).failedAt == prefix.count)
    }
}
