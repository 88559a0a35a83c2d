/// The rows an outline shows: what is expanded, and under a search the
/// matches with their ancestors.
extension DataSource {
    /// Row sources of the sections (other than `excluded`) whose outline
    /// hides rows under collapsed items.
    /// - Complexity: O(n)
    mutating func expandedRowSources(except excluded: Set<Int>) -> [Int: [Int]] {
        guard snapshot.sections.indices.contains(where: { !excluded.contains($0) }) else { return [:] }
        // Integer steps over the parent-row index: a row is shown when its
        // parent is shown and expanded (parents come first in preorder).
        let parent = parentFlatIndex()
        var expandedRow = [Bool](repeating: false, count: parent.count)
        if let index = searchCache.flatIndex {
            for id in outline.expanded { if let flat = index[id], flat < expandedRow.count { expandedRow[flat] = true } }
        } else {
            // One lookup per row in the (small) expanded set costs less than
            // indexing every item to look the expanded ones up.
            var flat = 0
            for section in snapshot.sections {
                for item in section.items {
                    if flat < expandedRow.count, outline.expanded.contains(item.itemID) { expandedRow[flat] = true }
                    flat += 1
                }
            }
        }
        var shown = [Bool](repeating: false, count: parent.count)
        var result: [Int: [Int]] = [:]
        var start = 0
        for (s, section) in snapshot.sections.enumerated() {
            defer { start += section.items.count }
            guard !excluded.contains(s) else { continue }
            var rows: [Int] = []
            rows.reserveCapacity(section.items.count)
            for flat in start..<min(start + section.items.count, parent.count) {
                let p = Int(parent[flat])
                shown[flat] = p < 0 || (shown[p] && expandedRow[p])
                if shown[flat] { rows.append(flat) }
            }
            if rows.count != section.items.count { result[s] = rows }
        }
        return result
    }

    /// Flat rows plus the rows of their ancestors, in tree order.
    /// - Complexity: O(rows + ancestors × log ancestors) with integer steps
    ///   (rows already in tree order, as substring search gives them;
    ///   O(rows log rows) otherwise), plus O(n) once per snapshot to index
    ///   the parents.
    mutating func withAncestors(_ rows: [Int], section s: Int, start: Int) -> [Int] {
        guard !rows.isEmpty, snapshot.sections.indices.contains(s) else { return rows }
        let parent = parentFlatIndex()
        let count = snapshot.sections[s].items.count
        var marked = [Bool](repeating: false, count: count)
        for flat in rows where flat - start >= 0 && flat - start < count { marked[flat - start] = true }
        var extra: [Int] = []
        for flat in rows where parent.indices.contains(flat) {
            // Walk up until an ancestor is already in (its own are then too).
            var p = Int(parent[flat])
            while p >= start, p - start < count, !marked[p - start] {
                marked[p - start] = true
                extra.append(p)
                p = Int(parent[p])
            }
        }
        let hits = zip(rows, rows.dropFirst()).allSatisfy { $0 < $1 } ? rows : rows.sorted()
        guard !extra.isEmpty else { return hits }
        extra.sort()
        // Merge two ascending lists of distinct rows.
        var merged: [Int] = []
        merged.reserveCapacity(hits.count + extra.count)
        var i = 0, j = 0
        while i < hits.count || j < extra.count {
            if j == extra.count || (i < hits.count && hits[i] < extra[j]) {
                merged.append(hits[i]); i += 1
            } else {
                merged.append(extra[j]); j += 1
            }
        }
        return merged
    }

    /// The flat index of every item's parent (-1 at the top).
    /// - Complexity: O(n) the first time after a snapshot change, O(1) after;
    ///   one lookup per row in the table of parents when a tree edit's index
    ///   is kept (after a fast tree edit), else three in tables of all items.
    mutating func parentFlatIndex() -> [Int32] {
        if let cached = searchCache.parentFlat { return cached }
        if let descendants = outlineEditIndex?.descendants {
            let parents = Self.parentFlatIndex(snapshot, descendants: descendants)
            searchCache.parentFlat = parents
            return parents
        }
        let index = itemFlatIndex()
        var parents: [Int32] = []
        parents.reserveCapacity(snapshot.itemCount)
        for section in snapshot.sections {
            for item in section.items {
                parents.append(outline.parents[item.itemID].flatMap { index[$0] }.map { Int32(truncatingIfNeeded: $0) } ?? -1)
            }
        }
        searchCache.parentFlat = parents
        return parents
    }

    /// Parents from subtree sizes: in preorder an item's subtree is its row
    /// and the `descendants` rows after it, so a row's parent is the
    /// innermost open subtree that holds it (a stack of open subtrees).
    /// - Complexity: O(n), a stack as deep as the tree.
    static func parentFlatIndex(_ snapshot: Snapshot, descendants: [ItemID: Int]) -> [Int32] {
        var parents: [Int32] = []
        parents.reserveCapacity(snapshot.itemCount)
        var open: [(row: Int, end: Int)] = []
        var flat = 0
        for section in snapshot.sections {
            open.removeAll(keepingCapacity: true)
            for item in section.items {
                while let last = open.last, last.end <= flat { open.removeLast() }
                parents.append(open.last.map { Int32(truncatingIfNeeded: $0.row) } ?? -1)
                if let count = descendants[item.itemID], count > 0 { open.append((flat, flat + 1 + count)) }
                flat += 1
            }
        }
        return parents
    }

    /// The flat index of every item of the full snapshot (built once per
    /// snapshot). - Complexity: O(n) the first time, O(1) after.
    mutating func itemFlatIndex() -> [ItemID: Int] {
        if let index = searchCache.flatIndex { return index }
        var index: [ItemID: Int] = [:]
        index.reserveCapacity(snapshot.itemCount)
        var flat = 0
        for section in snapshot.sections {
            for item in section.items {
                index[item.itemID] = flat
                flat += 1
            }
        }
        searchCache.flatIndex = index
        return index
    }
}
