import Testing
@testable import DiffableEngine
import DiffableTestSupport

@Suite("Replayers reject broken input")
struct ReplayRejectionTests {
    let old = snap(("A", ["a", "b", "c"]), ("B", ["d"]))
    let new = snap(("A", ["a", "x", "c"]), ("B", ["d", "b"]))

    func kind(_ c: Changeset) -> ReplayError.Kind? {
        do {
            _ = try old.applyingBatch(c, contentFrom: new)
            return nil
        } catch let error as ReplayError {
            return error.kind
        } catch {
            return nil
        }
    }

    var valid: Changeset { old.difference(to: new) }

    @Test func validChangesetApplies() throws {
        #expect(valid.itemMoves == [.init(from: path(0, 1), to: path(1, 1))])
        #expect(valid.itemInserts == [path(0, 1)])
        #expect(try old.applyingBatch(valid, contentFrom: new) == new)
    }

    @Test func missingInsert() {
        var c = valid
        c.itemInserts = []
        #expect(kind(c) == .countMismatch)
    }

    @Test func outOfRange() {
        var c = valid
        c.itemDeletes = [path(0, 7)]
        #expect(kind(c) == .outOfRange)
        c = valid
        c.itemInserts = [path(5, 0)]
        #expect(kind(c) == .outOfRange)
        c = valid
        c.sectionDeletes = [-1]
        #expect(kind(c) == .outOfRange)
    }

    @Test func deletedAndReloaded() {
        var c = valid
        c.itemDeletes = [path(0, 0)]
        c.itemReloads = [.init(old: path(0, 0), new: path(0, 0))]
        #expect(kind(c) == .conflict)
    }

    @Test func deletedAndMoved() {
        var c = valid
        c.itemDeletes = [path(0, 1)]
        #expect(kind(c) == .conflict)
    }

    @Test func duplicateDestination() {
        var c = valid
        c.itemInserts = [path(1, 1)]
        #expect(kind(c) == .conflict)
    }

    @Test func rowOperationInDeletedOrInsertedSection() {
        let old = snap(("A", ["a"]), ("B", ["b"]))
        let new = snap(("A", ["a", "b"]), ("N", []))
        var c = old.difference(to: new)
        #expect(c.sectionDeletes == [1] && c.sectionInserts == [1])
        c.itemDeletes = [path(1, 0)]
        #expect(throws: ReplayError.self) { try old.applyingBatch(c, contentFrom: new) }
        c = old.difference(to: new)
        c.itemInserts.append(path(1, 0))
        #expect(throws: ReplayError.self) { try old.applyingBatch(c, contentFrom: new) }
    }

    @Test func badSteps() {
        #expect(throws: ReplayError.self) { try old.applyingSteps([.deleteItems(section: 0, row: 2, count: 2)], contentFrom: new) }
        #expect(throws: ReplayError.self) { try old.applyingSteps([.deleteItems(section: 0, row: 0, count: 0)], contentFrom: new) }
        #expect(throws: ReplayError.self) { try old.applyingSteps([.moveSection(from: 0, to: 2)], contentFrom: new) }
        #expect(throws: ReplayError.self) { try old.applyingSteps([.insertItems(section: 0, row: 0, count: 4)], contentFrom: new) }
        #expect(throws: ReplayError.self) {
            try old.applyingSteps([.moveItem(from: path(0, 0), to: path(3, 0), contentChanged: false)], contentFrom: new)
        }
        #expect((try? old.applyingSteps([], contentFrom: new)) == old)
    }

    @Test func stepsOfInvalidChangesetDoNotTrap() {
        var c = valid
        c.itemMoves.append(.init(from: path(9, 9), to: path(9, 9)))
        #expect(c.steps(from: old, to: new).isEmpty)
    }
}
