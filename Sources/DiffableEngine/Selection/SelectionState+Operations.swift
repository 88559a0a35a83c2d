/// Where an item is in the full snapshot.
struct SelectionLocation: Sendable {
    var section: Int
    var row: Int
    var sectionID: String

    var order: (Int, Int) { (section, row) }
}

extension SelectionState {
    /// Performs a selection request, all or nothing.
    ///
    /// Targets are resolved first: `.id` in `full`, `.path` in `visible`;
    /// duplicates (the same item named twice, by id or by path) count once.
    /// Then every section rule is checked; only if all pass does the state
    /// change.
    ///
    /// - `select`: selects the targets. In a `.single` section the new item
    ///   replaces the previous one (reported in `deselected`); naming two items
    ///   of one `.single` section is `tooManyForSingle`. Already selected items
    ///   are no-ops and not reported. Any target in a `.none` section is
    ///   `selectionDisabled`.
    /// - `deselect`: deselects the targets; unselected ones are no-ops. If the
    ///   request would empty a section whose policy has `allowsEmpty == false`,
    ///   that section's deselections are ignored and listed in `kept` (not an
    ///   error: the tapped row simply stays selected). Other sections proceed.
    /// - `toggle`: each unselected target is selected and each selected one is
    ///   deselected, with the rules above applied to the combined result (so
    ///   toggling the other item of a `.single` section switches to it).
    /// - `clear`: deselects every selected item of the `.section` targets, or of
    ///   every section when there are no targets, hidden items included.
    ///   `allowsEmpty` does not apply: clearing is explicit.
    ///
    /// - Parameters:
    ///   - full: the source's full snapshot, where each item's section is found.
    ///   - visible: what the frontend shows (for example the search result);
    ///     `.path` targets and the delta's paths refer to it.
    /// - Returns: what changed; items not in `visible` have a `nil` path.
    /// - Throws: `SelectionError`; the state is then unchanged.
    /// - Complexity: O(n + t + k log k): one pass over `full` to locate the
    ///   targets and the selected items, and, only when the delta is not
    ///   empty, one pass over `visible` for paths (n = items in both
    ///   snapshots, t = targets, k = items in the delta). An id → path index
    ///   kept alongside the snapshot could make this O(t + selected); not done
    ///   yet.
    @discardableResult
    public mutating func perform(
        _ action: SelectionAction,
        targets: [SelectionTarget],
        in full: Snapshot,
        visible: Snapshot
    ) throws(SelectionError) -> SelectionDelta {
        if action == .clear {
            return try clear(targets, in: full, visible: visible)
        }

        // 1. Resolve targets (errors are raised in target order after locating).
        enum Resolved { case item(ItemID), failure(SelectionError) }
        var resolved: [Resolved] = []
        resolved.reserveCapacity(targets.count)
        var wanted = Set<ItemID>()
        for target in targets {
            switch target {
            case .id(let id):
                let key = ItemID(id)
                resolved.append(.item(key))
                wanted.insert(key)
            case .path(let path):
                if let item = visible.item(at: path) {
                    resolved.append(.item(item.itemID))
                    wanted.insert(item.itemID)
                } else {
                    resolved.append(.failure(.pathOutOfRange(path)))
                }
            case .section:
                resolved.append(.failure(.targetNotAllowed(action: action, target: target)))
            }
        }
        let locations = locate(wanted, in: full)

        var targetIDs: [ItemID] = []
        var seen = Set<ItemID>()
        for entry in resolved {
            switch entry {
            case .failure(let error):
                throw error
            case .item(let id):
                // A visible item missing from `full` is as unknown as a bad id.
                guard locations[id] != nil else { throw .unknownItem(id: id.string) }
                if seen.insert(id).inserted { targetIDs.append(id) }
            }
        }

        // 2. Split into wanted selections and deselections, grouped by section
        //    in order of each section's first target.
        var sectionOrder: [String] = []
        var touched = Set<String>()
        var adds: [String: [ItemID]] = [:]
        var removes: [String: [ItemID]] = [:]
        for id in targetIDs {
            guard let sectionID = locations[id]?.sectionID else { continue }
            if touched.insert(sectionID).inserted { sectionOrder.append(sectionID) }
            let isSelect: Bool
            switch action {
            case .select: isSelect = true
            case .deselect: isSelect = false
            case .toggle, .clear: isSelect = entries[id] == nil
            }
            if isSelect {
                adds[sectionID, default: []].append(id)
            } else {
                removes[sectionID, default: []].append(id)
            }
        }

        // 3. Validate section rules.
        for sectionID in sectionOrder {
            guard let ids = adds[sectionID], !ids.isEmpty else { continue }
            let policy = policy(for: sectionID)
            switch policy.mode {
            case .none:
                throw .selectionDisabled(sectionID: sectionID, itemIDs: ids.map(\.string))
            case .single where ids.count > 1:
                throw .tooManyForSingle(sectionID: sectionID, itemIDs: ids.map(\.string))
            case .single, .multiple:
                break
            }
        }

        // 4. Plan (no failure possible from here on).
        var currentBySection: [String: [ItemID]] = [:]
        for (id, _) in entries {
            guard let sectionID = locations[id]?.sectionID, touched.contains(sectionID) else { continue }
            currentBySection[sectionID, default: []].append(id)
        }
        var toSelect: [ItemID] = []
        var toDeselect: [ItemID] = []
        var kept: [ItemID] = []
        for sectionID in sectionOrder {
            let policy = policy(for: sectionID)
            let current = currentBySection[sectionID] ?? []
            let newOnes = (adds[sectionID] ?? []).filter { entries[$0] == nil }
            var gone: [ItemID]
            if policy.mode == .single && !newOnes.isEmpty {
                gone = current  // replaced
            } else {
                gone = (removes[sectionID] ?? []).filter { entries[$0] != nil }
            }
            let remaining = current.count - gone.count + newOnes.count
            if !policy.allowsEmpty && !current.isEmpty && remaining == 0 {
                kept += gone
                gone = []
            }
            toSelect += newOnes
            toDeselect += gone
        }

        // 5. Apply.
        for id in toDeselect { entries[id] = nil }
        for id in toSelect {
            guard let location = locations[id] else { continue }
            entries[id.owned] = Entry(serial: nextSerial, sectionID: location.sectionID)
            nextSerial &+= 1
        }

        return makeDelta(
            selected: toSelect, deselected: toDeselect, kept: kept,
            locations: locations, serials: [:], visible: visible)
    }

