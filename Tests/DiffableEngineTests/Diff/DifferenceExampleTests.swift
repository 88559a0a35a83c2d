import Testing
@testable import DiffableEngine
import DiffableTestSupport

@Suite("Snapshot.difference examples")
struct DifferenceExampleTests {
    /// Checks the changeset and that both replayers reach `new`.
    func check(_ old: Snapshot, _ new: Snapshot, _ build: (inout Changeset) -> Void,
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        var expected = Changeset()
        build(&expected)
        let c = old.difference(to: new)
        #expect(c == expected, sourceLocation: sourceLocation)
        #expect(try old.applyingBatch(c, contentFrom: new) == new, sourceLocation: sourceLocation)
        #expect(try old.applyingSteps(c.steps(from: old, to: new), contentFrom: new) == new, sourceLocation: sourceLocation)
    }

    @Test func identicalIsEmpty() throws {
        let s = snap(("A=h", ["a=1", "b"]), ("B", []), ("C", ["c"]))
        #expect(s.difference(to: s).isEmpty)
        #expect(Snapshot().difference(to: Snapshot()).isEmpty)
        #expect(s.difference(to: s).steps(from: s, to: s).isEmpty)
    }

    @Test func singleInsert() throws {
        try check(snap(("A", ["a", "b"])), snap(("A", ["a", "x", "b"]))) { $0.itemInserts = [path(0, 1)] }
    }

    @Test func singleDelete() throws {
        try check(snap(("A", ["a", "b", "c"])), snap(("A", ["a", "c"]))) { $0.itemDeletes = [path(0, 1)] }
    }

    @Test func singleMove() throws {
        try check(snap(("A", ["a", "b", "c"])), snap(("A", ["b", "c", "a"]))) {
            $0.itemMoves = [.init(from: path(0, 0), to: path(0, 2))]
        }
    }

    @Test func crossSectionMove() throws {
        try check(snap(("A", ["a", "b"]), ("B", ["c"])), snap(("A", ["b"]), ("B", ["c", "a"]))) {
            $0.itemMoves = [.init(from: path(0, 0), to: path(1, 1))]
        }
    }

    /// Rows that cross into a neighbouring section in their old flat order
    /// (a section's tail or head joining the next or previous one) are
    /// moves, even where eight links in a row are consecutive old rows.
    @Test func runsJoiningANeighbourSectionAreMoves() throws {
        let a = (0..<10).map { "a\($0)" }, b = (0..<10).map { "b\($0)" }
        // B's head joins the end of A.
        try check(snap(("A", a), ("B", b)), snap(("A", a + b.prefix(6)), ("B", Array(b.dropFirst(6))))) {
            $0.itemMoves = (0..<6).map { .init(from: path(1, $0), to: path(0, 10 + $0)) }
        }
        // A's tail joins the start of B.
        try check(snap(("A", a), ("B", b)), snap(("A", Array(a.prefix(4))), ("B", a.suffix(6) + b))) {
            $0.itemMoves = (0..<6).map { .init(from: path(0, 4 + $0), to: path(1, $0)) }
        }
    }

