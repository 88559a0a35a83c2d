extension DataSource {
    /// An edit whose ops only set contents (`setContent`, `transformContent`)
    /// made in place: the source lets go of its snapshot while the edit
    /// runs, so the chunks that hold the changed rows are written where
    /// they are instead of being copied (copy-on-write copies a chunk only
    /// when something else still holds it), and no old snapshot is left to
    /// free. A ticker that changes 100 scattered rows of 10,000 touches
    /// every chunk: copying them is O(rows of the source) a tick, and so is
    /// freeing the old ones; in place it is O(ops).
    ///
    /// The answer is the one `edit` gives (same changeset, same errors,
    /// same final state), except that `oldVisible` is the new visible
    /// snapshot, which has the same rows, and `contentsBefore` holds what
    /// the changed rows had: a caller that needs the old snapshot itself
    /// calls `edit`, which never takes this path. On a failure the rows
    /// written so far are put back, so the source is as it was.
    ///
    /// Nil (nothing done) unless the ops set contents only, the source is
    /// flat, has no search field (a search index would have to be carried
    /// through the edit, reading the old rows) and shows the full snapshot.
    ///
    /// - Complexity: O(ops × (chunks of a section + size of the new
    ///   content)) when the edit index's offset hints are right (they stay
    ///   right through content edits), plus O(k log k) for the k changed rows.
    public mutating func editContentsInPlace(_ ops: [EditOperation]) throws(EditError) -> Update? {
        guard !ops.isEmpty, outline.isEmpty, search == nil, Self.setsContentsOnly(ops), sharesRows(visible, snapshot) else {
            return nil
        }
        var index = takeEditIndex()
        var writer = ContentWriter(sections: snapshot.sections)
        // The writer is now the only holder of the rows: writes go in place.
        snapshot = Snapshot()
        visible = Snapshot()
        for (number, op) in ops.enumerated() {
            do throws(EditFailure) {
                try writer.apply(op, index: &index)
            } catch {
                writer.rollBack()
                snapshot = Snapshot(sections: writer.sections)
                visible = snapshot
                editIndex = index
                throw EditError(op: number, opName: op.name, reason: error.reason, ids: error.ids,
                                transformFailure: error.transformFailure)
            }
        }
        let (changeset, before) = writer.changeset()
        let edited = Snapshot(sections: writer.sections)
        writer = ContentWriter(sections: [])
        snapshot = edited
        visible = edited
        var update = commit(edited, fullChangeset: changeset)
        update.contentsBefore = before
        editIndex = index
        return update
    }

    /// Whether every op sets contents and nothing else.
    static func setsContentsOnly(_ ops: [EditOperation]) -> Bool {
        ops.allSatisfy { op in
            switch op {
            case .setContent, .transformContent: return true
            default: return false
            }
        }
    }

    /// Whether two snapshots are the same sections' storage (the visible
    /// snapshot of a source that filters nothing is its full one).
    private func sharesRows(_ a: Snapshot, _ b: Snapshot) -> Bool {
        a.sections.withUnsafeBufferPointer { x in b.sections.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
            && a.sections.count == b.sections.count
    }
}

/// The rows of a content-only edit in progress (see
/// `DataSource.editContentsInPlace`): what each op wrote, to put back on
/// a failure, and what each changed row had, for the changeset.
struct ContentWriter {
    var sections: [Section]
    /// Every write, in order: the row and the item it replaced.
    private var undo: [(path: ItemPath, item: Item)] = []
    /// Each touched row, first touch first: its path, the item it had
    /// before the edit, and whether a `reconfigure` style changed it.
    private var touched: [ItemID: Int] = [:]
    private var rows: [(path: ItemPath, before: Item, reconfigure: Bool)] = []

    init(sections: [Section]) {
        self.sections = sections
    }

    /// Applies one op as `EditWorkspace.apply` does.
    mutating func apply(_ op: EditOperation, index: inout EditIndex) throws(EditFailure) {
        switch op {
        case .setContent(let updates, let style):
            var paths: [(path: ItemPath, entry: Int)?] = []
            paths.reserveCapacity(updates.count)
            var unknown: [String] = [], reported = Set<ItemID>()
            for update in updates {
                let key = ItemID(update.id)
                let found = locate(key, index: &index)
                if found == nil, reported.insert(key).inserted { unknown.append(update.id) }
                paths.append(found)
            }
            if !unknown.isEmpty { throw EditFailure(.unknownItem, unknown) }
            for (update, found) in zip(updates, paths) {
                guard let found else { continue }
                set(update, at: found, reconfigure: style == .reconfigure, index: &index)
            }
        case .transformContent(let transform):
            guard let found = locate(ItemID(transform.id), index: &index) else { throw EditFailure(.unknownItem, [transform.id]) }
            let update = try transform.update(from: sections[found.path.section].items[found.path.row].content)
            set(update, at: found, reconfigure: false, index: &index)
        default:
            throw EditFailure(.unknownItem, [])
        }
    }

    /// Where `key` is (and its entry in the index): through the index, its
    /// offset hint checked (and kept right when it was stale).
    /// - Complexity: O(sections' chunks) plus O(1) with a right hint.
    private func locate(_ key: ItemID, index: inout EditIndex) -> (path: ItemPath, entry: Int)? {
        guard let (entry, location) = index.locationOfItem.entry(of: key), let s = index.sectionPosition[location.section],
              sections.indices.contains(s),
              let found = sections[s].items.find(key, inChunk: location.chunk, hint: location.offset) else { return nil }
        if found.offset != location.offset {
            index.locationOfItem.setLocation(EditIndex.Location(section: location.section, chunk: location.chunk, offset: found.offset),
                                             ofEntryAt: entry)
        }
        return (ItemPath(section: s, row: found.row), entry)
    }

    /// Writes the new content when it differs, noting the row. The index
    /// entry's key moves to the new item's bytes, so that the storage the
    /// old item was read into (an `apply`'s arena, shared with thousands
    /// of rows) goes once its last row is rewritten.
    private mutating func set(_ update: ContentUpdate, at found: (path: ItemPath, entry: Int), reconfigure: Bool,
                              index: inout EditIndex) {
        let path = found.path
        let old = sections[path.section].items[path.row]
        guard old.content != update.content else { return }
        let key = old.itemID
        if let k = touched[key] {
            if reconfigure { rows[k].reconfigure = true }
        } else {
            touched[key] = rows.count
            rows.append((path, old, reconfigure))
        }
        undo.append((path, old))
        let new = Item(id: update.id, content: update.content, text: update.text)
        sections[path.section].items[path.row] = new
        index.locationOfItem.setKey(new.itemID, ofEntryAt: found.entry)
    }

    /// Puts back every row written, last first.
    mutating func rollBack() {
        while let (path, item) = undo.popLast() { sections[path.section].items[path.row] = item }
    }

    /// The edit's changeset (as `EditWorkspace.changeset()` derives it:
    /// a row whose content differs at the end is a reload, a reconfigure
    /// when a `reconfigure` style changed it), and the content each
    /// changed row had.
    /// - Complexity: O(k log k), k = touched rows.
    func changeset() -> (Changeset, [ItemID: Content]) {
        var c = Changeset()
        var before: [ItemID: Content] = [:]
        before.reserveCapacity(rows.count)
        for row in rows {
            let now = sections[row.path.section].items[row.path.row]
            guard now.content != row.before.content else { continue }
            let update = Changeset.ItemUpdate(old: row.path, new: row.path)
            if row.reconfigure { c.itemReconfigures.append(update) } else { c.itemReloads.append(update) }
            if let content = row.before.content { before[row.before.itemID] = content }
        }
        c.itemReloads.sort { $0.old < $1.old }
        c.itemReconfigures.sort { $0.old < $1.old }
        return (c, before)
    }
}
