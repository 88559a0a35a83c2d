import Testing
@testable import DiffableEngine

/// A long tree edit asks its caller before each op whether to stop (the
/// server's `$/cancelRequest`), and stops with nothing changed.
struct OutlineEditStopTests {
    @Test func aStoppedEditChangesNothing() throws {
        var source = DataSource(name: "t")
        let root = OutlineNode(item: Item(id: "n0"), children: [OutlineNode(item: Item(id: "n1"))])
        let (snapshot, outline) = Outline.flatten([(id: "A", header: nil, nodes: [root])], previous: Outline())
        _ = try source.apply(snapshot, outline: outline)
        let before = (source.snapshot, source.outline, source.version)
        let ops: [OutlineEditOperation] = (1...100).map {
            .appendNodes([OutlineNode(item: Item(id: "n\($0 + 1)"))], section: nil, parent: "n\($0)")
        }
        var asked = 0
        #expect(throws: EditError(op: 40, opName: "appendItems", reason: .stopped, ids: [])) {
            _ = try source.editOutline(ops) {
                asked += 1
                return asked > 40
            }
        }
        #expect(source.snapshot == before.0 && source.outline == before.1 && source.version == before.2)
        // Not stopped: the chain is 101 levels deep.
        _ = try source.editOutline(ops)
        #expect(source.outline.level(of: "n101") == 101)
    }
}
