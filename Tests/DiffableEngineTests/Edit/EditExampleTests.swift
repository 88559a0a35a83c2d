import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// Hand-checked edits and the exact changeset each one must produce.
struct EditExampleTests {
    static let base = snap(("A=a", ["a1=x", "a2", "a3"]), ("B", ["b1", "b2"]), ("C", []))

    static func edit(_ ops: [EditOperation]) throws -> (Snapshot, Changeset) {
        let (new, c) = try base.applyingEdits(ops)
        #expect(try base.applyingBatch(c, contentFrom: new) == new)
        #expect(try base.applyingSteps(c.steps(from: base, to: new), contentFrom: new) == new)
        return (new, c)
    }

    static func p(_ s: Int, _ r: Int) -> ItemPath { ItemPath(section: s, row: r) }

    /// "\u{e9}" and "e\u{301}" are two items (ids compare by their bytes):
    /// one moves next to the other, both are deleted in one op.
    @Test func canonicallyEquivalentIdsAreTwoItems() throws {
        let base = Snapshot(sections: [Section(id: "A", items: [Item(id: "\u{e9}"), Item(id: "x"), Item(id: "e\u{301}")])])
        let (moved, _) = try base.applyingEdits([.moveItem("\u{e9}", .after("e\u{301}"))])
        #expect(moved.sections[0].items.map { Array($0.id.utf8) } == [Array("x".utf8), Array("e\u{301}".utf8), Array("\u{e9}".utf8)])
        let (deleted, _) = try base.applyingEdits([.deleteItems(["\u{e9}", "e\u{301}"])])
        #expect(deleted.sections[0].items.map(\.id) == ["x"])
        #expect(throws: EditError(op: 0, opName: "deleteItems", reason: .duplicateItem, ids: ["x"])) {
            _ = try base.applyingEdits([.deleteItems(["x", "x"])])
        }
    }

    /// One edit deletes "\u{e9}" and inserts "e\u{301}": the changeset
    /// holds a delete and an insert, and replaying it in either form gives
    /// the edited snapshot (the marks of the two must not merge).
    @Test func canonicallyEquivalentIdsKeepTheirOwnChanges() throws {
        let base = Snapshot(sections: [Section(id: "A", items: [Item(id: "\u{e9}"), Item(id: "x")])])
        let (new, c) = try base.applyingEdits([.deleteItems(["\u{e9}"]), .insertItems([Item(id: "e\u{301}")], .after("x"))])
        #expect(new.sections[0].items.map { Array($0.id.utf8) } == [Array("x".utf8), Array("e\u{301}".utf8)])
        #expect(c.itemDeletes == [Self.p(0, 0)])
        #expect(c.itemInserts == [Self.p(0, 1)])
        #expect(try base.applyingBatch(c, contentFrom: new) == new)
        #expect(try base.applyingSteps(c.steps(from: base, to: new), contentFrom: new) == new)
        let (reloaded, r) = try base.applyingEdits([.insertItems([Item(id: "e\u{301}")], .after("x")), .reloadItems(["\u{e9}"])])
        #expect(r.itemInserts == [Self.p(0, 2)])
        #expect(r.itemReloads == [.init(old: Self.p(0, 0), new: Self.p(0, 0))])
        #expect(try base.applyingBatch(r, contentFrom: reloaded) == reloaded)
    }

    @Test func insertDeleteAndMoveItems() throws {
        let (new, c) = try Self.edit([
            .insertItems([item("n1"), item("n2")], .after("a1")),
            .deleteItems(["a3"]),
            .moveItem("b2", .before("a1")),
        ])
        #expect(new.itemIDs == [["b2", "a1", "n1", "n2", "a2"], ["b1"], []])
        #expect(c.itemInserts == [Self.p(0, 2), Self.p(0, 3)])
        #expect(c.itemDeletes == [Self.p(0, 2)])
        #expect(c.itemMoves == [.init(from: Self.p(1, 1), to: Self.p(0, 0))])
        #expect(c.itemReloads.isEmpty && c.sectionDeletes.isEmpty)
    }

    @Test func insertedThenDeletedVanishes() throws {
        let (new, c) = try Self.edit([.appendItems([item("t")], toSection: nil), .deleteItems(["t"])])
        #expect(new == Self.base)
        #expect(c.isEmpty)
    }

    @Test func deletedThenReinsertedIsAMove() throws {
        let (new, c) = try Self.edit([.deleteItems(["a1"]), .appendItems([item("a1=y")], toSection: "B")])
        #expect(new.itemIDs == [["a2", "a3"], ["b1", "b2", "a1"], []])
        #expect(c.itemMoves == [.init(from: Self.p(0, 0), to: Self.p(1, 2), contentChanged: true)])
        #expect(c.itemDeletes.isEmpty && c.itemInserts.isEmpty)
    }

    @Test func reloadReconfigureAndSetContent() throws {
        let (_, c) = try Self.edit([
            .reloadItems(["a2"]),
            .reconfigureItems(["b1"]),
            .setContent([ContentUpdate(id: "a1", content: content("x"))], style: .reload),  // equal: no-op
            .setContent([ContentUpdate(id: "a3", content: content("z"))], style: .reconfigure),
            .setContent([ContentUpdate(id: "b2", content: content("z"))], style: .reload),
        ])
        #expect(c.itemReloads == [.init(old: Self.p(0, 1), new: Self.p(0, 1)), .init(old: Self.p(1, 1), new: Self.p(1, 1))])
        #expect(c.itemReconfigures == [.init(old: Self.p(0, 2), new: Self.p(0, 2)), .init(old: Self.p(1, 0), new: Self.p(1, 0))])
        #expect(c.itemMoves.isEmpty)
    }

    @Test func sectionOps() throws {
        let (new, c) = try Self.edit([
            .insertSections([Section(id: "N", items: [Item(id: "n")])], .after("A")),
            .moveSection("C", .before("A")),
            .reloadSections(["B"]),
            .setHeaders([HeaderUpdate(id: "A", header: content("a"))]),  // equal: no-op
        ])
        #expect(new.sections.map(\.id) == ["C", "A", "N", "B"])
        #expect(c.sectionInserts == [2])
        #expect(c.sectionMoves == [.init(from: 2, to: 0)])
        #expect(c.sectionReloads == [.init(old: 1, new: 3)])
        #expect(c.itemInserts.isEmpty, "rows of an inserted section are implied")
    }

    @Test func movesIntoDeletedOrInsertedSectionsBecomeDeletesAndInserts() throws {
        let (_, c) = try Self.edit([
            .appendSections([Section(id: "D")]),
            .moveItem("a1", .after("b2")),   // stays between survivors: a move
            .appendItems([item("d")], toSection: "D"),
            .moveItem("a2", .before("d")),   // into an inserted section: a delete
            .moveItem("b1", .after("a3")),
            .deleteSections(["B"]),          // a1 was moved into B: delete; b1 moved out of it: insert
        ])
        #expect(c.sectionDeletes == [1])
        #expect(c.sectionInserts == [2])
        #expect(c.itemDeletes == [Self.p(0, 0), Self.p(0, 1)])
        #expect(c.itemInserts == [Self.p(0, 1)])
        #expect(c.itemMoves.isEmpty)
    }

    @Test func deletedSectionComingBackIsTheSameSection() throws {
        let (new, c) = try Self.edit([.deleteSections(["A"]), .appendSections([Section(id: "A", items: [Item(id: "a2")])])])
        #expect(new.sections.map(\.id) == ["B", "C", "A"])
        #expect(c.sectionMoves == [.init(from: 0, to: 2, headerChanged: true)])
        #expect(c.itemDeletes == [Self.p(0, 0), Self.p(0, 2)])
        #expect(c.itemMoves == [.init(from: Self.p(0, 1), to: Self.p(2, 0))])
    }

    @Test func deleteAllItemsKeepsSections() throws {
        let (new, c) = try Self.edit([.deleteAllItems])
        #expect(new.itemIDs == [[], [], []])
        #expect(c.itemDeletes.count == 5)
    }

    @Test func errorsNameTheOp() {
        #expect(throws: EditError(op: 1, opName: "moveItem", reason: .unknownItem, ids: ["zz"])) {
            try Self.base.applyingEdits([.reloadItems(["a1"]), .moveItem("zz", .after("a1"))])
        }
        #expect(throws: EditError(op: 0, opName: "insertItems", reason: .duplicateItem, ids: ["a2", "b1"])) {
            try Self.base.applyingEdits([.insertItems([item("a2"), item("q"), item("b1")], .before("a1"))])
        }
        #expect(throws: EditError(op: 0, opName: "appendItems", reason: .noSection, ids: [])) {
            try Snapshot().applyingEdits([.appendItems([item("q")], toSection: nil)])
        }
        #expect(throws: EditError(op: 2, opName: "deleteSections", reason: .unknownSection, ids: ["A"])) {
            try Self.base.applyingEdits([.deleteSections(["A"]), .appendItems([item("q")], toSection: "B"), .deleteSections(["A", "B"])])
        }
        #expect(throws: EditError(op: 0, opName: "moveSection", reason: .relativeToItself, ids: ["B"])) {
            try Self.base.applyingEdits([.moveSection("B", .after("B"))])
        }
    }
}
