import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// Tree edits (`DataSource.editOutline`) of 2–6 random ops of every kind,
/// ops that must fail too, on random forests whose item ids include
/// canonically equivalent spellings ("\u{e9}" / "e\u{301}", …): distinct
/// items, so everything here compares ids by their UTF-8 bytes.
///
/// 1. One edit of several ops = the same ops sent one edit each: the same
///    state, or the same failure at the same op; a failing edit changes nothing.
/// 2. A naive model of the tree (preorder rows with depths) applying the
///    documented rules agrees after every edit, failures too.
/// 3. The same with ids drawn only from equivalent spellings.
/// 4. Every diff replays on the previous decorated visible rows.
struct OutlineEditSequenceTests {
    typealias Ops = [OutlineEditOperation]
    static let mixedPool = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "\u{e9}", "e\u{301}",
                            "\u{212B}", "\u{C5}", "A\u{30A}", "\u{FB01}", "fi", "x\u{e9}y", "xe\u{301}y"]
    static let unicodePool = ["\u{e9}", "e\u{301}", "\u{212B}", "\u{C5}", "A\u{30A}", "\u{FB01}", "fi", "x\u{e9}y",
                              "xe\u{301}y", "\u{e9}\u{e9}", "e\u{301}\u{e9}", "\u{e9}e\u{301}", "e\u{301}e\u{301}", "q"]

    @Test func oneEditEqualsItsOpsSentOneByOne() {
        Self.property("one edit = its ops one by one", seeds: 400) { source, ops, _, _ in
            let before = State(source), version = source.version
            var single = source, alone: (op: Int, error: EditError)?
            for (i, op) in ops.enumerated() where alone == nil {
                if case .failure(let error) = Self.run(&single, [op]) { alone = (i, error) }
            }
            switch (Self.run(&source, ops), alone) {
            case (.success, nil):
                return State(single) == State(source) ? nil : "one by one vs one edit: \(State(single).diff(State(source)))"
            case (.failure(let error), let (i, e)?) where error.op == i && error.reason == e.reason && keys(error.ids) == keys(e.ids):
                return State(source) == before && source.version == version ? nil : "the failed edit changed the source"
            case (.success, _): return "one edit passes; one by one, op \(alone!.op) fails: \(alone!.error)"
            case (.failure(let error), _):
                return "one edit: \(error); one by one: \(alone.map { "op \($0.op) fails: \($0.error)" } ?? "passes")"
            }
        }
    }

    @Test func editsAgreeWithANaiveTreeModel() { Self.property("model", seeds: 400, Self.checkModel) }

    @Test func equivalentUnicodeSpellingsAreDistinctItems() {
        Self.property("model, equivalent spellings", seeds: 300, pool: Self.unicodePool, Self.checkModel)
    }

    @Test func everyDiffReplaysOnTheDecoratedVisibleRows() {
        func replay(_ source: inout DataSource, _ ops: Ops) -> String? {
            let before = OutlinePropertyTests.decorated(source.visible, source.outline)
            guard case .success(let update) = Self.run(&source, ops) else { return nil }
            let after = OutlinePropertyTests.decorated(source.visible, source.outline)
            let batch = try? before.applyingBatch(update.changeset, contentFrom: after)
            let steps = try? before.applyingSteps(update.changeset.steps(from: before, to: after), contentFrom: after)
            guard batch != after || steps != after else { return nil }
            return "replay: batch \(batch == after), steps \(steps == after); \(update.changeset)"
        }
        Self.property("replays", seeds: 300) { source, ops, _, edit in
            var single = source
            // Every other edit, its ops one edit each too.
            return replay(&source, ops) ?? ops.lazy.filter { _ in edit % 2 == 0 }.compactMap { replay(&single, [$0]) }.first
        }
    }

    // MARK: drivers

    /// What the model makes of an edit: the tree after it, or the failing op.
    struct Expected { var model: TreeModel; var failure: (op: Int, TreeModel.Failure)? }

    /// Runs `check` (nil: passed) on 8 random edits of each seed's random
    /// forest; ops are made on the model's tree. A seed stops at its first
    /// failure; the first few failures are reported.
    static func property(_ name: String, seeds: UInt64, pool: [String] = mixedPool,
                         _ check: (inout DataSource, Ops, Expected, Int) -> String?) {
        var failed = 0
        for seed in 1...seeds {
            var gen = Gen(rng: SplitMix64(seed: seed), pool: pool)
            let forest = gen.forest()
            var source = DataSource(name: "t"), model = TreeModel(forest)
            let (snapshot, outline) = Outline.flatten(forest, previous: Outline())
            _ = try? source.apply(snapshot, outline: outline)
            for edit in 0..<8 {
                let ops = gen.edit(model)
                var expected = Expected(model: model)
                for (i, op) in ops.enumerated() where expected.failure == nil {
                    do throws(TreeModel.Failure) { try expected.model.apply(op) } catch { expected.failure = (i, error) }
                }
                if expected.failure == nil { model = expected.model }
                guard let failure = check(&source, ops, expected, edit) else { continue }
                failed += 1
                if failed <= 4 { Issue.record(Comment(rawValue: "seed \(seed) edit \(edit) [\(describe(ops))]: \(failure)")) }
                break
            }
        }
        if failed > 0 { Issue.record(Comment(rawValue: "\(name): \(failed) of \(seeds) seeds fail")) }
    }

    static func run(_ source: inout DataSource, _ ops: Ops) -> Result<DataSource.Update, EditError> {
        do throws(EditError) { return .success(try source.editOutline(ops)) } catch { return .failure(error) }
    }

    /// The edit as the model has it (which op fails, why, with which ids), then the state.
    static func checkModel(_ source: inout DataSource, _ ops: Ops, _ expected: Expected, _: Int) -> String? {
        let before = State(source), version = source.version
        switch (Self.run(&source, ops), expected.failure) {
        case (.success, nil): break
        case (.success, let (i, failure)?): return "expected op \(i) to fail (\(failure)); the edit passed"
        case (.failure(let error), nil): return "expected success; got \(error)"
        case (.failure(let error), let (i, failure)?):
            if error.op != i || error.reason != failure.reason || keys(error.ids) != failure.ids {
                return "expected op \(i) to fail (\(failure)); got \(error)"
            }
            return State(source) == before && source.version == version ? nil : "the failed edit changed the source"
        }
        let model = expected.model.state
        return State(source) == model ? nil : "model (expected) vs engine: \(model.diff(State(source)))"
    }
}

