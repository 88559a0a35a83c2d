/// The hierarchy of a source's items, as UIKit's
/// `NSDiffableDataSourceSectionSnapshot` gives a section: items with
/// children, expanded or collapsed.
///
/// The snapshot stores each section's items in **preorder** — every item
/// followed by its descendants, so a subtree is a contiguous run of rows —
/// and the outline holds who is whose parent and which items are expanded.
/// The visible list shows an item's descendants only when it and all its
/// ancestors are expanded. A source without nested items has an empty
/// outline and pays nothing for it.
///
/// Ids are keyed by their UTF-8 bytes (`ItemID`), as everywhere in the
/// engine: `"\u{e9}"` and `"e\u{301}"` are two items, though Swift's
/// `String ==` calls them equal.
///
/// Invariant: only items with children are in `expanded` (expanding a leaf
/// changes nothing and is not remembered).
public struct Outline: Equatable, Sendable {
    /// The deepest level an item may have (0 at the top): 4,096 levels,
    /// deeper than any file system or symbol tree. `apply` and `edit`
    /// refuse to nest deeper (`tooDeep` for edits), and the server's
    /// nesting limits are set so that a `snapshot {full: true}` of the
    /// deepest tree is a message the daemon reads back.
    public static let maxLevel = EditError.deepestLevel

    /// The parent of every item that has one.
    public internal(set) var parents: [ItemID: ItemID] = [:]
    /// The number of children of every item that has children.
    public internal(set) var childCounts: [ItemID: Int] = [:]
    /// Items shown expanded (when all their ancestors are).
    public internal(set) var expanded: Set<ItemID> = []
    /// The level of every item that has children, so any item's level is
    /// two lookups rather than a walk to the top. Internal: a fast tree
    /// edit (`OutlineDraft`) updates it in place.
    var parentLevels: [ItemID: Int] = [:]

    public init() {}

    /// Whether no item has children.
    public var isEmpty: Bool { childCounts.isEmpty }

    /// 0 for a top-level item. - Complexity: O(1)
    public func level(of id: ItemID) -> Int {
        guard let parent = parents[id] else { return 0 }
        if let level = parentLevels[parent] { return level + 1 }
        assertionFailure("a parent without a recorded level")
        var level = 1, current = parent
        while let next = parents[current] {
            level += 1
            current = next
        }
        return level
    }

    /// Records an item with children; every outline is built top down, so
    /// its level is known.
    mutating func addParent(_ id: ItemID, childCount: Int, level: Int) {
        childCounts[id] = childCount
        parentLevels[id] = level
    }

    public func level(of id: String) -> Int { level(of: ItemID(id)) }
    public func parent(of id: ItemID) -> ItemID? { parents[id] }
    public func parent(of id: String) -> String? { parents[ItemID(id)]?.string }
    public func hasChildren(_ id: ItemID) -> Bool { childCounts[id] != nil }
    public func hasChildren(_ id: String) -> Bool { hasChildren(ItemID(id)) }
    public func childCount(of id: ItemID) -> Int { childCounts[id] ?? 0 }
    public func childCount(of id: String) -> Int { childCount(of: ItemID(id)) }
    public func isExpanded(_ id: ItemID) -> Bool { expanded.contains(id) }
    public func isExpanded(_ id: String) -> Bool { isExpanded(ItemID(id)) }

    /// The ancestors of `id`, nearest first. - Complexity: O(depth)
    public func ancestors(of id: ItemID) -> [ItemID] {
        var result: [ItemID] = [], current = id
        while let parent = parents[current] {
            result.append(parent)
            current = parent
        }
        return result
    }

    public func ancestors(of id: String) -> [String] { ancestors(of: ItemID(id)).map(\.string) }

    /// Whether a collapsed ancestor hides `id`. - Complexity: O(depth)
    public func isHidden(_ id: ItemID) -> Bool {
        var current = id
        while let parent = parents[current] {
            if !expanded.contains(parent) { return true }
            current = parent
        }
        return false
    }

    /// What a frontend draws of an item's place in the tree.
    public func row(of id: ItemID) -> OutlineRow {
        OutlineRow(level: level(of: id), parent: parents[id]?.string, hasChildren: hasChildren(id), expanded: isExpanded(id))
    }

    public func row(of id: String) -> OutlineRow { row(of: ItemID(id)) }
}

/// An item's place in the outline, drawn with its row.
public struct OutlineRow: Equatable, Hashable, Sendable {
    public var level: Int
    public var parent: String?
    public var hasChildren: Bool
    public var expanded: Bool