    /// Brings the selection in line with a new snapshot (after an apply or an
    /// edit) and with the current policies.
    ///
    /// - Selected items no longer in `newFull` are dropped (reported in
    ///   `deselected` with a `nil` path).
    /// - Items now in a `.none` section are deselected.
    /// - A `.single` section holding several selected items keeps one: the item
    ///   that was already in that section before, or, if several were (or none
    ///   was), the one selected earliest. The others are deselected.
    /// - Nothing is ever selected automatically: a section whose policy has
    ///   `allowsEmpty == false` may end up empty here.
    ///
    /// Hidden items (not in `visible`) are kept like any other.
    /// - Complexity: O(n + k log k), n = items in `newFull` and `visible`,
    ///   k = items in the delta.
    @discardableResult
    public mutating func reconcile(with newFull: Snapshot, visible: Snapshot) -> SelectionDelta {
        guard !entries.isEmpty else { return SelectionDelta() }
        let locations = locate([], in: newFull)

        var gone: [ItemID] = []
        var bySection: [String: [ItemID]] = [:]
        for (id, _) in entries {
            if let location = locations[id] {
                bySection[location.sectionID, default: []].append(id)
            } else {
                gone.append(id)
            }
        }
        for (sectionID, ids) in bySection {
            switch policy(for: sectionID).mode {
            case .none:
                gone += ids
            case .single where ids.count > 1:
                let survivor = ids.min { a, b in
                    let ea = entries[a], eb = entries[b]
                    let stayedA = ea?.sectionID == sectionID, stayedB = eb?.sectionID == sectionID
                    if stayedA != stayedB { return stayedA }
                    return (ea?.serial ?? .max) < (eb?.serial ?? .max)
                }
                gone += ids.filter { $0 != survivor }
            case .single, .multiple:
                break
            }
        }

        let goneSerials = serials(of: gone)
        for id in gone { entries[id] = nil }
        // Through the indices: the keys stay the entries' own (see `entries`),
        // not the views into `newFull` that `locations` is keyed by; and no
        // iterator holds a copy of `entries` while its values change.
        var index = entries.startIndex
        while index != entries.endIndex {
            if let location = locations[entries.keys[index]] {
                entries.values[index].sectionID = location.sectionID
            }
            entries.formIndex(after: &index)
        }
        return makeDelta(
            selected: [], deselected: gone, kept: [], locations: locations, serials: goneSerials, visible: visible)
    }

    // MARK: - Helpers