func key(_ s: String) -> [UInt8] { Array(s.utf8) }
func keys(_ s: [String]) -> [[UInt8]] { s.map(key) }
/// An id readably: non-ASCII scalars spelled out.
func esc(_ s: String) -> String {
    if s.utf8.allSatisfy({ $0 < 0x80 }) { return s }
    return s.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
}

func text(_ content: Content?) -> String { content.map { "\($0.bytes)" } ?? "-" }

/// Ops (or anything in them) readably, ids escaped.
func describe(_ value: Any) -> String {
    switch value {
    case let s as String: return esc(s)
    case let n as OutlineNode:
        return esc(n.item.id) + (n.expanded.map { $0 ? "+" : "-" } ?? "") + (n.children.isEmpty ? "" : "(\(describe(n.children)))")
    case let item as Item: return esc(item.id)
    case let section as Section: return "\(section.id): \(describe(Array(section.items)))"
    case let content as Content: return "\(content.bytes)"
    case let list as [[String]]: return list.map { "[\(describe($0))]" }.joined()
    case let list as [Any]: return list.map(describe).joined(separator: " ")
    default:
        let mirror = Mirror(reflecting: value), first = mirror.children.first
        switch mirror.displayStyle {
        case .optional: return first.map { describe($0.value) } ?? "nil"
        case .enum: return first.map { "\($0.label ?? "")(\(describe($0.value)))" } ?? "\(value)"
        case .tuple, .struct: return mirror.children.map { describe($0.value) }.joined(separator: ", ")
        default: return "\(value)"
        }
    }
}

/// What a source holds and shows, ids escaped (so compared by their bytes;
/// no id here has a backslash): sections, headers, rows (id=content) in
/// preorder, visible rows, the outline (sorted "child->parent",
/// "parent->count", expanded ids).
struct State: Equatable {
    var sections: [String] = [], headers: [String] = [], rows: [[String]] = [], visible: [[String]] = []
    var parents: [String] = [], childCounts: [String] = [], expanded: [String] = []

    init() {}
    init(_ source: DataSource) {
        sections = source.snapshot.sections.map { esc($0.id) }
        headers = source.snapshot.sections.map { text($0.header) }
        rows = source.snapshot.sections.map { $0.items.map { esc($0.id) + "=" + text($0.content) } }
        visible = source.visible.sections.map { $0.items.map { esc($0.id) } }
        parents = Self.strings(source.outline.parents)
        childCounts = Self.strings(source.outline.childCounts)
        expanded = Self.strings(source.outline.expanded)
    }

    // The outline is keyed by `ItemID` since 3bce37e, by `String` before.
    static func strings(_ d: [ItemID: ItemID]) -> [String] { d.map { "\(esc($0.string))->\(esc($1.string))" }.sorted() }
    static func strings(_ d: [String: String]) -> [String] { d.map { "\(esc($0))->\(esc($1))" }.sorted() }
    static func strings(_ d: [ItemID: Int]) -> [String] { d.map { "\(esc($0.string))->\($1)" }.sorted() }
    static func strings(_ d: [String: Int]) -> [String] { d.map { "\(esc($0))->\($1)" }.sorted() }
    static func strings(_ s: Set<ItemID>) -> [String] { s.map { esc($0.string) }.sorted() }
    static func strings(_ s: Set<String>) -> [String] { s.map(esc).sorted() }

    /// The members that differ, `self`'s first.
    func diff(_ other: State) -> String {
        zip(Mirror(reflecting: self).children, Mirror(reflecting: other).children)
            .map { ($0.label ?? "", describe($0.value), describe($1.value)) }
            .filter { $0.1 != $0.2 }.map { "\($0.0): \($0.1) vs \($0.2)" }.joined(separator: "; ")
    }
}

typealias NewSection = (id: String, header: Content?, nodes: [OutlineNode])
