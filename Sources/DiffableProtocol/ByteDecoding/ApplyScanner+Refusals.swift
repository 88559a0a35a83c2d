import DiffableEngine

/// What the fast steps do not take, and what is wrong.
///
/// Most items are read by the steps of `ApplyScanner` without a tree. A
/// top-level item they do not take (an escaped or unknown member, an id
/// that is not a string, content nested too deep, a repeated `children`, a
/// tree deeper than `maxByteReaderLevel`) is parsed alone and decoded by the
/// codec, `OutlineCodec.node`: it either decodes, and its rows join the
/// section in preorder, or it is refused with the codec's problems, and
/// reading goes on. A section that is not an object, or whose own members
/// are wrong, is refused by `SnapshotCodec.decodeSection`.
///
/// Problems are reported once the whole request is read, as the codec of
/// the whole snapshot reports them: for a flat request, every refused item
/// of every section, up to `SnapshotCodec.maxReportedProblems`; for a
/// request where any item nests (`OutlineCodec`), the first refused item of
/// each section. A section's own problems stand for it alone.
extension ApplyScanner {
    /// One element of `sections`, read.
    package struct SectionRead {
        package var section: Section
        /// The section object, `items` standing in as an empty array.
        package var object: JSON
        package var nesting: Nesting?
        package var problems: SectionProblems
    }

    /// What the codecs refused in one section.
    package struct SectionProblems {
        /// The section's own problems (not an object, its id, members,
        /// header, `items` not an array): reported for it alone.
        package var ofSection: [JSON]?
        /// The problems of each top-level item refused, in order, until the
        /// section has `SnapshotCodec.maxReportedProblems` of them.
        package var ofItems: [[JSON]] = []
        private var itemProblemCount = 0

        package init() {}

        package var isEmpty: Bool { ofSection == nil && ofItems.isEmpty }

        /// Whether more refused items would not be reported: the request
        /// is refused, and a later item only matters for whether it nests.
        var isFull: Bool { itemProblemCount >= SnapshotCodec.maxReportedProblems }

        mutating func refuse(item problems: [JSON]) {
            guard itemProblemCount < SnapshotCodec.maxReportedProblems else { return }
            ofItems.append(problems)
            itemProblemCount += problems.count
        }

        /// The section's members checked by the codec (`items` standing in
        /// as an empty array, or as it came when it is not one): the section, or
        /// nil with its problems noted.
        mutating func refuse(section object: JSON, path: String) -> Section? {
            do throws(ProblemList) {
                return try SnapshotCodec.decodeSection(object, path: path)
            } catch {
                ofSection = error.problems
                return nil
            }
        }

        /// The problems reported for the section: its own, or its items'
        /// (all of them, or in a nested request the first item's).
        func reported(nested: Bool) -> [JSON] {
            ofSection ?? (nested ? ofItems.first ?? [] : ofItems.flatMap { $0 })
        }
    }

    /// One error naming the problems of `sections`, as the codec of the
    /// whole snapshot reports them; nil when there are none.
    /// - Complexity: O(problems)
    package static func error(_ sections: [SectionProblems], nested: Bool) -> RPCError? {
        var problems: [JSON] = []
        for section in sections {
            problems += section.reported(nested: nested)
            if !nested && problems.count >= SnapshotCodec.maxReportedProblems { break }
        }
        return problems.isEmpty ? nil : SnapshotCodec.invalid(problems)
    }

