/// What an edit did to one item id, for the changeset (see `changeset()`).
struct ItemMarks: OptionSet {
    let rawValue: UInt8
    /// Explicitly moved, or deleted then inserted again (same identity).
    static let moved = ItemMarks(rawValue: 1)
    /// `reloadItems`: report a reload even if the content is equal.
    static let reload = ItemMarks(rawValue: 2)
    /// `reconfigureItems`: report a reconfigure even if the content is equal.
    static let reconfigure = ItemMarks(rawValue: 4)
    /// A `setContent` with style `reconfigure` changed the content.
    static let contentAsReconfigure = ItemMarks(rawValue: 8)
}

/// What an edit did to one section id.
struct SectionMarks: OptionSet {
    let rawValue: UInt8
    /// Explicitly moved, or deleted then inserted again (same identity).
    static let moved = SectionMarks(rawValue: 1)
    /// `reloadSections`: report a header reload even if it is equal.
    static let reload = SectionMarks(rawValue: 2)
}

/// Working state of one `applyingEdits` call: the snapshot being edited
/// (copy-on-write: only the chunk tables and chunks that ops touch are
/// copied, see `ItemList`), an overlay of
/// the index (ids whose section changed), and bookkeeping of every id the ops
/// touched, from which `changeset()` derives the diff without comparing the
/// whole snapshots.
struct EditWorkspace {
    let oldSections: [Section]
    /// Index of the old snapshot; never mutated here.
    let base: EditIndex
    var sections: [Section]
    /// Item id → current location (`nil`: no longer present), for every
    /// item whose section or chunk changed; other items are found through
    /// `base`.
    var overlay: [ItemID: EditIndex.Location?] = [:]
    /// Section id → current position; stale while `positionsDirty`.
    var positions: [String: Int]
    var positionsDirty = false
    var sectionStructureChanged = false
    /// Keyed by the ids' bytes: `"\u{e9}"` and `"e\u{301}"` are two items.
    var itemMarks: [ItemID: ItemMarks] = [:]
    var sectionMarks: [String: SectionMarks] = [:]

    init(_ snapshot: Snapshot, index: EditIndex) {
        oldSections = snapshot.sections
        sections = snapshot.sections
        base = index
        positions = index.sectionPosition
    }

    // MARK: lookups

    /// - Complexity: O(1) expected.
    func location(ofItem id: String) -> EditIndex.Location? { location(ofItem: ItemID(id)) }

    func location(ofItem key: ItemID) -> EditIndex.Location? {
        if !overlay.isEmpty, let entry = overlay[key] { return entry }
        return base.locationOfItem[key]
    }

    /// - Complexity: O(1) expected.
    func sectionID(ofItem id: String) -> String? { location(ofItem: id)?.section }

    /// - Complexity: O(1) expected; O(sections) after a section structure change.
    mutating func position(ofSection id: String) -> Int? {
        if positionsDirty {
            positions = [String: Int](minimumCapacity: sections.count)
            for (index, section) in sections.enumerated() { positions[section.id] = index }
            positionsDirty = false
        }
        return positions[id]
    }

    /// Where `id` is now. The offset the index keeps as a hint is checked
    /// first; when it was stale, the offset found is kept in the overlay
    /// for the next lookup (and, after `merge`, the next edit).
    /// - Complexity: O(chunks of the item's section) to find its chunk,
    ///   plus O(1) with a right hint, else O(chunk size) (see
    ///   `ItemList.find`).
    mutating func locate(item id: String) -> ItemPath? { locate(ItemID(id)) }

    /// `locate(item:)` by `ItemID`.
    mutating func locate(_ key: ItemID) -> ItemPath? {
        guard let location = location(ofItem: key), let s = position(ofSection: location.section),
              let found = sections[s].items.find(key, inChunk: location.chunk, hint: location.offset)
        else { return nil }
        if found.offset != location.offset {
            overlay[key] = .some(EditIndex.Location(section: location.section, chunk: location.chunk, offset: found.offset))
        }
        return ItemPath(section: s, row: found.row)
    }

