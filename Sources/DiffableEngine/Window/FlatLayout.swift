/// Where each section of a snapshot starts in the flat list (its header row,
/// if any, then its items), for random access to flat rows.
struct FlatLayout {
    /// `starts[s]` = flat index of section `s`'s first row; one extra entry
    /// for the total.
    let starts: [Int]
    let hasHeader: [Bool]

    /// - Complexity: O(sections)
    init(_ snapshot: Snapshot) {
        var starts = [0]
        starts.reserveCapacity(snapshot.sections.count + 1)
        var hasHeader: [Bool] = []
        hasHeader.reserveCapacity(snapshot.sections.count)
        for section in snapshot.sections {
            let header = section.header != nil
            hasHeader.append(header)
            starts.append((starts.last ?? 0) + (header ? 1 : 0) + section.items.count)
        }
        self.starts = starts
        self.hasHeader = hasHeader
    }

    var total: Int { starts.last ?? 0 }

    /// What the flat row `index` is: a section's header (row nil) or an item.
    /// - Complexity: O(log sections)
    func position(of index: Int) -> (section: Int, row: Int?)? {
        guard index >= 0, index < total else { return nil }
        var low = 0, high = starts.count - 2
        while low < high {  // last section whose start <= index (sections may be empty)
            let mid = (low + high + 1) / 2
            if starts[mid] <= index { low = mid } else { high = mid - 1 }
        }
        let offset = index - starts[low]
        if hasHeader[low] { return offset == 0 ? (low, nil) : (low, offset - 1) }
        return (low, offset)
    }

    /// The flat index of an item row.
    func index(of path: ItemPath) -> Int? {
        guard hasHeader.indices.contains(path.section) else { return nil }
        return starts[path.section] + (hasHeader[path.section] ? 1 : 0) + path.row
    }

    /// The flat index of a section's header row, if it has one.
    func headerIndex(of section: Int) -> Int? {
        guard hasHeader.indices.contains(section), hasHeader[section] else { return nil }
        return starts[section]
    }
}
