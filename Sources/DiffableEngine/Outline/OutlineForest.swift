/// A source's sections as trees of node indices, for editing (see
/// `DataSource.editOutline`).
///
/// Every item is a node in one array; a node knows its parent and its
/// children, and an index maps each id (by its bytes) to its node, so an op
/// finds an item in O(1) and reads the tree exactly as the previous op left
/// it. Nothing here recurses: walks keep explicit stacks, so a tree as deep
/// as its item count costs no more stack than a flat one.
///
/// Invariant after every op: `expanded` holds only live nodes that have
/// children, so expanding a leaf, or an item whose last child went, is
/// forgotten at once, as it is between two edits.
struct OutlineForest {
    struct Node {
        var item: Item
        /// The parent node, or -1 at a section's top level.
        var parent: Int
        /// The section slot (in `trees`) of a top-level node.
        var tree: Int
        var children: [Int] = []
    }

    struct Tree {
        var id: String
        var header: Content?
        var roots: [Int]
    }

    var nodes: [Node] = []
    /// Section slots; `order` lists the live ones in section order.
    var trees: [Tree] = []
    var order: [Int] = []
    /// The node of every live item, by the id's bytes.
    var index: [ItemID: Int] = [:]
    /// Expanded nodes (with children, see the invariant).
    var expanded: Set<Int> = []
    var requests = RedrawRequests()

    /// - Complexity: O(n)
    init(_ snapshot: Snapshot, _ outline: Outline) {
        nodes.reserveCapacity(snapshot.itemCount)
        index.reserveCapacity(snapshot.itemCount)
        for section in snapshot.sections {
            let slot = trees.count
            var roots: [Int] = []
            for item in section.items {
                let id = item.itemID
                let n = nodes.count
                let parent = outline.parents[id].flatMap { index[$0] } ?? -1
                nodes.append(Node(item: item, parent: parent, tree: slot))
                index[id] = n
                if parent >= 0 { nodes[parent].children.append(n) } else { roots.append(n) }
                if outline.expanded.contains(id) { expanded.insert(n) }
            }
            trees.append(Tree(id: section.id, header: section.header, roots: roots))
            order.append(slot)
        }
    }

    /// Preorder sections and their outline.
    /// - Complexity: O(n)
    func flattened() -> (Snapshot, Outline) {
        var outline = Outline()
        var snapshot = Snapshot()
        snapshot.sections.reserveCapacity(order.count)
        for slot in order {
            let tree = trees[slot]
            var items: [Item] = []
            var pending: [(node: Int, level: Int)] = tree.roots.reversed().map { ($0, 0) }
            while let (n, level) = pending.popLast() {
                let node = nodes[n]
                let id = node.item.itemID
                items.append(node.item)
                if node.parent >= 0 { outline.parents[id] = nodes[node.parent].item.itemID }
                guard !node.children.isEmpty else { continue }
                outline.addParent(id, childCount: node.children.count, level: level)
                if expanded.contains(n) { outline.expanded.insert(id) }
                pending.append(contentsOf: node.children.reversed().map { ($0, level + 1) })
            }
            snapshot.sections.append(Section(id: tree.id, header: tree.header, items: items))
        }
        return (snapshot, outline)
    }

    // MARK: finding

    func node(_ id: String) -> Int? { index[ItemID(id)] }

    func slot(ofSection id: String) -> Int? { order.first { trees[$0].id == id } }

    /// Whether `n` is `ancestor` or lies under it. - Complexity: O(depth)
    func isInSubtree(_ n: Int, of ancestor: Int) -> Bool {
        var current = n
        while current >= 0 {
            if current == ancestor { return true }
            current = nodes[current].parent
        }
        return false
    }

    /// 0 for a top-level node. - Complexity: O(depth)
    func level(_ n: Int) -> Int {
        var level = 0, current = nodes[n].parent
        while current >= 0 {
            level += 1
            current = nodes[current].parent
        }
        return level
    }

    /// Levels below `n` in its subtree (0 for a leaf). - Complexity: O(subtree)
    func height(_ n: Int) -> Int {
        var deepest = 0
        var pending: [(node: Int, depth: Int)] = [(n, 0)]
        while let (next, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            for child in nodes[next].children { pending.append((child, depth + 1)) }
        }
        return deepest
    }

