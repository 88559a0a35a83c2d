extension Changeset {
    /// The same difference in sequential form: steps that, applied one after
    /// the other to `old`, produce `new`.
    ///
    /// Phases follow the order documented on `Step`: item deletes
    /// (descending, old coordinates), section deletes (descending), section
    /// moves, section inserts (ascending), section header reloads, item moves,
    /// item inserts (ascending, final coordinates), item reloads then
    /// reconfigures (final coordinates). Contiguous runs are merged into one
    /// step. The movers are exactly this changeset's `sectionMoves` and
    /// `itemMoves`; their `from` / `to` are rewritten as exact Array-move
    /// indices at the moment each move happens (movers are processed in
    /// ascending destination order). A moved section whose header changed is
    /// also reloaded in the header phase; a moved item whose content changed
    /// says so in its `moveItem` step.
    ///
    /// `self` must be a valid changeset from `old` to `new` (as produced by
    /// `difference(to:)`); for an invalid one the result is empty.
    ///
    /// - Complexity: O(n + k log n), n = sections + items of both snapshots,
    ///   k = moves.
    public func steps(from old: Snapshot, to new: Snapshot) -> [Step] {
        var destinations: [ItemPath] = []
        return (try? makeSteps(from: old, to: new, moveDestinations: &destinations)) ?? []
    }

    /// `steps(from:to:)`, plus, for every `moveItem` step in order, the path
    /// the moved row has in `new` — where a wire encoder finds the moved
    /// item's new content (the step's own `to` is an intermediate position).
    ///
    /// - Complexity: as `steps(from:to:)`.
    public func stepsWithMoveDestinations(from old: Snapshot, to new: Snapshot)
        -> (steps: [Step], moveDestinations: [ItemPath]) {
        var destinations: [ItemPath] = []
        guard let steps = try? makeSteps(from: old, to: new, moveDestinations: &destinations) else { return ([], []) }
        return (steps, destinations)
    }

    private struct Invalid: Error {}

    private func makeSteps(from old: Snapshot, to new: Snapshot, moveDestinations: inout [ItemPath]) throws -> [Step] {
        let layout = try BatchSectionLayout(self, oldCount: old.sections.count, newCount: new.sections.count)
        var steps: [Step] = []

        // 1. Item deletes, descending, old coordinates.
        for run in Self.runs(of: itemDeletes).reversed() {
            steps.append(.deleteItems(section: run.section, row: run.row, count: run.count))
        }
        // 2. Section deletes, descending.
        for run in Self.runs(of: sectionDeletes.map { ItemPath(section: 0, row: $0) }).reversed() {
            steps.append(.deleteSections(section: run.row, count: run.count))
        }
        // 3. Section moves: survivors in old order → survivors in new order.
        var sectionMover = [Int32](repeating: -1, count: old.sections.count)
        var finalSections: [Int32] = []
        var moverCount = 0
        for o in layout.newToOld where o >= 0 {
            if layout.isMoved[o] {
                sectionMover[o] = Int32(truncatingIfNeeded: moverCount)
                moverCount += 1
            }
            finalSections.append(sectionMover[o])
        }
        var currentSections: [Int32] = []
        for o in layout.oldToNew.indices where layout.oldToNew[o] >= 0 {
            currentSections.append(sectionMover[o])
        }
        guard let sectionPlan = SequentialMovePlanner.plan(
            currentStart: [0, currentSections.count], current: currentSections,
            finalStart: [0, finalSections.count], final: finalSections, moverCount: moverCount)
        else { throw Invalid() }
        for move in sectionPlan {
            steps.append(.moveSection(from: move.from, to: move.to))
        }
        // 4. Section inserts, ascending.
        for run in Self.runs(of: sectionInserts.map { ItemPath(section: 0, row: $0) }) {
            steps.append(.insertSections(section: run.row, count: run.count))
        }
        // 5. Header reloads at new indices (reloads and moves whose header changed).
        var headers = sectionReloads.map(\.new)
        headers.append(contentsOf: sectionMoves.lazy.filter(\.headerChanged).map(\.to))
        headers.sort()
        for section in headers {
            steps.append(.reloadSection(section: section))
        }
        // 6. Item moves.
        try appendItemMoves(to: &steps, destinations: &moveDestinations, layout: layout, old: old, new: new)
        // 7. Item inserts, ascending, final coordinates.
        for run in Self.runs(of: itemInserts) {
            steps.append(.insertItems(section: run.section, row: run.row, count: run.count))
        }
        // 8. Reloads and reconfigures at final coordinates.
        for run in Self.runs(of: itemReloads.map(\.new)) {
            steps.append(.reloadItems(section: run.section, row: run.row, count: run.count))
        }
        for run in Self.runs(of: itemReconfigures.map(\.new)) {
            steps.append(.reconfigureItems(section: run.section, row: run.row, count: run.count))
        }
        return steps
    }

    /// Contiguous runs (same section, consecutive rows) of `paths`, ascending.
    /// - Complexity: O(p) when `paths` is sorted, O(p log p) otherwise.
    public static func runs(of paths: [ItemPath]) -> [(section: Int, row: Int, count: Int)] {
        var sorted = paths
        if !zip(paths, paths.dropFirst()).allSatisfy({ $0 < $1 }) { sorted.sort() }
        var runs: [(section: Int, row: Int, count: Int)] = []
        for path in sorted {
            if let last = runs.last, last.section == path.section, last.row + last.count == path.row {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((path.section, path.row, 1))
            }
        }
        return runs
    }

    private static func starts(of snapshot: Snapshot) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(snapshot.sections.count + 1)
        var total = 0
        for section in snapshot.sections {
            total += section.items.count
            starts.append(total)
        }
        return starts
    }

    private static func flat(_ p: ItemPath, _ starts: [Int]) throws -> Int {
        guard p.section >= 0, p.section < starts.count - 1, p.row >= 0,
              p.row < starts[p.section + 1] - starts[p.section]
        else { throw Invalid() }
        return starts[p.section] + p.row
    }

    private func appendItemMoves(to steps: inout [Step], destinations: inout [ItemPath],
                                 layout: BatchSectionLayout, old: Snapshot, new: Snapshot) throws {
        guard !itemMoves.isEmpty else { return }
        let oldStart = Self.starts(of: old)
        let newStart = Self.starts(of: new)
        // Entries: -1 stays, -2 deleted / inserted, m >= 0 mover m.
        var oldEntry = [Int32](repeating: -1, count: oldStart.last ?? 0)
        var newEntry = [Int32](repeating: -1, count: newStart.last ?? 0)
        for path in itemDeletes { oldEntry[try Self.flat(path, oldStart)] = -2 }
        for path in itemInserts { newEntry[try Self.flat(path, newStart)] = -2 }
        for (index, move) in itemMoves.enumerated() {
            newEntry[try Self.flat(move.to, newStart)] = Int32(truncatingIfNeeded: index)
        }
        // Mover ids in ascending destination order.
        var order: [Int] = []
        order.reserveCapacity(itemMoves.count)
        for k in newEntry.indices where newEntry[k] >= 0 {
            let index = Int(newEntry[k])
            let id = Int32(truncatingIfNeeded: order.count)
            order.append(index)
            newEntry[k] = id
            oldEntry[try Self.flat(itemMoves[index].from, oldStart)] = id
        }
        guard order.count == itemMoves.count else { throw Invalid() }

        // One list per new section (inserted sections: empty lists).
        var currentStart = [0], finalStart = [0]
        var current: [Int32] = [], final: [Int32] = []
        current.reserveCapacity(oldEntry.count)
        final.reserveCapacity(newEntry.count)
        for n in layout.newToOld.indices {
            let o = layout.newToOld[n]
            if o >= 0 {
                for k in oldStart[o]..<oldStart[o + 1] where oldEntry[k] != -2 { current.append(oldEntry[k]) }
                for k in newStart[n]..<newStart[n + 1] where newEntry[k] != -2 { final.append(newEntry[k]) }
            }
            currentStart.append(current.count)
            finalStart.append(final.count)
        }
        guard let plan = SequentialMovePlanner.plan(
            currentStart: currentStart, current: current,
            finalStart: finalStart, final: final, moverCount: order.count)
        else { throw Invalid() }
        steps.reserveCapacity(steps.count + plan.count)
        for (id, move) in plan.enumerated() {
            steps.append(.moveItem(
                from: ItemPath(section: move.fromList, row: move.from),
                to: ItemPath(section: move.toList, row: move.to),
                contentChanged: itemMoves[order[id]].contentChanged))
            destinations.append(itemMoves[order[id]].to)
        }
    }
}