    func isOriginal(item id: String) -> Bool { base.locationOfItem[ItemID(id)] != nil }
    func isOriginal(section id: String) -> Bool { base.sectionPosition[id] != nil }

    // MARK: ops

    /// Applies one op; on failure the workspace may be half-edited and must
    /// be discarded (`Snapshot.applyingEdits` does).
    mutating func apply(_ op: EditOperation) throws(EditFailure) {
        switch op {
        case .appendSections(let list):
            try insertSections(list, at: nil)
        case .insertSections(let list, let position):
            try insertSections(list, at: position)
        case .deleteSections(let ids):
            try deleteSections(ids)
        case .moveSection(let id, let position):
            try moveSection(id, position)
        case .reloadSections(let ids):
            try requireSections(ids)
            for id in ids { sectionMarks[id, default: []].insert(.reload) }
        case .setHeaders(let updates):
            try requireSections(updates.map(\.id))
            for update in updates {
                guard let s = position(ofSection: update.id) else { continue }
                sections[s].header = update.header
                touch(section: update.id)
            }
        case .appendItems(let items, let sectionID):
            try appendItems(items, to: sectionID)
        case .insertItems(let items, let position):
            try insertItems(items, position)
        case .deleteItems(let ids):
            try deleteItems(ids)
        case .deleteAllItems:
            for s in sections.indices {
                for item in sections[s].items { removed(item: item.id) }
                sections[s].items = []
            }
        case .moveItem(let id, let position):
            try moveItem(id, position)
        case .reloadItems(let ids):
            try requireItems(ids)
            for id in ids { itemMarks[ItemID(id), default: []].insert(.reload) }
        case .reconfigureItems(let ids):
            try requireItems(ids)
            for id in ids { itemMarks[ItemID(id), default: []].insert(.reconfigure) }
        case .setContent(let updates, let style):
            try requireItems(updates.map(\.id))
            for update in updates {
                let key = ItemID(update.id)
                guard let path = locate(key) else { continue }
                setContent(update, of: key, at: path, style: style)
            }
        case .transformContent(let transform):
            let key = ItemID(transform.id)
            guard let path = locate(key) else { throw EditFailure(.unknownItem, [transform.id]) }
            let update = try transform.update(from: sections[path.section].items[path.row].content)
            setContent(update, of: key, at: path, style: .reload)
        }
    }

    /// Sets the content (and search text) of the item `key` at `path`, and
    /// marks it, when the content differs.
    private mutating func setContent(_ update: ContentUpdate, of key: ItemID, at path: ItemPath, style: ContentUpdateStyle) {
        let old = sections[path.section].items[path.row]
        guard old.content != update.content else { return }
        sections[path.section].items[path.row] = Item(id: update.id, content: update.content, text: update.text)
        if style == .reconfigure {
            itemMarks[key, default: []].insert(.contentAsReconfigure)
        } else if itemMarks[key] == nil {
            itemMarks[key] = []
        }
    }

    // MARK: checks

    private mutating func requireSections(_ ids: [String]) throws(EditFailure) {
        var unknown: [String] = [], reported = Set<String>()
        for id in ids where position(ofSection: id) == nil && reported.insert(id).inserted { unknown.append(id) }
        if !unknown.isEmpty { throw EditFailure(.unknownSection, unknown) }
    }

    func requireItems(_ ids: [String]) throws(EditFailure) {
        var unknown: [String] = [], reported = Set<ItemID>()
        for id in ids where sectionID(ofItem: id) == nil && reported.insert(ItemID(id)).inserted { unknown.append(id) }
        if !unknown.isEmpty { throw EditFailure(.unknownItem, unknown) }
    }

