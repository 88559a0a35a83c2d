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

        var firstUse: [String: ItemPath] = [:]
        firstUse.reserveCapacity(itemCount)
        var repeats: [String: [ItemPath]] = [:]
        var repeatOrder: [String] = []
        for (s, section) in sections.enumerated() {
            for (r, item) in section.items.enumerated() {
                let path = ItemPath(section: s, row: r)
                if let first = firstUse[item.id] {
                    if repeats[item.id] == nil {
                        repeats[item.id] = [first]
                        repeatOrder.append(item.id)
                    }
                    repeats[item.id, default: []].append(path)
                } else {
                    firstUse[item.id] = path
                }
            }
        }
        for id in repeatOrder {
            issues.append(.duplicateItemID(id: id, paths: repeats[id] ?? []))
        }
        return issues
    }
}
