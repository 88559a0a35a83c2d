import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// The fast path of tree edits (`editOutlineByRuns`) against the general
/// one (`editOutlineRebuilding`), run on copies of one source: random
/// forests of random shapes, depths and expansion states (some with
/// sections of thousands of rows, so several chunks), random edits of 2–6
/// ops (mostly ops the fast path takes; failing ops too, from the sequence
/// tests' generator). After every edit both give the same answer (the same
/// error, or the same snapshot, outline, visible rows, row lists and
/// version); the fast path's diff replays on the old visible rows, with
/// their levels, parents and disclosure, in both forms; its arrays are
/// sorted; the index it keeps is the index of the new source; and expanding
/// or collapsing after it agrees too.
struct OutlineRunEditTests {
    @Test func fastEditsEqualTheGeneralPath() {
        let taken = Self.property(seeds: 1500, size: 4...120)
        // Most edits of handled ops pass and take the fast path; failing
        // ones are answered there too.
        #expect(taken.fast > 3000, "fast edits: \(taken.fast) of \(taken.edits)")
        #expect(taken.fastRejections > 500, "fast rejections: \(taken.fastRejections) of \(taken.edits)")
    }

    /// During a search (substring or fuzzy, in source or score order,
    /// scoped or not) a tree edit takes the fast path too; the visible rows
    /// are the search's answer on the new tree.
    @Test func fastEditsEqualTheGeneralPathWhileSearching() {
        let taken = Self.property(seeds: 600, size: 4...120, searching: true)
        #expect(taken.fast > 1200, "fast edits: \(taken.fast) of \(taken.edits)")
        #expect(taken.fastRejections > 200, "fast rejections: \(taken.fastRejections) of \(taken.edits)")
    }

    @Test func fastEditsEqualTheGeneralPathAcrossChunks() {
        let taken = Self.property(seeds: 10, size: 2500...5000)
        #expect(taken.fast > 20, "fast edits: \(taken.fast) of \(taken.edits)")
    }

    /// A random forest: preorder rows whose depth grows by at most one per
    /// row, up to `maxDepth`; each item with children expanded or collapsed.
    static func forest(_ gen: inout Gen, size: Int, maxDepth: Int) -> [NewSection] {
        var next = 0
        func nodes(_ budget: inout Int, depth: Int) -> [OutlineNode] {
            var result: [OutlineNode] = []
            while budget > 0 && (result.isEmpty || gen.chance(0.8)) {
                budget -= 1
                next += 1
                let id = "n\(next)"
                let children = depth < maxDepth && gen.chance(0.45) ? nodes(&budget, depth: depth + 1) : []
                result.append(gen.node(id, children))
            }
            return result
        }
        return (0..<gen.int(1...3)).map { s in
            var budget = s == 0 ? size : gen.int(0...size / 2)
            var roots: [OutlineNode] = []
            while budget > 0 { roots += nodes(&budget, depth: 0) }
            return (id: "s\(s)", header: gen.content(), nodes: roots)
        }
    }

    /// Runs 8 random edits on each seed's forest; answers how many edits
    /// took the fast path, and how many the fast path refused with an error.
    static func property(seeds: UInt64, size: ClosedRange<Int>,
                         searching: Bool = false) -> (fast: Int, fastRejections: Int, edits: Int) {
        var failed = 0, fast = 0, fastRejections = 0, edits = 0
        for seed in 1...seeds {
            var gen = Gen(rng: SplitMix64(seed: seed), pool: OutlineEditSequenceTests.mixedPool)
            if searching { gen.texts = ["alpha", "beta", "tub", "abc", "xyz"] }
            let forest = forest(&gen, size: gen.int(size), maxDepth: gen.int(1...12))
            var source = DataSource(name: "t"), model = TreeModel(forest)
            let (snapshot, outline) = Outline.flatten(forest, previous: Outline())
            _ = try? source.apply(snapshot, outline: outline)
            if searching {
                let queries = [SearchQuery(text: "a", mode: .substring, order: .source),
                               SearchQuery(text: "ab", mode: .fuzzy, order: .source),
                               SearchQuery(text: "ab", mode: .fuzzy, order: .score),
                               SearchQuery(text: "ta", mode: .fuzzy, order: .score),
                               SearchQuery(text: "b", mode: .fuzzy, order: .score, limit: 5)]
                let query = queries[gen.int(0...queries.count - 1)]
                _ = source.setSearch(SearchSettings(query: query, scope: gen.chance(0.3) ? ["s0"] : nil))
            }
            for edit in 0..<8 {
                let ops = gen.handledEdit(model, handledOnly: !gen.chance(0.15))
                var general = source
                let before = OutlinePropertyTests.decorated(source.visible, source.outline)
                var probe = source, asked = 0
                do throws(EditError) {
                    _ = try probe.editOutlineByRuns(ops, shouldStop: { false }, asked: &asked)
                } catch {
                    fastRejections += 1
                }
                let fastResult = OutlineEditSequenceTests.run(&source, ops)
                let generalResult: Result<DataSource.Update, EditError>
                do throws(EditError) { generalResult = .success(try general.editOutlineRebuilding(ops)) } catch { generalResult = .failure(error) }
                edits += 1
                var problem: String?
                switch (fastResult, generalResult) {
                case (.failure(let a), .failure(let b)):
                    problem = a == b ? nil : "errors differ: \(a) vs \(b)"
                case (.success(let update), .success):
                    problem = compare(source, general) ?? checkReplay(update, before: before, source)
                    if source.outlineEditIndex != nil {
                        fast += 1
                        problem = problem ?? checkIndex(source)
                    }
                    var m = model
                    for op in ops { try? m.apply(op) }
                    model = m
                default:
                    problem = "one path fails, the other passes: fast \(fastResult), general \(generalResult)"
                }
                // Expanding or collapsing after the edit reads the rows it left.
                if problem == nil, gen.chance(0.3), let id = model.names.randomElement(using: &gen.rng) {
                    let expand = gen.chance(0.5), recursive = gen.chance(0.2)
                    _ = try? source.setExpanded([id], expand, recursive: recursive)
                    _ = try? general.setExpanded([id], expand, recursive: recursive)
                    _ = try? model.apply(.setExpanded([id], expand, recursive: recursive))
                    problem = compare(source, general).map { "after setExpanded \(esc(id)): \($0)" }
                }
                guard let problem else { continue }
                failed += 1
                if failed <= 4 { Issue.record(Comment(rawValue: "seed \(seed) edit \(edit) [\(describe(ops))]: \(problem)")) }
                break
            }
        }
        if failed > 0 { Issue.record(Comment(rawValue: "\(failed) of \(seeds) seeds fail")) }
        return (fast, fastRejections, edits)
    }

