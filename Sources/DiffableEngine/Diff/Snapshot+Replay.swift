/// Why a replayer rejected a changeset or a list of steps.
public struct ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// An index is outside the snapshot (or current list) it refers to.
        case outOfRange
        /// Two operations contradict each other (same position deleted and
        /// reloaded, two moves to one destination, a row operation inside a
        /// deleted or inserted section, ...).
        case conflict
        /// Counts do not add up (sections, or rows of one section).
        case countMismatch
        /// A step is malformed (non-positive count).
        case invalidStep
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind): \(message)" }
}

/// Where each section goes under UIKit batch rules: deleted sections drop out,
/// inserted and moved sections take their new indices, and the other surviving
/// sections fill the remaining indices in old order.
struct BatchSectionLayout {
    /// New index of each old section, or -1 when deleted.
    var oldToNew: [Int]
    /// Old index of each new section, or -1 when inserted.
    var newToOld: [Int]
    /// Old sections that are move sources.
    var isMoved: [Bool]

    /// - Complexity: O(old + new + operations).
    init(_ c: Changeset, oldCount: Int, newCount: Int) throws {
        oldToNew = [Int](repeating: -1, count: oldCount)
        newToOld = [Int](repeating: -2, count: newCount)  // -2: not yet filled
        isMoved = [Bool](repeating: false, count: oldCount)
        var isDeleted = [Bool](repeating: false, count: oldCount)
        for d in c.sectionDeletes {
            guard d >= 0, d < oldCount else { throw ReplayError(.outOfRange, "section delete \(d) outside 0..<\(oldCount)") }
            guard !isDeleted[d] else { throw ReplayError(.conflict, "section \(d) deleted twice") }
            isDeleted[d] = true
        }
        for i in c.sectionInserts {
            guard i >= 0, i < newCount else { throw ReplayError(.outOfRange, "section insert \(i) outside 0..<\(newCount)") }
            guard newToOld[i] == -2 else { throw ReplayError(.conflict, "section \(i) inserted twice") }
            newToOld[i] = -1
        }
        for m in c.sectionMoves {
            guard m.from >= 0, m.from < oldCount else { throw ReplayError(.outOfRange, "section move from \(m.from) outside 0..<\(oldCount)") }
            guard m.to >= 0, m.to < newCount else { throw ReplayError(.outOfRange, "section move to \(m.to) outside 0..<\(newCount)") }
            guard !isDeleted[m.from] else { throw ReplayError(.conflict, "section \(m.from) deleted and moved") }
            guard !isMoved[m.from] else { throw ReplayError(.conflict, "section \(m.from) moved twice") }
            guard newToOld[m.to] == -2 else { throw ReplayError(.conflict, "section destination \(m.to) used twice") }
            isMoved[m.from] = true
            newToOld[m.to] = m.from
            oldToNew[m.from] = m.to
        }
        var slot = 0
        for o in 0..<oldCount where !isDeleted[o] && !isMoved[o] {
            while slot < newCount, newToOld[slot] != -2 { slot += 1 }
            guard slot < newCount else {
                throw ReplayError(.countMismatch, "sections: \(oldCount) old - \(c.sectionDeletes.count) deleted + \(c.sectionInserts.count) inserted != \(newCount) new")
            }
            newToOld[slot] = o
            oldToNew[o] = slot
        }
        if newToOld.contains(-2) {
            throw ReplayError(.countMismatch, "sections: \(oldCount) old - \(c.sectionDeletes.count) deleted + \(c.sectionInserts.count) inserted != \(newCount) new")
        }
        var reloaded = [Bool](repeating: false, count: oldCount)
        for u in c.sectionReloads {
            guard u.old >= 0, u.old < oldCount else { throw ReplayError(.outOfRange, "section reload \(u.old) outside 0..<\(oldCount)") }
            guard !isDeleted[u.old] else { throw ReplayError(.conflict, "section \(u.old) deleted and reloaded") }
            guard !isMoved[u.old] else { throw ReplayError(.conflict, "section \(u.old) moved and reloaded") }
            guard !reloaded[u.old] else { throw ReplayError(.conflict, "section \(u.old) reloaded twice") }
            guard oldToNew[u.old] == u.new else {
                throw ReplayError(.conflict, "section reload \(u.old) names new index \(u.new), but it lands at \(oldToNew[u.old])")
            }
            reloaded[u.old] = true
        }
    }
}