    private mutating func clear(
        _ targets: [SelectionTarget], in full: Snapshot, visible: Snapshot
    ) throws(SelectionError) -> SelectionDelta {
        var sectionIDs = Set<String>()
        if !targets.isEmpty {
            let existing = Set(full.sections.map(\.id))
            for target in targets {
                guard case .section(let id) = target else {
                    throw .targetNotAllowed(action: .clear, target: target)
                }
                guard existing.contains(id) else { throw .unknownSection(id: id) }
                sectionIDs.insert(id)
            }
        }
        guard !entries.isEmpty else { return SelectionDelta() }
        let locations = locate([], in: full)
        let gone: [ItemID]
        if targets.isEmpty {
            gone = Array(entries.keys)
        } else {
            gone = entries.keys.filter { id in
                guard let sectionID = locations[id]?.sectionID else { return false }
                return sectionIDs.contains(sectionID)
            }
        }
        let goneSerials = serials(of: gone)
        for id in gone { entries[id] = nil }
        return makeDelta(
            selected: [], deselected: gone, kept: [], locations: locations, serials: goneSerials, visible: visible)
    }

    /// Locations in `full` of the wanted ids and of every selected id.
    /// The keys are views into `full` (`Item.itemID`).
    /// - Complexity: O(n), n = items in `full`.
    func locate(_ wanted: Set<ItemID>, in full: Snapshot) -> [ItemID: SelectionLocation] {
        var result: [ItemID: SelectionLocation] = [:]
        let needed = wanted.count + entries.count
        guard needed > 0 else { return result }
        result.reserveCapacity(needed)
        let hashes = selectedHashes.union(wanted.map { Item.hash($0) })
        for (s, section) in full.sections.enumerated() {
            for (r, item) in section.items.enumerated() where hashes.contains(item.idHash) {
                let id = item.itemID
                if entries[id] != nil || wanted.contains(id) {
                    result[id] = SelectionLocation(section: s, row: r, sectionID: section.id)
                }
            }
        }
        return result
    }

    /// Orders ids by full-snapshot position (unlocated ones last, by selection
    /// order, then id) and attaches visible paths.
    private func makeDelta(
        selected: [ItemID], deselected: [ItemID], kept: [ItemID],
        locations: [ItemID: SelectionLocation], serials: [ItemID: UInt64], visible: Snapshot
    ) -> SelectionDelta {
        guard !(selected.isEmpty && deselected.isEmpty && kept.isEmpty) else { return SelectionDelta() }
        // Unlocated items only occur among deselections; their serial numbers
        // were captured before they left `entries`.
        func sorted(_ ids: [ItemID]) -> [ItemID] {
            ids.sorted { a, b in
                switch (locations[a], locations[b]) {
                case let (la?, lb?): return la.order < lb.order
                case (_?, nil): return true
                case (nil, _?): return false
                case (nil, nil):
                    let sa = serials[a] ?? .max, sb = serials[b] ?? .max
                    return sa != sb ? sa < sb : Self.precedes(a, b)
                }
            }
        }
        var changed = Set(selected)
        changed.formUnion(deselected)
        changed.formUnion(kept)
        let paths = visiblePaths(of: changed, in: visible)
        func changes(_ ids: [ItemID]) -> [SelectionDelta.Change] {
            ids.map { SelectionDelta.Change(id: $0.string, path: paths[$0]) }
        }
        return SelectionDelta(
            selected: changes(sorted(selected)),
            deselected: changes(sorted(deselected)),
            kept: changes(sorted(kept)))
    }

    /// Selection serial numbers of the given ids (before they are removed).
    private func serials(of ids: [ItemID]) -> [ItemID: UInt64] {
        var result: [ItemID: UInt64] = [:]
        for id in ids { result[id] = entries[id]?.serial }
        return result
    }

    /// Visible positions of the given ids.
    /// - Complexity: O(n), n = items in `visible`.
    private func visiblePaths(of ids: Set<ItemID>, in visible: Snapshot) -> [ItemID: ItemPath] {
        var result: [ItemID: ItemPath] = [:]
        guard !ids.isEmpty else { return result }
        let hashes = Set(ids.map { Item.hash($0) })
        for (s, section) in visible.sections.enumerated() {
            for (r, item) in section.items.enumerated() where hashes.contains(item.idHash) {
                let id = item.itemID
                guard ids.contains(id) else { continue }
                result[id] = ItemPath(section: s, row: r)
                if result.count == ids.count { return result }
            }
        }
        return result
    }

    /// Byte order of two ids: a total order, unlike `String <`, which ranks
    /// canonically equivalent spellings as equal.
    private static func precedes(_ a: ItemID, _ b: ItemID) -> Bool {
        a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.lexicographicallyPrecedes(y) } }
    }
}
