/// Items expanded or collapsed by a fast tree edit: the rows under each one
/// are shown as the tree says now, and the rows whose visibility changed
/// (though they did not move) come and go in the visible diff.
///
/// The rows under a toggled item are the run after its row
/// (`descendantCount` rows). Its children are shown when it is shown and
/// expanded; below them a collapsed parent hides its whole run, which is
/// skipped. So re-deciding a run costs the rows shown in it plus one step
/// per collapsed parent, not the run.
extension OutlineVisibleEdit {
    /// The shown rows (flat, new numbering, ascending) of one toggled run
    /// before it was re-decided (the renumbered old ones) and after.
    struct Toggle {
        var section: Int
        var before: [Int]
        var after: [Int]
    }

    /// Re-decides the shown rows under each toggled item (with its new
    /// place) in `rowSources` (the new row lists, nil: every row of the
    /// section shown). `isShown`: whether an item's row is shown now.
    /// - Complexity: per toggled item, O(rows shown in its run + collapsed
    ///   parents in it), plus the splice into its section's list (O(the list)).
    static func applyToggles(_ toggled: [(id: ItemID, path: ItemPath)], new: Snapshot, newStarts: [Int],
                             rowSources: inout [Int: [Int]], draft: OutlineDraft,
                             isShown: (ItemID) -> Bool) -> [Toggle] {
        var toggles: [Toggle] = []
        for (id, path) in toggled {
            guard new.sections.indices.contains(path.section) else { continue }
            let s = path.section, items = new.sections[s].items, start = newStarts[s]
            let low = path.row + 1, high = min(low + draft.descendantCount(id), items.count)
            guard low < high else { continue }
            var list = rowSources[s] ?? Array(start..<start + items.count)
            let a = position(of: start + low, in: list), b = position(of: start + high, in: list)
            let before = Array(list[a..<b])
            var after: [Int] = []
            if isShown(id) && draft.isExpanded(id) {
                var row = low
                while row < high {
                    after.append(start + row)
                    let child = items[row].itemID
                    let below = draft.descendantCount(child)
                    row += below > 0 && !draft.isExpanded(child) ? 1 + below : 1
                }
            }
            list.replaceSubrange(a..<b, with: after)
            rowSources[s] = list.count == items.count ? nil : list
            toggles.append(Toggle(section: s, before: before, after: after))
        }
        return toggles
    }

    /// The old row of untouched new row `n` of a section: untouched rows
    /// keep their order, past the `removed` old rows and the `added` new
    /// ones (both ascending).
    /// - Complexity: O(log(removed) × log(added + removed))
    static func oldRow(ofUntouched n: Int, removed: [Int], added: [Int]) -> Int {
        let untouched = n - position(of: n, in: added)
        // The smallest old row with `untouched + 1` kept rows up to it.
        var low = untouched, high = untouched + removed.count
        while low < high {
            let mid = (low + high) / 2
            let kept = mid + 1 - position(of: mid + 1, in: removed)
            if kept < untouched + 1 { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