    static func compare(_ fast: DataSource, _ general: DataSource) -> String? {
        if State(fast) != State(general) { return "state: \(State(fast).diff(State(general)))" }
        if fast.snapshot != general.snapshot { return "snapshots differ" }
        if fast.outline != general.outline { return "outlines differ (levels)" }
        if fast.visible != general.visible { return "visible rows differ" }
        if fast.searchCache.rowSources != general.searchCache.rowSources {
            return "row lists differ: \(fast.searchCache.rowSources) vs \(general.searchCache.rowSources)"
        }
        if fast.version != general.version { return "versions \(fast.version) vs \(general.version)" }
        return nil
    }

    /// The diff replays on the decorated old visible rows, in both forms, and its arrays are sorted.
    static func checkReplay(_ update: DataSource.Update, before: Snapshot, _ source: DataSource) -> String? {
        let after = OutlinePropertyTests.decorated(source.visible, source.outline)
        let c = update.changeset
        let batch = Result { try before.applyingBatch(c, contentFrom: after) }
        let steps = Result { try before.applyingSteps(c.steps(from: before, to: after), contentFrom: after) }
        guard case .success(let b) = batch, b == after else {
            return "batch replay: \((try? batch.get()).map(dump) ?? "\(batch)") expected \(dump(after)) from \(dump(before)); \(c)"
        }
        guard case .success(let s) = steps, s == after else { return "steps replay: \(steps); \(c)" }
        let sorted = c.itemDeletes == c.itemDeletes.sorted() && c.itemInserts == c.itemInserts.sorted()
            && c.itemMoves.map(\.to) == c.itemMoves.map(\.to).sorted()
            && c.itemReloads.map(\.old) == c.itemReloads.map(\.old).sorted()
            && c.itemReconfigures.map(\.old) == c.itemReconfigures.map(\.old).sorted()
        return sorted ? nil : "unsorted changeset: \(c)"
    }

    /// Rows as `id{content}` per section, to read a failing replay.
    static func dump(_ snapshot: Snapshot) -> String {
        func text(_ content: Content?) -> String {
            (content?.bytes ?? []).map { $0 < 32 ? "#\($0)" : String(UnicodeScalar($0)) }.joined()
        }
        return snapshot.sections.map { section in
            "\(section.id)<\(text(section.header))>: " + section.items.map { "\($0.id){\(text($0.content))}" }.joined(separator: " ")
        }.joined(separator: " || ")
    }

    /// The index kept for the next edit is the index of the source now.
    static func checkIndex(_ source: DataSource) -> String? {
        guard let kept = source.outlineEditIndex else { return nil }
        let fresh = OutlineEditIndex(source.snapshot, source.outline)
        if kept.descendants != fresh.descendants { return "descendant counts differ from a fresh index" }
        if kept.edit.locationOfItem != fresh.edit.locationOfItem { return "item locations differ from a fresh index" }
        if kept.edit.sectionPosition != fresh.edit.sectionPosition { return "section positions differ from a fresh index" }
        return nil
    }