    /// Content is equal by bytes, whether or not two values share a buffer
    /// (the comparison tests the buffer first).
    @Test func contentEqualityIsByBytes() {
        let bytes = Array(#"{"text":"a"}"#.utf8)
        let shared = Content(bytes: bytes)
        #expect(shared == Content(bytes: bytes))
        #expect(Content(bytes: Array(bytes)) == Content(bytes: bytes.map { $0 }))
        #expect(Content(bytes: bytes) != Content(bytes: Array(#"{"text":"b"}"#.utf8)))
        #expect(Content(bytes: []) == Content(bytes: [UInt8]()))
        #expect(Content(bytes: []) != Content(bytes: [0]))
        var items = [Item(id: "a", content: shared)]
        items.append(Item(id: "b", content: Content(bytes: bytes.map { $0 })))
        #expect(items[0].content == items[1].content)
    }

    @Test func headerOnlyChange() throws {
        try check(snap(("A=x", ["a"]), ("B", [])), snap(("A=y", ["a"]), ("B", []))) {
            $0.sectionReloads = [.init(old: 0, new: 0)]
        }
    }

    @Test func contentChangeIsReload() throws {
        try check(snap(("A", ["a=1", "b=1"])), snap(("A", ["x", "a=1", "b=2"]))) {
            $0.itemInserts = [path(0, 0)]
            $0.itemReloads = [.init(old: path(0, 1), new: path(0, 2))]
        }
    }

    @Test func moveWithContentChange() throws {
        try check(snap(("A", ["a=1", "b", "c"])), snap(("A", ["b", "c", "a=2"]))) {
            $0.itemMoves = [.init(from: path(0, 0), to: path(0, 2), contentChanged: true)]
        }
    }

    @Test func allNew() throws {
        try check(snap(("A", ["a"])), snap(("B", ["b"]))) {
            $0.sectionDeletes = [0]
            $0.sectionInserts = [0]
        }
        try check(snap(("A", ["a", "b"])), snap(("A", ["c", "d"]))) {
            $0.itemDeletes = [path(0, 0), path(0, 1)]
            $0.itemInserts = [path(0, 0), path(0, 1)]
        }
        try check(Snapshot(), snap(("A", ["a"]), ("B", []))) { $0.sectionInserts = [0, 1] }
    }

    @Test func allDeleted() throws {
        try check(snap(("A", ["a"]), ("B", ["b"])), Snapshot()) { $0.sectionDeletes = [0, 1] }
        try check(snap(("A", ["a", "b"])), snap(("A", []))) { $0.itemDeletes = [path(0, 0), path(0, 1)] }
    }

    @Test func reversed() throws {
        // Old rows in new order are 3 2 1 0: one stays ("a"), three move.
        try check(snap(("A", ["a", "b", "c", "d"])), snap(("A", ["d", "c", "b", "a"]))) {
            $0.itemMoves = [
                .init(from: path(0, 3), to: path(0, 0)),
                .init(from: path(0, 2), to: path(0, 1)),
                .init(from: path(0, 1), to: path(0, 2)),
            ]
        }
    }

    @Test func sectionMoved() throws {
        try check(snap(("A", ["a"]), ("B", ["b"]), ("C=1", ["c"])), snap(("C=2", ["c"]), ("A", ["a"]), ("B", ["b"]))) {
            $0.sectionMoves = [.init(from: 2, to: 0, headerChanged: true)]
        }
    }

    @Test func itemIntoInsertedSection() throws {
        try check(snap(("A", ["a", "b"])), snap(("A", ["a"]), ("B", ["b"]))) {
            $0.sectionInserts = [1]
            $0.itemDeletes = [path(0, 1)]
        }
    }

    @Test func itemOutOfDeletedSection() throws {
        try check(snap(("A", ["a"]), ("B", ["b"])), snap(("A", ["a", "b"])))  {
            $0.sectionDeletes = [1]
            $0.itemInserts = [path(0, 1)]
        }
    }

    @Test func itemMovesInMovedSection() throws {
        let old = snap(("A", ["a", "b"]), ("B", ["c", "d"]))
        let new = snap(("B", ["d", "c", "b"]), ("A", ["a"]))
        try check(old, new) {
            $0.sectionMoves = [.init(from: 1, to: 0)]
            $0.itemMoves = [.init(from: path(1, 1), to: path(0, 0)), .init(from: path(0, 1), to: path(0, 2))]
        }
    }

    @Test func stepsExample() {
        let old = snap(("A", ["a", "b", "c", "d", "e"]), ("B", ["f"]), ("C", ["g"]))
        let new = snap(("C", ["g"]), ("A", ["e=2", "b", "x", "y"]), ("N", ["f"]))
        let c = old.difference(to: new)
        #expect(c.steps(from: old, to: new) == [
            .deleteItems(section: 0, row: 2, count: 2),
            .deleteItems(section: 0, row: 0, count: 1),
            .deleteSections(section: 1, count: 1),
            .moveSection(from: 1, to: 0),
            .insertSections(section: 2, count: 1),
            .moveItem(from: path(1, 1), to: path(1, 0), contentChanged: true),
            .insertItems(section: 1, row: 2, count: 2),
        ])
    }
}

@Suite("Diff helpers")
struct DiffHelperTests {
    @Test func lis() {
        #expect(longestIncreasingSubsequenceIndices([]) == [])
        #expect(longestIncreasingSubsequenceIndices([0, 1, 2]) == [0, 1, 2])
        #expect(longestIncreasingSubsequenceIndices([3, 2, 1, 0]).count == 1)
        let values: [Int32] = [5, 1, 6, 2, 7, 3, 0, 4]
        let lis = longestIncreasingSubsequenceIndices(values)
        #expect(lis.count == 4)
        #expect(zip(lis, lis.dropFirst()).allSatisfy { values[$0] < values[$1] })
    }

    @Test func fenwick() {
        var tree = FenwickTree([1, 0, 1, 1, 0])
        #expect((0...5).map { tree.prefixSum($0) } == [0, 1, 1, 2, 3, 3])
        tree.add(1, at: 1)
        tree.add(-1, at: 3)
        #expect((0...5).map { tree.prefixSum($0) } == [0, 1, 2, 3, 3, 3])
    }
}