    public init(level: Int, parent: String?, hasChildren: Bool, expanded: Bool) {
        self.level = level
        self.parent = parent
        self.hasChildren = hasChildren
        self.expanded = expanded
    }

    /// Parents are compared by their UTF-8 bytes, as ids are: a row moved
    /// from under "e\u{301}" to under "\u{e9}" has another parent.
    public static func == (lhs: OutlineRow, rhs: OutlineRow) -> Bool {
        lhs.level == rhs.level && lhs.hasChildren == rhs.hasChildren && lhs.expanded == rhs.expanded
            && lhs.parent.map(ItemID.init) == rhs.parent.map(ItemID.init)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(level)
        hasher.combine(parent.map(ItemID.init))
        hasher.combine(hasChildren)
        hasher.combine(expanded)
    }
}

/// A nested item as a client sends it: an item and its children.
public struct OutlineNode: Sendable {
    public var item: Item
    public var children: [OutlineNode]
    /// nil: keep the item's expansion state if it survives, else collapsed.
    public var expanded: Bool?

    public init(item: Item, children: [OutlineNode] = [], expanded: Bool? = nil) {
        self.item = item
        self.children = children
        self.expanded = expanded
    }
}

/// A section whose items may nest, as `apply` and the section ops of
/// `edit` take it.
public struct OutlineSection: Sendable {
    public var id: String
    public var header: Content?
    public var nodes: [OutlineNode]

    public init(id: String, header: Content? = nil, nodes: [OutlineNode]) {
        self.id = id
        self.header = header
        self.nodes = nodes
    }
}

extension Outline {
    /// Flattens nested sections into preorder item lists and their outline.
    /// `previous` supplies the expansion state of items that do not name
    /// one; items without children are never expanded.
    /// - Complexity: O(n), with a stack as deep as the nesting (no recursion).
    public static func flatten(_ sections: [(id: String, header: Content?, nodes: [OutlineNode])],
                               previous: Outline) -> (Snapshot, Outline) {
        flatten(sections) { $0.expanded ?? previous.expanded.contains($0.item.itemID) }
    }

    /// Flattens nested sections; `isExpanded` decides the state of each
    /// item with children.
    /// - Complexity: O(n)
    static func flatten(_ sections: [(id: String, header: Content?, nodes: [OutlineNode])],
                        isExpanded: (OutlineNode) -> Bool) -> (Snapshot, Outline) {
        var outline = Outline()
        var snapshot = Snapshot()
        snapshot.sections.reserveCapacity(sections.count)
        for section in sections {
            var items: [Item] = []
            // Children still to visit, last first, with their parent's id.
            var pending: [(node: OutlineNode, parent: ItemID?, level: Int)] = section.nodes.reversed().map { ($0, nil, 0) }
            while let (node, parent, level) = pending.popLast() {
                items.append(node.item)
                let id = node.item.itemID
                if let parent { outline.parents[id] = parent }
                guard !node.children.isEmpty else { continue }
                outline.addParent(id, childCount: node.children.count, level: level)
                if isExpanded(node) { outline.expanded.insert(id) }
                for child in node.children.reversed() { pending.append((child, id, level + 1)) }
            }
            snapshot.sections.append(Section(id: section.id, header: section.header, items: items))
        }
        return (snapshot, outline)
    }

    /// The outline of preorder sections given as the parent row of every row
    /// (-1 at the top; nil for a section without nesting) and the `expanded`
    /// flags rows named; the same as `flatten` of the nested items.
    /// - Complexity: O(n)
    public init(preorder snapshot: Snapshot, parentRows: [[Int32]?], expandedFlags: [[Int: Bool]], previous: Outline) {
        for (s, section) in snapshot.sections.enumerated() where parentRows.indices.contains(s) {
            guard let rows = parentRows[s], rows.count == section.items.count else { continue }
            // A parent's row comes before its children's (preorder).
            var levels = [Int](repeating: 0, count: rows.count)
            for (row, parent) in rows.enumerated() where parent >= 0 && Int(parent) < row {
                let parentID = section.items[Int(parent)].itemID
                levels[row] = levels[Int(parent)] + 1
                parents[section.items[row].itemID] = parentID
                childCounts[parentID, default: 0] += 1
                parentLevels[parentID] = levels[Int(parent)]
            }
            let flags = expandedFlags.indices.contains(s) ? expandedFlags[s] : [:]
            for (row, item) in section.items.enumerated() where childCounts[item.itemID] != nil {
                if flags[row] ?? previous.expanded.contains(item.itemID) { expanded.insert(item.itemID) }
            }
        }
    }
}
