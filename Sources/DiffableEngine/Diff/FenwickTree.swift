/// A Fenwick (binary indexed) tree over small non-negative counts.
///
/// Used by the steps form to turn fixed slots into physical indices while
/// rows are moved one at a time.
struct FenwickTree {
    private var tree: [Int32]

    /// Builds the tree over `counts`.
    /// - Complexity: O(n).
    init(_ counts: [Int32]) {
        var tree = [Int32](repeating: 0, count: counts.count + 1)
        for i in 0..<counts.count {
            let node = i + 1
            tree[node] &+= counts[i]
            let parent = node + (node & -node)
            if parent < tree.count { tree[parent] &+= tree[node] }
        }
        self.tree = tree
    }

    var count: Int { tree.count - 1 }

    /// Adds `delta` to the count at `index` (ignored when out of range).
    /// - Complexity: O(log n).
    mutating func add(_ delta: Int32, at index: Int) {
        guard index >= 0 else { return }
        var node = index + 1
        while node < tree.count {
            tree[node] &+= delta
            node += node & -node
        }
    }

    /// Sum of the counts at indices `0 ..< end` (clamped to the valid range).
    /// - Complexity: O(log n).
    func prefixSum(_ end: Int) -> Int {
        var node = min(max(end, 0), tree.count - 1)
        var sum = 0
        while node > 0 {
            sum += Int(tree[node])
            node -= node & -node
        }
        return sum
    }
}