extension Snapshot {
    /// Applies a batch changeset to this (old) snapshot the way UIKit's
    /// `performBatchUpdates` does, taking new content from `new`.
    ///
    /// Deleted sections drop out; inserted sections (copied from `new`) and
    /// moved sections take their new indices; the other surviving sections
    /// fill the remaining indices in old order. Within each surviving section,
    /// deleted rows and move sources leave; inserted rows (from `new`) and move
    /// destinations take their new rows; the remaining rows fill the other
    /// rows in old order. Reloads and reconfigures, moves with
    /// `contentChanged` and header changes take `new`'s item or header.
    ///
    /// Besides its shape (section count and row counts), `new` is read only at
    /// the positions the changeset names, like a frontend that only receives
    /// the changeset: an incomplete changeset yields a wrong result or throws.
    ///
    /// - Throws: `ReplayError` when the changeset breaks a batch rule: index
    ///   out of range, duplicate or contradictory operations, a row operation
    ///   inside a deleted or inserted section, or counts that do not add up.
    /// - Complexity: O(n + k log k), n = sections + items of both snapshots,
    ///   k = operations.
    public func applyingBatch(_ c: Changeset, contentFrom new: Snapshot) throws -> Snapshot {
        let layout = try BatchSectionLayout(c, oldCount: sections.count, newCount: new.sections.count)

        // Row state per old section: 0 stays, 1 deleted, 2 moved out.
        var state: [[UInt8]] = sections.map { [UInt8](repeating: 0, count: $0.items.count) }
        var placed: [[Item?]] = new.sections.indices.map { n in
            layout.newToOld[n] < 0 ? [] : [Item?](repeating: nil, count: new.sections[n].items.count)
        }
        var updates: [ItemPath: ItemPath] = [:]

        func checkOld(_ p: ItemPath, _ what: String) throws {
            guard p.section >= 0, p.section < sections.count else {
                throw ReplayError(.outOfRange, "\(what) \(p): section outside 0..<\(sections.count)")
            }
            guard layout.oldToNew[p.section] >= 0 else {
                throw ReplayError(.conflict, "\(what) \(p) is inside deleted section \(p.section)")
            }
            guard p.row >= 0, p.row < sections[p.section].items.count else {
                throw ReplayError(.outOfRange, "\(what) \(p): row outside old section of \(sections[p.section].items.count)")
            }
        }
        func checkNew(_ p: ItemPath, _ what: String) throws {
            guard p.section >= 0, p.section < new.sections.count else {
                throw ReplayError(.outOfRange, "\(what) \(p): section outside 0..<\(new.sections.count)")
            }
            guard layout.newToOld[p.section] >= 0 else {
                throw ReplayError(.conflict, "\(what) \(p) is inside inserted section \(p.section)")
            }
            guard p.row >= 0, p.row < new.sections[p.section].items.count else {
                throw ReplayError(.outOfRange, "\(what) \(p): row outside new section of \(new.sections[p.section].items.count)")
            }
        }
        func place(_ item: Item, at p: ItemPath, _ what: String) throws {
            guard placed[p.section][p.row] == nil else {
                throw ReplayError(.conflict, "\(what) \(p): destination already used")
            }
            placed[p.section][p.row] = item
        }

        for d in c.itemDeletes {
            try checkOld(d, "item delete")
            guard state[d.section][d.row] == 0 else { throw ReplayError(.conflict, "item \(d) deleted twice") }
            state[d.section][d.row] = 1
        }
        for m in c.itemMoves {
            try checkOld(m.from, "item move from")
            try checkNew(m.to, "item move to")
            switch state[m.from.section][m.from.row] {
            case 1: throw ReplayError(.conflict, "item \(m.from) deleted and moved")
            case 2: throw ReplayError(.conflict, "item \(m.from) moved twice")
            default: break
            }
            state[m.from.section][m.from.row] = 2
            let item = m.contentChanged ? new.sections[m.to.section].items[m.to.row]
                : sections[m.from.section].items[m.from.row]
            try place(item, at: m.to, "item move to")
        }
        for i in c.itemInserts {
            try checkNew(i, "item insert")
            try place(new.sections[i.section].items[i.row], at: i, "item insert")
        }
        for (list, what) in [(c.itemReloads, "item reload"), (c.itemReconfigures, "item reconfigure")] {
            for u in list {
                try checkOld(u.old, what)
                try checkNew(u.new, what)
                switch state[u.old.section][u.old.row] {
                case 1: throw ReplayError(.conflict, "item \(u.old) deleted and updated (\(what))")
                case 2: throw ReplayError(.conflict, "item \(u.old) moved and updated (\(what))")
                default: break
                }
                guard updates[u.old] == nil else { throw ReplayError(.conflict, "item \(u.old) updated twice") }
                updates[u.old] = u.new
            }
        }
        var headerFromNew = [Bool](repeating: false, count: new.sections.count)
        for u in c.sectionReloads { headerFromNew[u.new] = true }
        for m in c.sectionMoves where m.headerChanged { headerFromNew[m.to] = true }

        var result: [Section] = []
        result.reserveCapacity(new.sections.count)
        for n in new.sections.indices {
            let o = layout.newToOld[n]
            guard o >= 0 else {
                result.append(new.sections[n])
                continue
            }
            var rows = placed[n]
            var slot = 0
            let oldItems = sections[o].items
            for r in oldItems.indices where state[o][r] == 0 {
                while slot < rows.count, rows[slot] != nil { slot += 1 }
                guard slot < rows.count else {
                    throw ReplayError(.countMismatch, "section \(o)→\(n): more rows than the \(rows.count) new rows")
                }
                var item = oldItems[r]
                if let target = updates[ItemPath(section: o, row: r)] {
                    guard target == ItemPath(section: n, row: slot) else {
                        throw ReplayError(.conflict, "update of \([o, r]) names \(target) but the row lands at \([n, slot])")
                    }
                    item = new.sections[n].items[slot]
                }
                rows[slot] = item
            }
            var items: [Item] = []
            items.reserveCapacity(rows.count)
            for row in rows {
                guard let row else {
                    throw ReplayError(.countMismatch, "section \(o)→\(n): fewer rows than the \(rows.count) new rows")
                }
                items.append(row)
            }
            let old = sections[o]
            result.append(Section(id: old.id, header: headerFromNew[n] ? new.sections[n].header : old.header, items: items))
        }
        return Snapshot(sections: result)
    }
}

