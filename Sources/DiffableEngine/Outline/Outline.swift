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
public struct Outline: Equatable, Sendable {
    /// The parent of every item that has one.
    public internal(set) var parents: [String: String] = [:]
    /// The number of children of every item that has children.
    public internal(set) var childCounts: [String: Int] = [:]
    /// Items shown expanded (when all their ancestors are).
    public internal(set) var expanded: Set<String> = []

    public init() {}

    /// Whether no item has children.
    public var isEmpty: Bool { childCounts.isEmpty }

    /// 0 for a top-level item. - Complexity: O(depth)
    public func level(of id: String) -> Int {
        var level = 0, current = id
        while let parent = parents[current] {
            level += 1
            current = parent
        }
        return level
    }

    public func parent(of id: String) -> String? { parents[id] }
    public func hasChildren(_ id: String) -> Bool { childCounts[id] != nil }
    public func isExpanded(_ id: String) -> Bool { expanded.contains(id) }

    /// The ancestors of `id`, nearest first. - Complexity: O(depth)
    public func ancestors(of id: String) -> [String] {
        var result: [String] = [], current = id
        while let parent = parents[current] {
            result.append(parent)
            current = parent
        }
        return result
    }

    /// What a frontend draws of an item's place in the tree.
    public func row(of id: String) -> OutlineRow {
        OutlineRow(level: level(of: id), parent: parents[id], hasChildren: hasChildren(id), expanded: isExpanded(id))
    }
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

extension Outline {
    /// Flattens nested sections into preorder item lists and their outline.
    /// `previous` supplies the expansion state of items that do not name
    /// one; items without children are never expanded.
    /// - Complexity: O(n)
    public static func flatten(_ sections: [(id: String, header: Content?, nodes: [OutlineNode])],
                               previous: Outline) -> (Snapshot, Outline) {
        flatten(sections) { $0.expanded ?? previous.expanded.contains($0.item.id) }
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
            func visit(_ node: OutlineNode, parent: String?) {
                items.append(node.item)
                if let parent { outline.parents[node.item.id] = parent }
                guard !node.children.isEmpty else { return }
                outline.childCounts[node.item.id] = node.children.count
                if isExpanded(node) { outline.expanded.insert(node.item.id) }
                for child in node.children { visit(child, parent: node.item.id) }
            }
            for node in section.nodes { visit(node, parent: nil) }
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
            for (row, parent) in rows.enumerated() where parent >= 0 && Int(parent) < section.items.count {
                let parentID = section.items[Int(parent)].id
                parents[section.items[row].id] = parentID
                childCounts[parentID, default: 0] += 1
            }
            let flags = expandedFlags.indices.contains(s) ? expandedFlags[s] : [:]
            for (row, item) in section.items.enumerated() where childCounts[item.id] != nil {
                if flags[row] ?? previous.expanded.contains(item.id) { expanded.insert(item.id) }
            }
        }
    }

    /// The nested form of a preorder section (for `snapshot`).
    /// - Complexity: O(items)
    public func nest(_ items: ItemList) -> [OutlineNode] {
        var roots: [OutlineNode] = []
        // Path of open nodes from the root, as indices into their parents.
        var stack: [OutlineNode] = []
        func close(to level: Int) {
            while stack.count > level {
                let node = stack.removeLast()
                if stack.isEmpty { roots.append(node) } else { stack[stack.count - 1].children.append(node) }
            }
        }
        for item in items {
            close(to: level(of: item.id))
            stack.append(OutlineNode(item: item, expanded: hasChildren(item.id) ? isExpanded(item.id) : nil))
        }
        close(to: 0)
        return roots
    }
}
