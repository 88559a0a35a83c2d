/// The steps that turn the window rows a frontend holds into the new ones.
///
/// Windows are small (the rows on screen), so this reuses the engine's own
/// diff on a one-section snapshot whose items are the rows (keyed by kind
/// and id, with everything drawn — content, selection, highlights — as
/// their content) and translates the sequential steps: a row that changed
/// in place is an `update`, a row that moved a `move` (plus an `update`
/// when it changed too), rows that came into the window `insert`s and rows
/// that left it `delete`s.
enum WindowDiff {
    /// - Complexity: O(w log w), w = rows of both windows.
    static func steps(from old: [WindowRow], to new: [WindowRow]) -> [WindowStep] {
        if old == new { return [] }
        let before = snapshot(old), after = snapshot(new)
        let changeset = before.difference(to: after)
        let (steps, destinations) = changeset.stepsWithMoveDestinations(from: before, to: after)
        var result: [WindowStep] = []
        var changedMoves: [Int] = []
        var moveIndex = 0
        for step in steps {
            switch step {
            case .deleteItems(_, let row, let count):
                result.append(.delete(at: row, count: count))
            case .moveItem(let from, let to, let contentChanged):
                result.append(.move(from: from.row, to: to.row))
                if contentChanged, destinations.indices.contains(moveIndex) { changedMoves.append(destinations[moveIndex].row) }
                moveIndex += 1
            case .insertItems(_, let row, let count):
                result.append(.insert(at: row, rows: Array(new[row..<row + count])))
            case .reloadItems(_, let row, let count), .reconfigureItems(_, let row, let count):
                result.append(.update(at: row, rows: Array(new[row..<row + count])))
            case .deleteSections, .moveSection, .insertSections, .reloadSection:
                break  // one section on both sides
            }
        }
        // Moved rows that changed are redrawn at their final rows, after
        // every other step (so the index is the new window's).
        for row in changedMoves.sorted() { result.append(.update(at: row, rows: [new[row]])) }
        return result
    }

    /// One section whose items are the rows.
    private static func snapshot(_ rows: [WindowRow]) -> Snapshot {
        Snapshot(sections: [Section(id: "window", items: rows.map { row in
            Item(id: (row.kind == .header ? "h:" : "i:") + row.id, content: Content(bytes: fingerprint(row)))
        })])
    }

    /// Everything a frontend draws of a row, as bytes to compare.
    private static func fingerprint(_ row: WindowRow) -> [UInt8] {
        var bytes = row.content?.bytes ?? []
        bytes.append(row.content == nil ? 0 : 1)
        bytes.append(row.selected ? 1 : 0)
        for range in row.highlights {
            for value in [range.lowerBound, range.count] {
                withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        for field in row.highlightFields {
            bytes.append(contentsOf: Array(field.utf8))
            bytes.append(0)
        }
        bytes.append(contentsOf: Array(row.section.utf8))
        if let outline = row.outline {
            bytes.append(contentsOf: [0xFF, UInt8(truncatingIfNeeded: outline.level), outline.hasChildren ? 1 : 0, outline.expanded ? 1 : 0])
            withUnsafeBytes(of: outline.level.littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: Array((outline.parent ?? "").utf8))
        }
        return bytes
    }
}