extension Snapshot {
    /// Applies sequential steps to this (old) snapshot, taking new content
    /// from `new` at the positions each step names.
    ///
    /// Each step is validated against the list as left by the previous one.
    /// Inserted sections and rows, reloaded headers and reloaded or
    /// reconfigured rows are copied from `new` at the step's own positions.
    /// A `moveItem` with `contentChanged` marks the row for redraw; marked rows
    /// take `new`'s item at the position they occupy after the last step
    /// (a frontend redraws them once the batch of steps is done).
    ///
    /// - Throws: `ReplayError` when a step is malformed or out of range for
    ///   the current list (or for `new`, for the content it copies).
    /// - Complexity: O(s · n) worst case for s steps over n rows (each step is
    ///   an array insert or remove).
    public func applyingSteps(_ steps: [Step], contentFrom new: Snapshot) throws -> Snapshot {
        var current = sections
        var redraw: [[Bool]] = sections.map { [Bool](repeating: false, count: $0.items.count) }

        func checkRows(_ s: Int, _ r: Int, _ n: Int, in list: [Section], _ what: String) throws {
            guard n > 0 else { throw ReplayError(.invalidStep, "\(what): count \(n) is not positive") }
            guard s >= 0, s < list.count else { throw ReplayError(.outOfRange, "\(what): section \(s) outside 0..<\(list.count)") }
            let rows = list[s].items.count
            guard r >= 0, r <= rows - n else { throw ReplayError(.outOfRange, "\(what): rows \(r)..<\(r)+\(n) outside section \(s) of \(rows)") }
        }
        func checkSections(_ s: Int, _ n: Int, count: Int, _ what: String) throws {
            guard n > 0 else { throw ReplayError(.invalidStep, "\(what): count \(n) is not positive") }
            guard s >= 0, s <= count - n else { throw ReplayError(.outOfRange, "\(what): sections \(s)..<\(s)+\(n) outside 0..<\(count)") }
        }

        for (index, step) in steps.enumerated() {
            let what = "step \(index) \(step)"
            switch step {
            case let .deleteItems(s, r, n):
                try checkRows(s, r, n, in: current, what)
                current[s].items.removeSubrange(r..<r + n)
                redraw[s].removeSubrange(r..<r + n)
            case let .deleteSections(s, n):
                try checkSections(s, n, count: current.count, what)
                current.removeSubrange(s..<s + n)
                redraw.removeSubrange(s..<s + n)
            case let .moveSection(from, to):
                try checkSections(from, 1, count: current.count, what)
                try checkSections(to, 1, count: current.count, what)
                current.insert(current.remove(at: from), at: to)
                redraw.insert(redraw.remove(at: from), at: to)
            case let .insertSections(s, n):
                try checkSections(s, n, count: new.sections.count, what + " (new)")
                try checkSections(s, 1, count: current.count + 1, what)
                let added = new.sections[s..<s + n]
                current.insert(contentsOf: added, at: s)
                redraw.insert(contentsOf: added.map { [Bool](repeating: false, count: $0.items.count) }, at: s)
            case let .reloadSection(s):
                try checkSections(s, 1, count: current.count, what)
                try checkSections(s, 1, count: new.sections.count, what + " (new)")
                current[s].header = new.sections[s].header
            case let .moveItem(from, to, changed):
                try checkRows(from.section, from.row, 1, in: current, what + " from")
                let item = current[from.section].items.remove(at: from.row)
                redraw[from.section].remove(at: from.row)
                guard to.section >= 0, to.section < current.count,
                      to.row >= 0, to.row <= current[to.section].items.count
                else { throw ReplayError(.outOfRange, "\(what): destination outside the current list") }
                current[to.section].items.insert(item, at: to.row)
                redraw[to.section].insert(changed, at: to.row)
            case let .insertItems(s, r, n):
                try checkRows(s, r, n, in: new.sections, what + " (new)")
                guard s >= 0, s < current.count, r >= 0, r <= current[s].items.count else {
                    throw ReplayError(.outOfRange, "\(what): position outside the current list")
                }
                current[s].items.insert(contentsOf: new.sections[s].items[r..<r + n], at: r)
                redraw[s].insert(contentsOf: repeatElement(false, count: n), at: r)
            case let .reloadItems(s, r, n), let .reconfigureItems(s, r, n):
                try checkRows(s, r, n, in: current, what)
                try checkRows(s, r, n, in: new.sections, what + " (new)")
                current[s].items.replaceSubrange(r..<r + n, with: new.sections[s].items[r..<r + n])
                redraw[s].replaceSubrange(r..<r + n, with: repeatElement(false, count: n))
            }
        }
        for s in redraw.indices {
            for r in redraw[s].indices where redraw[s][r] {
                guard let item = new.item(at: ItemPath(section: s, row: r)) else {
                    throw ReplayError(.outOfRange, "moved row \([s, r]) marked contentChanged is outside the new snapshot")
                }
                current[s].items[r] = item
            }
        }
        return Snapshot(sections: current)
    }
}