    /// The top-level items of a section's array whose `[` was consumed, read
    /// sequentially; an item the steps do not take is parsed alone and
    /// decoded by the codec (`decodeAlone`). False only when `checkpoint`
    /// stopped reading (or the bytes are not JSON).
    /// - Complexity: O(bytes of the array).
    static func decodeSectionItems(
        _ s: inout ByteScanner, arenas: inout ByteArena.Writer, into items: inout [Item], nesting: inout Nesting?,
        recycler: inout ItemRecycler, released: inout ReleasedRuns, problems: inout SectionProblems,
        path: String, checkpoint: (ByteScanner) -> Bool
    ) -> Bool {
        var stopped = false
        func check(_ s: ByteScanner) -> Bool {
            if checkpoint(s) { return true }
            stopped = true
            return false
        }
        var isFirst = true
        var index = 0
        while true {
            guard let more = s.nextElement(isFirst: isFirst) else { return false }
            if !more { return true }
            isFirst = false
            if items.count % checkpointItems == checkpointItems - 1, !check(s) { return false }
            let start = s.pos, slot = items.count
            if !decodeElement(&s, arenas: &arenas, into: &items, nesting: &nesting, parent: -1, level: 0,
                              recycler: &recycler, released: &released, checkpoint: check) {
                if stopped { return false }
                s.pos = start
                if problems.isFull {
                    guard let value = s.skipValue() else { return false }
                    if nesting == nil, namesNesting(s, value.range) {
                        nesting = Nesting(parentRow: [Int32](repeating: -1, count: items.count))
                    }
                    index += 1
                    continue
                }
                guard decodeAlone(&s, arenas: &arenas, into: &items, from: slot, nesting: &nesting,
                                  released: &released, problems: &problems, path: "\(path).items[\(index)]")
                else { return false }
            }
            index += 1
        }
    }

    /// Whether the value in `range` is an object naming `children` or
    /// `expanded` (which makes the request nested).
    /// - Complexity: O(bytes of the value), no tree.
    private static func namesNesting(_ parent: ByteScanner, _ range: Range<Int>) -> Bool {
        var s = ByteScanner(parent.input, range: range)
        guard s.consume(UInt8(ascii: "{")) else { return false }
        var isFirst = true
        while case .member(let key) = s.nextNamedMember(isFirst: isFirst) {
            isFirst = false
            if s.name(key, is: "children") || s.name(key, is: "expanded") { return true }
            guard s.skipValue() != nil else { return false }
        }
        return false
    }

    /// The top-level item at the cursor, parsed alone and decoded by the
    /// codec: its rows appended in preorder from `slot` (what the steps
    /// read of it first is dropped, its released bytes written again), or
    /// its problems noted. False only for bytes that are not JSON.
    /// - Complexity: O(bytes of the item).
    private static func decodeAlone(
        _ s: inout ByteScanner, arenas: inout ByteArena.Writer, into items: inout [Item], from slot: Int,
        nesting: inout Nesting?, released: inout ReleasedRuns, problems: inout SectionProblems, path: String
    ) -> Bool {
        released.restore(from: items, rowsFrom: slot)
        items.removeSubrange(slot...)
        if var rows = nesting.take() {
            rows.parentRow.removeSubrange(min(slot, rows.parentRow.count)...)
            rows.expanded = rows.expanded.filter { $0.key < slot }
            nesting = rows
        }
        guard let value = s.skipValue(), let tree = s.tree(value.range) else { return false }
        // A request nests when any top-level item names `children` or
        // `expanded` (`OutlineCodec.isNested`), even one that is refused.
        if nesting == nil, tree["children"] != nil || tree["expanded"] != nil {
            nesting = Nesting(parentRow: [Int32](repeating: -1, count: items.count))
        }
        let node: OutlineNode
        do throws(ProblemList) {
            node = try OutlineCodec.node(tree, path: path, maxLevel: Outline.maxLevel)
        } catch {
            problems.refuse(item: error.problems)
            return true
        }
        var pending: [(node: OutlineNode, parent: Int32)] = [(node, -1)]
        while let (node, parent) = pending.popLast() {
            let row = items.count
            items.append(arenas.keep(node.item))
            nesting?.parentRow.append(parent)
            if let expanded = node.expanded { nesting?.expanded[row] = expanded }
            for child in node.children.reversed() { pending.append((child, Int32(row))) }
        }
        return true
    }
}