    /// Ids must be listed once each.
    static func requireDistinct(_ ids: [String], _ reason: EditError.Reason) throws(EditFailure) {
        guard ids.count > 1 else { return }
        var repeated: [String] = []
        if reason == .duplicateItem {
            // Item ids are compared by their bytes ("é" is not "e\u{301}").
            var seen = Set<ItemID>(minimumCapacity: ids.count), reported = Set<ItemID>()
            for id in ids {
                let key = ItemID(id)
                if !seen.insert(key).inserted, reported.insert(key).inserted { repeated.append(id) }
            }
        } else {
            var seen = Set<String>(minimumCapacity: ids.count), reported = Set<String>()
            for id in ids where !seen.insert(id).inserted && reported.insert(id).inserted { repeated.append(id) }
        }
        if !repeated.isEmpty { throw EditFailure(reason, repeated) }
    }

    /// New items must not exist yet nor be listed twice.
    private func requireNew(items: [Item]) throws(EditFailure) {
        let existing = items.filter { sectionID(ofItem: $0.id) != nil }.map(\.id)
        if !existing.isEmpty { throw EditFailure(.duplicateItem, existing) }
        try Self.requireDistinct(items.map(\.id), .duplicateItem)
    }

    // MARK: bookkeeping

    private mutating func touch(item id: String) {
        if itemMarks[ItemID(id)] == nil { itemMarks[ItemID(id)] = [] }
    }

    private mutating func touch(section id: String) {
        if sectionMarks[id] == nil { sectionMarks[id] = [] }
    }

    private mutating func removed(item id: String) {
        overlay[ItemID(id)] = .some(nil)
        touch(item: id)
    }

    /// Records where items landed (or moved between chunks) in a section.
    mutating func record(_ placements: [ItemList.Placement]?, in sectionID: String) {
        guard let placements else { return }
        for placement in placements {
            overlay[placement.id] = .some(EditIndex.Location(section: sectionID, chunk: placement.chunk))
        }
    }

    /// Marks an item added to a section (its location is recorded apart).
    private mutating func added(item id: String) {
        if isOriginal(item: id) {
            itemMarks[ItemID(id), default: []].insert(.moved)
        } else {
            touch(item: id)
        }
    }

    // MARK: section ops

    private mutating func insertSections(_ list: [Section], at position: EditPosition?) throws(EditFailure) {
        var index = sections.count
        if let position {
            guard let target = self.position(ofSection: position.target) else {
                throw EditFailure(.unknownSection, [position.target])
            }
            index = position.isAfter ? target + 1 : target
        }
        var taken: [String] = []
        for section in list where self.position(ofSection: section.id) != nil { taken.append(section.id) }
        if !taken.isEmpty { throw EditFailure(.duplicateSection, taken) }
        try Self.requireDistinct(list.map(\.id), .duplicateSection)
        try requireNew(items: list.flatMap(\.items))

        let appending = index == sections.count
        var list = list
        for i in list.indices { list[i].items.chunkify() }
        sections.insert(contentsOf: list, at: index)
        sectionStructureChanged = true
        if appending && !positionsDirty {
            for (offset, section) in list.enumerated() { positions[section.id] = index + offset }
        } else {
            positionsDirty = true
        }
        for section in list {
            if isOriginal(section: section.id) {
                sectionMarks[section.id, default: []].insert(.moved)
            } else {
                touch(section: section.id)
            }
            section.items.forEachChunk { chunk, items in
                let location = EditIndex.Location(section: section.id, chunk: chunk)
                for item in items {
                    overlay[item.itemID] = .some(location)
                    added(item: item.id)
                }
            }
        }
    }

    private mutating func deleteSections(_ ids: [String]) throws(EditFailure) {
        try requireSections(ids)
        try Self.requireDistinct(ids, .duplicateSection)
        var doomed: [Int] = []
        for id in ids {
            guard let s = position(ofSection: id) else { continue }
            doomed.append(s)
        }
        for s in doomed.sorted(by: >) {
            let section = sections.remove(at: s)
            for item in section.items { removed(item: item.id) }
            touch(section: section.id)
        }
        sectionStructureChanged = true
        positionsDirty = true
    }

