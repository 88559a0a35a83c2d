/// Why a snapshot cannot be accepted. Positions refer to the snapshot as given.
public enum SnapshotIssue: Equatable, Sendable {
    /// A section id used by more than one section (indices of every use).
    case duplicateSectionID(id: String, sections: [Int])
    /// An item id used more than once in the source (paths of every use).
    case duplicateItemID(id: String, paths: [ItemPath])
}

extension Snapshot {
    /// Every duplicate section id and duplicate item id, in order of first use.
    /// - Complexity: O(n) expected, n = sections + items.
    public func validationIssues() -> [SnapshotIssue] {
        var issues: [SnapshotIssue] = []

        var sectionUses: [String: [Int]] = [:]
        var sectionOrder: [String] = []
        for (index, section) in sections.enumerated() {
            if sectionUses[section.id] == nil { sectionOrder.append(section.id) }
            sectionUses[section.id, default: []].append(index)
        }
        for id in sectionOrder {
            if let uses = sectionUses[id], uses.count > 1 {
                issues.append(.duplicateSectionID(id: id, sections: uses))
            }
        }

        // Every item id once through a batched hash table (see `IDHashTable`);
        // the dictionaries below only see repeated ids.
        var ids: [ItemID] = []
        var paths: [ItemPath] = []
        ids.reserveCapacity(itemCount)
        for section in sections {
            for item in section.items { ids.append(item.itemID) }
        }
        var repeatedPairs: [(first: Int32, later: Int32)] = []
        _ = IDHashTable(keys: ids, keepFirst: true) { first, later in repeatedPairs.append((first, later)) }
        var repeats: [String: [ItemPath]] = [:]
        var repeatOrder: [String] = []
        if !repeatedPairs.isEmpty {
            paths.reserveCapacity(ids.count)
            for (s, section) in sections.enumerated() {
                for r in section.items.indices { paths.append(ItemPath(section: s, row: r)) }
            }
            for pair in repeatedPairs {
                let id = ids[Int(pair.first)].string
                if repeats[id] == nil {
                    repeats[id] = [paths[Int(pair.first)]]
                    repeatOrder.append(id)
                }
                repeats[id, default: []].append(paths[Int(pair.later)])
            }
        }
        for id in repeatOrder {
            issues.append(.duplicateItemID(id: id, paths: repeats[id] ?? []))
        }
        return issues
    }
}
