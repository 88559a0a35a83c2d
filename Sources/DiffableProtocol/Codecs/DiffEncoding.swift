import DiffableEngine

/// The two coordinate forms a diff can be sent in (see protocol/README.md).
public enum DiffForm: String, Sendable {
    /// UIKit `performBatchUpdates`: deletes/reloads in old indices, inserts in new.
    case batch
    /// An ordered list of operations, each applied to the list left by the previous.
    case steps
}

/// Encodes a `Changeset` into the wire payload, taking content for inserted,
/// reloaded and changed rows from the new visible snapshot.
///
/// With `echo: "ids"`, the items whose content the request carried (the
/// rows of an `apply`, the items of an `edit`'s ops) carry their id only:
/// the client sent their content itself (`ItemEncoding.omitted`).
///
/// - Complexity: O(changes + content sent): unchanged rows are never touched.
package struct DiffEncoding {
    package var echo = ItemEncoding.full

    /// `patches` (`updates: "patch"`): rows the frontend holds whose
    /// content changed (reloads, reconfigures, moves with new content)
    /// carry a patch from their old content (see `ItemEncoding.previous`).
    /// `contentsBefore` (an edit of contents made in place, see
    /// `DataSource.Update`): what the changed rows had; `old` then has the
    /// new contents.
    package static func encode(_ changeset: Changeset, form: DiffForm, old: Snapshot, new: Snapshot,
                       echo: ItemEncoding = .full, patches: Bool = false,
                       contentsBefore: [ItemID: Content]? = nil) -> (key: String, value: JSON) {
        var encoding = echo
        if patches {
            encoding.previous = previousContents(changeset, old: old, new: new, echo: echo, contentsBefore: contentsBefore)
        }
        let encoder = DiffEncoding(echo: encoding)
        switch form {
        case .batch: return ("batch", encoder.batch(changeset, new: new))
        case .steps:
            let (steps, destinations) = changeset.stepsWithMoveDestinations(from: old, to: new)
            return ("steps", encoder.steps(steps, moveDestinations: destinations, new: new))
        }
    }

    /// The old content of every row the changeset redraws in place or
    /// moves with new content, by id; only for rows whose content is sent
    /// (`echo`).
    /// - Complexity: O(those rows).
    package static func previousContents(_ c: Changeset, old: Snapshot, new: Snapshot, echo: ItemEncoding,
                                 contentsBefore: [ItemID: Content]? = nil) -> [ItemID: Content] {
        var previous: [ItemID: Content] = [:]
        func note(_ from: ItemPath, _ to: ItemPath) {
            guard let item = new.item(at: to), echo.includes(item) else { return }
            if let contentsBefore {
                previous[item.itemID] = contentsBefore[item.itemID]
                return
            }
            guard let before = old.item(at: from), let content = before.content else { return }
            previous[before.itemID] = content
        }
        for update in c.itemReloads { note(update.old, update.new) }
        for update in c.itemReconfigures { note(update.old, update.new) }
        for move in c.itemMoves where move.contentChanged { note(move.from, move.to) }
        return previous
    }

    // MARK: batch

    package func batch(_ c: Changeset, new: Snapshot) -> JSON {
        var sections: [(String, JSON)] = []
        if !c.sectionDeletes.isEmpty {
            sections.append(("delete", .array(runs(c.sectionDeletes).map { pair($0.start, $0.count) })))
        }
        if !c.sectionInserts.isEmpty {
            sections.append(("insert", .array(runs(c.sectionInserts).map { run in
                .object(JSONObject([("at", .int(run.start)), ("sections", sectionList(new, run.start, run.count))]))
            })))
        }
        if !c.sectionMoves.isEmpty {
            sections.append(("move", .array(c.sectionMoves.map { move in
                var m: [(String, JSON)] = [("from", .int(move.from)), ("to", .int(move.to))]
                if move.headerChanged { m.append(("header", header(new, move.to))) }
                return .object(JSONObject(m))
            })))
        }
        if !c.sectionReloads.isEmpty {
            sections.append(("reload", .array(c.sectionReloads.map { update in
                .object(JSONObject([("at", .int(update.old)), ("header", header(new, update.new))]))
            })))
        }

        var items: [(String, JSON)] = []
        if !c.itemDeletes.isEmpty {
            items.append(("delete", .array(bySection(c.itemDeletes).map { group in
                .object(JSONObject([
                    ("section", .int(group.section)),
                    ("ranges", .array(runs(group.rows).map { pair($0.start, $0.count) })),
                ]))
            })))
        }
        if !c.itemInserts.isEmpty {
            items.append(("insert", .array(Changeset.runs(of: c.itemInserts).map { run in
                itemRun(section: run.section, at: run.row,
                        items: itemList(new, section: run.section, row: run.row, count: run.count))
            })))
        }
        if !c.itemMoves.isEmpty {
            items.append(("move", .array(c.itemMoves.map { move in
                var m: [(String, JSON)] = [("from", path(move.from)), ("to", path(move.to))]
                if move.contentChanged, let item = new.item(at: move.to) {
                    m.append(("item", SnapshotCodec.encode(item, echo: echo)))
                }
                return .object(JSONObject(m))
            })))
        }
        for (key, updates) in [("reload", c.itemReloads), ("reconfigure", c.itemReconfigures)] where !updates.isEmpty {
            guard sendsPatchRuns else {
                items.append((key, .array(updateRuns(updates).map { run in
                    itemRun(section: run.section, at: run.start, items: itemList(new, run.newPaths))
                })))
                continue
            }
            // Rows sent whole in runs of consecutive rows, then the patched
            // rows in one run per section.
            let (whole, patched) = splitPatched(updates.map { ($0.old, $0.new) }, new: new)
            let wholeEncoder = DiffEncoding(echo: echo.withoutPrevious)
            var runs = updateRuns(whole).map { run in
                itemRun(section: run.section, at: run.start, items: wholeEncoder.itemList(new, run.newPaths))
            }
            runs += patchRuns(patched, op: nil)
            items.append((key, .array(runs)))
        }

        var members: [(String, JSON)] = []
        if !sections.isEmpty { members.append(("sections", .object(JSONObject(sections)))) }
        if !items.isEmpty { members.append(("items", .object(JSONObject(items)))) }
        return .object(JSONObject(members))
    }

    // MARK: steps

    /// `moveDestinations[k]` is the path in `new` of the row the k-th
    /// `moveItem` step moves: its `item` (when the content changed) is taken
    /// from there, not from the step's intermediate `to`.
    package func steps(_ steps: [Step], moveDestinations: [ItemPath], new: Snapshot) -> JSON {
        var moveIndex = 0
        // Patched rows of reload and reconfigure steps, sent after the
        // others (they come last anyway) as one step per kind and section.
        var patchedReloads: [PatchedRow] = [], patchedReconfigures: [PatchedRow] = []
        let wholeEncoder = DiffEncoding(echo: echo.withoutPrevious)
        func redraw(_ name: String, _ section: Int, _ row: Int, _ count: Int, into patched: inout [PatchedRow]) -> [JSON] {
            guard sendsPatchRuns else { return [op(name, rowRun(new, section, row, count))] }
            let paths = (row ..< row + count).map { ItemPath(section: section, row: $0) }
            let split = splitPatched(paths.map { ($0, $0) }, new: new)
            patched += split.patched
            return updateRuns(split.whole).map { run in
                op(name, [("section", .int(run.section)), ("at", .int(run.start)), ("items", wholeEncoder.itemList(new, run.newPaths))])
            }
        }
        var out: [JSON] = []
        out.reserveCapacity(steps.count)
        for step in steps {
            switch step {
            case .reloadItems(let section, let row, let count):
                out += redraw("reloadItems", section, row, count, into: &patchedReloads)
            case .reconfigureItems(let section, let row, let count):
                out += redraw("reconfigureItems", section, row, count, into: &patchedReconfigures)
            default:
                out.append(plainStep(step, moveIndex: &moveIndex, moveDestinations: moveDestinations, new: new))
            }
        }
        out += patchRuns(patchedReloads, op: "reloadItems") + patchRuns(patchedReconfigures, op: "reconfigureItems")
        return .array(out)
    }

    /// A step that never carries a patch run.
    private func plainStep(_ step: Step, moveIndex: inout Int, moveDestinations: [ItemPath], new: Snapshot) -> JSON {
        switch step {
        case .deleteItems(let section, let row, let count):
            return op("deleteItems", [("section", .int(section)), ("at", .int(row)), ("count", .int(count))])
        case .deleteSections(let section, let count):
            return op("deleteSections", [("at", .int(section)), ("count", .int(count))])
        case .moveSection(let from, let to):
            return op("moveSection", [("from", .int(from)), ("to", .int(to))])
        case .insertSections(let section, let count):
            return op("insertSections", [("at", .int(section)), ("sections", sectionList(new, section, count))])
        case .reloadSection(let section):
            return op("reloadSection", [("at", .int(section)), ("header", header(new, section))])
        case .moveItem(let from, let to, let contentChanged):
            var m: [(String, JSON)] = [("from", path(from)), ("to", path(to))]
            let destination = moveIndex < moveDestinations.count ? moveDestinations[moveIndex] : to
            moveIndex += 1
            if contentChanged, let item = new.item(at: destination) { m.append(("item", SnapshotCodec.encode(item, echo: echo))) }
            return op("moveItem", m)
        case .insertItems(let section, let row, let count):
            return op("insertItems", rowRun(new, section, row, count))
        case .reloadItems(let section, let row, let count):
            return op("reloadItems", rowRun(new, section, row, count))
        case .reconfigureItems(let section, let row, let count):
            return op("reconfigureItems", rowRun(new, section, row, count))
        }
    }

    // MARK: patch runs

    /// Whether reloaded and reconfigured rows sent as patches go in patch
    /// runs (`updates: "patch"` in a flat source). A row of a tree also
    /// carries its place in the tree, which may change with it: such a row
    /// stays an item (`{"id", "patch", "level", …}`).
    package var sendsPatchRuns: Bool { !echo.previous.isEmpty && echo.outline == nil }

    /// A reloaded or reconfigured row sent as a patch: its section and
    /// row (old coordinates in the batch form), and the patch.
    package struct PatchedRow {
        package var section: Int
        package var row: Int
        package var patch: [UInt8]
    }

    /// The rows of `updates` (old path, new path) split into those sent
    /// whole and those sent as a patch (`updates: "patch"`, the content
    /// sent, the frontend's content known, a patch no longer than it).
    /// - Complexity: O(rows + their patches).
    private func splitPatched(_ updates: [(old: ItemPath, new: ItemPath)], new: Snapshot)
        -> (whole: [Changeset.ItemUpdate], patched: [PatchedRow]) {
        var whole: [Changeset.ItemUpdate] = [], patched: [PatchedRow] = []
        for (old, path) in updates {
            if !echo.previous.isEmpty, let item = new.item(at: path), echo.includes(item), let content = item.content,
               let before = echo.previous[item.itemID], let patch = JSONPatch.diff(from: before, to: content) {
                patched.append(PatchedRow(section: old.section, row: old.row, patch: patch))
            } else {
                whole.append(Changeset.ItemUpdate(old: old, new: path))
            }
        }
        return (whole, patched)
    }

    /// One run per section of `rows` (sorted by section, then row):
    /// `{"section", "rows", "patches"}`, with `"op"` first in the steps form.
    private func patchRuns(_ rows: [PatchedRow], op: String?) -> [JSON] {
        let rows = rows.sorted { ($0.section, $0.row) < ($1.section, $1.row) }
        var runs: [JSON] = []
        var start = 0
        while start < rows.count {
            var end = start + 1
            while end < rows.count, rows[end].section == rows[start].section { end += 1 }
            var writer = JSONWriter(reservingCapacity: 48 + rows[start..<end].reduce(0) { $0 + $1.patch.count + 8 })
            writer.beginObject()
            if let op {
                writer.key(raw: "op")
                writer.appendString(op)
            }
            writer.key(raw: "section")
            writer.appendInt(rows[start].section)
            writer.key(raw: "rows")
            writer.beginArray()
            for row in rows[start..<end] { writer.appendInt(row.row) }
            writer.endArray()
            writer.key(raw: "patches")
            writer.beginArray()
            for row in rows[start..<end] { writer.appendRaw(row.patch) }
            writer.endArray()
            writer.endObject()
            runs.append(.raw(writer.bytes))
            start = end
        }
        return runs
    }

    private func op(_ name: String, _ members: [(String, JSON)]) -> JSON {
        .object(JSONObject([("op", .string(name))] + members))
    }

    private func rowRun(_ new: Snapshot, _ section: Int, _ row: Int, _ count: Int) -> [(String, JSON)] {
        [("section", .int(section)), ("at", .int(row)), ("items", itemList(new, section: section, row: row, count: count))]
    }

    // MARK: pieces

    private func pair(_ a: Int, _ b: Int) -> JSON { .array([.int(a), .int(b)]) }

    private func path(_ p: ItemPath) -> JSON { pair(p.section, p.row) }

    private func header(_ new: Snapshot, _ index: Int) -> JSON {
        guard new.sections.indices.contains(index), let header = new.sections[index].header else { return .null }
        return SnapshotCodec.raw(header)
    }

    private func sectionList(_ new: Snapshot, _ start: Int, _ count: Int) -> JSON {
        let range = start..<min(start + count, new.sections.count)
        return SnapshotCodec.encode(sections: range.isEmpty ? [] : new.sections[range], echo: echo)
    }

    package func itemList(_ new: Snapshot, _ paths: [ItemPath]) -> JSON {
        SnapshotCodec.encode(items: paths.lazy.compactMap { new.item(at: $0) }, echo: echo)
    }

    /// Rows `row ..< row + count` of one section, sliced without copying.
    private func itemList(_ new: Snapshot, section: Int, row: Int, count: Int) -> JSON {
        guard new.sections.indices.contains(section) else { return .array([]) }
        let items = new.sections[section].items
        let range = max(0, row)..<min(items.count, row + count)
        guard !range.isEmpty else { return SnapshotCodec.encode(items: EmptyCollection<Item>()) }
        return SnapshotCodec.encode(items: items[range], echo: echo)
    }

    private func itemRun(section: Int, at: Int, items: JSON) -> JSON {
        .object(JSONObject([("section", .int(section)), ("at", .int(at)), ("items", items)]))
    }

    /// Contiguous runs of ascending integers.
    package func runs(_ sorted: [Int]) -> [(start: Int, count: Int)] {
        var result: [(start: Int, count: Int)] = []
        for value in sorted {
            if let last = result.last, last.start + last.count == value {
                result[result.count - 1].count += 1
            } else {
                result.append((value, 1))
            }
        }
        return result
    }

    private func bySection(_ paths: [ItemPath]) -> [(section: Int, rows: [Int])] {
        var groups: [(section: Int, rows: [Int])] = []
        for p in paths {
            if let last = groups.last, last.section == p.section {
                groups[groups.count - 1].rows.append(p.row)
            } else {
                groups.append((p.section, [p.row]))
            }
        }
        return groups
    }

    /// Runs of updates contiguous in old coordinates, with the new paths that
    /// locate each row's content.
    private func updateRuns(_ updates: [Changeset.ItemUpdate]) -> [(section: Int, start: Int, newPaths: [ItemPath])] {
        var result: [(section: Int, start: Int, newPaths: [ItemPath])] = []
        for u in updates {
            if let last = result.last, last.section == u.old.section, last.start + last.newPaths.count == u.old.row {
                result[result.count - 1].newPaths.append(u.new)
            } else {
                result.append((u.old.section, u.old.row, [u.new]))
            }
        }
        return result
    }
}