    private mutating func moveSection(_ id: String, _ position: EditPosition) throws(EditFailure) {
        guard id != position.target else { throw EditFailure(.relativeToItself, [id]) }
        try requireSections([id, position.target])
        guard let from = self.position(ofSection: id) else { return }
        let section = sections.remove(at: from)
        positionsDirty = true
        guard let target = self.position(ofSection: position.target) else { return }
        sections.insert(section, at: position.isAfter ? target + 1 : target)
        positionsDirty = true
        sectionStructureChanged = true
        sectionMarks[id, default: []].insert(.moved)
    }

    // MARK: item ops

    private mutating func appendItems(_ items: [Item], to sectionID: String?) throws(EditFailure) {
        let s: Int
        if let sectionID {
            guard let found = position(ofSection: sectionID) else { throw EditFailure(.unknownSection, [sectionID]) }
            s = found
        } else {
            guard !sections.isEmpty else { throw EditFailure(.noSection, []) }
            s = sections.count - 1
        }
        try requireNew(items: items)
        var placements: [ItemList.Placement]? = []
        let end = sections[s].items.count
        sections[s].items.replace(end..<end, with: items, report: &placements)
        record(placements, in: sections[s].id)
        for item in items { added(item: item.id) }
    }

    private mutating func insertItems(_ items: [Item], _ position: EditPosition) throws(EditFailure) {
        guard let target = locate(item: position.target) else { throw EditFailure(.unknownItem, [position.target]) }
        try requireNew(items: items)
        var placements: [ItemList.Placement]? = []
        sections[target.section].items.insert(items, at: position.isAfter ? target.row + 1 : target.row, report: &placements)
        record(placements, in: sections[target.section].id)
        for item in items { added(item: item.id) }
    }

    private mutating func deleteItems(_ ids: [String]) throws(EditFailure) {
        try requireItems(ids)
        try Self.requireDistinct(ids, .duplicateItem)
        var placements: [ItemList.Placement]? = []
        if ids.count == 1, let path = locate(item: ids[0]) {
            _ = sections[path.section].items.remove(at: path.row, report: &placements)
            record(placements, in: sections[path.section].id)
            removed(item: ids[0])
            return
        }
        var bySection: [String: (ids: Set<ItemID>, chunks: Set<Int>)] = [:]
        for id in ids {
            guard let location = location(ofItem: id) else { continue }
            bySection[location.section, default: ([], [])].ids.insert(ItemID(id))
            bySection[location.section, default: ([], [])].chunks.insert(location.chunk)
        }
        for (sectionID, doomed) in bySection {
            guard let s = position(ofSection: sectionID) else { continue }
            placements = []
            sections[s].items.removeAll(
                where: { doomed.ids.contains($0.itemID) }, inChunks: { doomed.chunks.contains($0) }, report: &placements)
            record(placements, in: sectionID)
        }
        for id in ids { removed(item: id) }
    }

    private mutating func moveItem(_ id: String, _ position: EditPosition) throws(EditFailure) {
        guard ItemID(id) != ItemID(position.target) else { throw EditFailure(.relativeToItself, [id]) }
        try requireItems([id, position.target])
        guard let from = locate(item: id) else { return }
        var placements: [ItemList.Placement]? = []
        let item = sections[from.section].items.remove(at: from.row, report: &placements)
        record(placements, in: sections[from.section].id)
        guard let target = locate(item: position.target) else { return }
        placements = []
        sections[target.section].items.insert([item], at: position.isAfter ? target.row + 1 : target.row, report: &placements)
        record(placements, in: sections[target.section].id)
        itemMarks[ItemID(id), default: []].insert(.moved)
    }
}