    /// Levels below the top of nested items (0 for leaves).
    static func height(_ new: [OutlineNode]) -> Int {
        var deepest = 0
        var pending: [(node: OutlineNode, depth: Int)] = new.map { ($0, 0) }
        while let (node, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            for child in node.children { pending.append((child, depth + 1)) }
        }
        return deepest
    }

    /// `n` and its descendants, in preorder. - Complexity: O(subtree)
    func subtree(_ n: Int) -> [Int] {
        var result: [Int] = [], pending = [n]
        while let next = pending.popLast() {
            result.append(next)
            pending.append(contentsOf: nodes[next].children.reversed())
        }
        return result
    }

    // MARK: changing

    /// Changes the list `n` is in: its parent's children or its section's
    /// top level.
    mutating func withSiblings<R>(of n: Int, _ body: (inout [Int]) -> R) -> R {
        let parent = nodes[n].parent
        if parent >= 0 { return body(&nodes[parent].children) }
        return body(&trees[nodes[n].tree].roots)
    }

    /// Takes `n` (with its subtree) out of its list and answers its parent
    /// (-1 at the top). The caller calls `forgetExpansionIfChildless` on
    /// that parent once the op is done (a move back into the same parent
    /// keeps it expanded). - Complexity: O(siblings)
    @discardableResult
    mutating func detach(_ n: Int) -> Int {
        withSiblings(of: n) { list in
            if let i = list.firstIndex(of: n) { list.remove(at: i) }
        }
        return nodes[n].parent
    }

    /// Keeps the invariant: a node left without children is not expanded.
    mutating func forgetExpansionIfChildless(_ n: Int) {
        if n >= 0, nodes[n].children.isEmpty { expanded.remove(n) }
    }

    /// Puts detached `n` as a child of `parent` (-1: top level of section
    /// slot `tree`) at `position` (nil: last).
    mutating func attach(_ n: Int, parent: Int, tree: Int, at position: Int? = nil) {
        nodes[n].parent = parent
        nodes[n].tree = parent >= 0 ? nodes[parent].tree : tree
        if parent >= 0 {
            nodes[parent].children.insert(n, at: position ?? nodes[parent].children.count)
        } else {
            trees[tree].roots.insert(n, at: position ?? trees[tree].roots.count)
        }
    }

    /// Where an item placed right before/after `target` goes: its parent,
    /// its section slot and the position in their list.
    func place(_ position: EditPosition, target: Int) -> (parent: Int, tree: Int, at: Int) {
        let parent = nodes[target].parent
        let list = parent >= 0 ? nodes[parent].children : trees[nodes[target].tree].roots
        let i = list.firstIndex(of: target) ?? list.count
        return (parent, nodes[target].tree, position.isAfter ? i + 1 : i)
    }

    /// Removes `n` and its subtree from the forest.
    mutating func delete(_ n: Int) {
        let parent = detach(n)
        forget(n)
        forgetExpansionIfChildless(parent)
    }

    /// Drops `n` and its subtree from the index, leaving the list that holds `n`
    /// to the caller (who empties it whole).
    mutating func forget(_ n: Int) {
        for m in subtree(n) {
            index.removeValue(forKey: nodes[m].item.itemID)
            expanded.remove(m)
        }
    }

    /// Adds new nested items as children of `parent` (-1: the top level of
    /// section slot `tree`) from `position` on; an item with children that
    /// says `expanded: true` starts expanded.
    mutating func add(_ new: [OutlineNode], parent: Int, tree: Int, at position: Int? = nil) {
        var at = position
        var pending: [(node: OutlineNode, parent: Int, isTop: Bool)] = new.reversed().map { ($0, parent, true) }
        while let (node, parent, isTop) = pending.popLast() {
            let n = nodes.count
            nodes.append(Node(item: node.item, parent: parent, tree: tree))
            index[node.item.itemID] = n
            if isTop {
                attach(n, parent: parent, tree: tree, at: at)
                at = at.map { $0 + 1 }
            } else {
                nodes[parent].children.append(n)
            }
            if node.expanded == true, !node.children.isEmpty { expanded.insert(n) }
            for child in node.children.reversed() { pending.append((child, n, false)) }
        }
    }

    /// Every id of nested items, in preorder.
    static func ids(_ new: [OutlineNode]) -> [ItemID] {
        var result: [ItemID] = []
        var pending: [OutlineNode] = new.reversed()
        while let node = pending.popLast() {
            result.append(node.item.itemID)
            pending.append(contentsOf: node.children.reversed())
        }
        return result
    }
}