    @Test func aStopBetweenFastOpsChangesNothing() throws {
        var source = DataSource(name: "t")
        let root = OutlineNode(item: Item(id: "n0"), children: [OutlineNode(item: Item(id: "n1"))], expanded: true)
        let (snapshot, outline) = Outline.flatten([(id: "A", header: nil, nodes: [root])], previous: Outline())
        _ = try source.apply(snapshot, outline: outline)
        _ = try source.editOutline([.op(.setContent([ContentUpdate(id: "n1", content: nil)], style: .reload))])
        #expect(source.outlineEditIndex != nil, "setContent takes the fast path")
        let before = (source.snapshot, source.outline, source.version, source.visible)
        let ops: [OutlineEditOperation] = (1...10).map {
            .appendNodes([OutlineNode(item: Item(id: "n\($0 + 1)"))], section: nil, parent: "n\($0)")
        }
        var asked = 0
        #expect(throws: EditError(op: 4, opName: "appendItems", reason: .stopped, ids: [])) {
            _ = try source.editOutline(ops) {
                asked += 1
                return asked > 4
            }
        }
        #expect(asked == 5)
        #expect(source.snapshot == before.0 && source.outline == before.1 && source.version == before.2
                && source.visible == before.3)
    }

    @Test func aFailingOpIsAnsweredOnTheFastPathAskingOncePerOp() throws {
        var source = DataSource(name: "t")
        let root = OutlineNode(item: Item(id: "n0"), children: [OutlineNode(item: Item(id: "n1"))])
        let (snapshot, outline) = Outline.flatten([(id: "A", header: nil, nodes: [root])], previous: Outline())
        _ = try source.apply(snapshot, outline: outline)
        let before = (source.snapshot, source.outline, source.version)
        var asked = 0
        let ops: [OutlineEditOperation] = [
            .appendNodes([OutlineNode(item: Item(id: "n2"))], section: nil, parent: "n1"),
            .moveInto("n0", parent: "n2"),
            .op(.deleteItems(["n1"])),
        ]
        #expect(throws: EditError(op: 1, opName: "moveItem", reason: .cycle, ids: ["n0", "n2"])) {
            _ = try source.editOutline(ops) {
                asked += 1
                return false
            }
        }
        #expect(asked == 2, "asked before ops 0 and 1, once each")
        #expect(source.snapshot == before.0 && source.outline == before.1 && source.version == before.2)
        // The fast path itself answers it (the general path is not run).
        var probe = source, probeAsked = 0
        #expect(throws: EditError(op: 1, opName: "moveItem", reason: .cycle, ids: ["n0", "n2"])) {
            _ = try probe.editOutlineByRuns(ops, shouldStop: { false }, asked: &probeAsked)
        }
    }

    @Test func tooDeepIsRefusedOnTheFastPathToo() throws {
        // A chain of 4,096 levels (0 … 4095) and x with a child: nothing may go below c4095,
        // and x may not go beside it.
        var nodes = OutlineNode(item: Item(id: "c4095"))
        for level in stride(from: 4094, through: 0, by: -1) { nodes = OutlineNode(item: Item(id: "c\(level)"), children: [nodes]) }
        var source = DataSource(name: "t")
        let (snapshot, outline) = Outline.flatten([(id: "A", header: nil, nodes: [nodes, OutlineNode(item: Item(id: "x"), children: [OutlineNode(item: Item(id: "z"))])])],
                                                  previous: Outline())
        _ = try source.apply(snapshot, outline: outline)
        #expect(throws: EditError(op: 0, opName: "appendItems", reason: .tooDeep, ids: ["c4095"])) {
            _ = try source.editOutline([.appendNodes([OutlineNode(item: Item(id: "y"))], section: nil, parent: "c4095")])
        }
        #expect(throws: EditError(op: 0, opName: "moveItem", reason: .tooDeep, ids: ["x", "c4095"])) {
            _ = try source.editOutline([.moveInto("x", parent: "c4095")])
        }
        #expect(throws: EditError(op: 1, opName: "moveItem", reason: .tooDeep, ids: ["x", "c4095"])) {
            _ = try source.editOutline([.op(.setContent([ContentUpdate(id: "z", content: nil)], style: .reload)),
                                        .op(.moveItem("x", .after("c4095")))])
        }
        // At the deepest level itself, content ops are fast.
        _ = try source.editOutline([.op(.setContent([ContentUpdate(id: "c4095", content: Content(bytes: [1]))], style: .reload))])
        #expect(source.outlineEditIndex != nil)
        #expect(source.outline.level(of: "c4095") == 4095)
    }
}

extension Gen {
    /// 2–6 ops, each made on the tree the previous ones leave; with
    /// `handledOnly`, only ops the fast path takes.
    mutating func handledEdit(_ model: TreeModel, handledOnly: Bool) -> [OutlineEditOperation] {
        var m = model
        touched = []
        return (0..<int(2...6)).map { _ in
            var (op, moved) = self.op(m)
            while handledOnly && !OutlineRunEdit.handles(op) { (op, moved) = self.op(m) }
            do throws(TreeModel.Failure) { try m.apply(op) } catch {}
            touched += moved.flatMap { m.subtree($0).map(\.name) }
            return op
        }
    }
}
