/// An edit op of a source with nested items: every flat op, read on the
/// tree, plus the ops only trees have.
///
/// On the tree, `appendItems` appends top-level items, `insertItems` inserts
/// siblings of an item (same parent), `deleteItems` deletes subtrees, and
/// `moveItem` moves a subtree next to another item (re-parenting it, across
/// sections too).
public enum OutlineEditOperation: Sendable {
    case op(EditOperation)
    /// Appends items (with their children) to a section's top level, or as
    /// the last children of `parent`.
    case appendNodes([OutlineNode], section: String?, parent: String?)
    /// Inserts items (with their children) right before/after an item, as
    /// its siblings.
    case insertNodes([OutlineNode], EditPosition)
    /// Moves an item and its subtree to the end of `parent`'s children.
    case moveInto(String, parent: String)
    /// Replaces the children of `parent` (their subtrees are deleted).
    case replaceChildren(String, [OutlineNode])
    /// Expands or collapses items (and their descendants with `recursive`).
    case setExpanded([String], Bool, recursive: Bool)

    public var name: String {
        switch self {
        case .op(let op): op.name
        case .appendNodes: "appendItems"
        case .insertNodes: "insertItems"
        case .moveInto: "moveItem"
        case .replaceChildren: "replaceChildren"
        case .setExpanded(_, let expand, _): expand ? "expand" : "collapse"
        }
    }
}

/// Redraws an edit asks for though nothing drawn may change (`reloadItems`,
/// `reconfigureItems`, `reloadSections`, `setContent` with style
/// `reconfigure`), applied to the diff after the visible lists are diffed.
struct RedrawRequests {
    var reloadItems: Set<String> = []
    var reconfigureItems: Set<String> = []
    var reloadSections: Set<String> = []
    var isEmpty: Bool { reloadItems.isEmpty && reconfigureItems.isEmpty && reloadSections.isEmpty }

    init() {}

    /// The reloads and reconfigures a full-snapshot changeset reports
    /// (`new` locates them), to carry them into a diff of visible rows.
    init(_ changeset: Changeset, in new: Snapshot) {
        reloadItems = Set(changeset.itemReloads.compactMap { new.item(at: $0.new)?.id })
        reconfigureItems = Set(changeset.itemReconfigures.compactMap { new.item(at: $0.new)?.id })
        reloadSections = Set(changeset.sectionReloads.compactMap {
            new.sections.indices.contains($0.new) ? new.sections[$0.new].id : nil
        })
    }
}

/// A source's sections as trees, for editing (see `DataSource.editOutline`).
/// Operations find items by walking the trees: O(n) per op.
struct OutlineForest {
    struct Tree {
        var id: String
        var header: Content?
        var nodes: [OutlineNode]
    }

    var sections: [Tree]
    var expanded: Set<String>
    /// Every item id, for duplicate checks.
    var ids: Set<String>
    var requests = RedrawRequests()

    init(_ snapshot: Snapshot, _ outline: Outline) {
        sections = snapshot.sections.map { Tree(id: $0.id, header: $0.header, nodes: outline.nest($0.items)) }
        expanded = outline.expanded
        ids = Set(snapshot.sections.flatMap { $0.items.map(\.id) })
    }

    /// Preorder sections and their outline.
    func flattened() -> (Snapshot, Outline) {
        Outline.flatten(sections.map { ($0.id, $0.header, $0.nodes) }) { expanded.contains($0.item.id) }
    }

    // MARK: finding

    /// Where an item is: its section and the child indices from the top.
    func locate(_ id: String) -> (section: Int, path: [Int])? {
        func search(_ nodes: [OutlineNode], _ prefix: [Int]) -> [Int]? {
            for (i, node) in nodes.enumerated() {
                if node.item.id == id { return prefix + [i] }
                if let found = search(node.children, prefix + [i]) { return found }
            }
            return nil
        }
        for (s, tree) in sections.enumerated() {
            if let path = search(tree.nodes, []) { return (s, path) }
        }
        return nil
    }

    func node(_ section: Int, _ path: [Int]) -> OutlineNode? {
        var nodes = sections[section].nodes
        for (depth, i) in path.enumerated() {
            guard nodes.indices.contains(i) else { return nil }
            if depth == path.count - 1 { return nodes[i] }
            nodes = nodes[i].children
        }
        return nil
    }

    /// Changes the child list at `parentPath` (the top level for []).
    mutating func withChildren<R>(_ section: Int, _ parentPath: [Int], _ body: (inout [OutlineNode]) -> R) -> R {
        func go(_ nodes: inout [OutlineNode], _ rest: ArraySlice<Int>) -> R {
            guard let first = rest.first else { return body(&nodes) }
            return go(&nodes[first].children, rest.dropFirst())
        }
        return go(&sections[section].nodes, parentPath[...])
    }

    static func allIDs(_ nodes: [OutlineNode]) -> [String] {
        nodes.flatMap { [$0.item.id] + allIDs($0.children) }
    }

    // MARK: ops

    mutating func apply(_ op: OutlineEditOperation) throws(EditFailure) {
        switch op {
        case .op(let flat): try apply(flat)
        case .appendNodes(let nodes, let section, let parent):
            try checkNew(nodes)
            if let parent {
                guard let (s, path) = locate(parent) else { throw EditFailure(.unknownItem, [parent]) }
                withChildren(s, path) { $0.append(contentsOf: nodes) }
            } else {
                let s = try sectionIndex(section)
                sections[s].nodes.append(contentsOf: nodes)
            }
            adopt(nodes)
        case .insertNodes(let nodes, let position):
            try checkNew(nodes)
            try insert(nodes, position)
            adopt(nodes)
        case .moveInto(let id, let parent):
            guard id != parent else { throw EditFailure(.relativeToItself, [id]) }
            guard let (s, path) = locate(id), let moved = node(s, path) else { throw EditFailure(.unknownItem, [id]) }
            guard locate(parent) != nil else { throw EditFailure(.unknownItem, [parent]) }
            guard !Self.allIDs(moved.children).contains(parent) else { throw EditFailure(.cycle, [id, parent]) }
            remove(s, path)
            if let (ps, pp) = locate(parent) { withChildren(ps, pp) { $0.append(moved) } }
        case .replaceChildren(let parent, let nodes):
            guard let (s, path) = locate(parent), let old = node(s, path) else { throw EditFailure(.unknownItem, [parent]) }
            let removed = Set(Self.allIDs(old.children))
            ids.subtract(removed)
            do throws(EditFailure) { try checkNew(nodes) } catch {
                ids.formUnion(removed)
                throw error
            }
            withChildren(s, path) { $0 = nodes }
            adopt(nodes)
        case .setExpanded(let targets, let expand, let recursive):
            var all: [String] = []
            for id in targets {
                guard let (s, path) = locate(id), let found = node(s, path) else { throw EditFailure(.unknownItem, [id]) }
                all.append(id)
                if recursive { all += Self.allIDs(found.children) }
            }
            if expand { expanded.formUnion(all) } else { expanded.subtract(all) }
        }
    }

    private mutating func apply(_ op: EditOperation) throws(EditFailure) {
        switch op {
        case .appendSections(let new):
            try checkNewSections(new)
            sections += new.map { Tree(id: $0.id, header: $0.header, nodes: $0.items.map { OutlineNode(item: $0) }) }
            ids.formUnion(new.flatMap { $0.items.map(\.id) })
        case .insertSections(let new, let position):
            try checkNewSections(new)
            guard let at = sections.firstIndex(where: { $0.id == position.target }) else {
                throw EditFailure(.unknownSection, [position.target])
            }
            sections.insert(contentsOf: new.map { Tree(id: $0.id, header: $0.header, nodes: $0.items.map { OutlineNode(item: $0) }) },
                            at: position.isAfter ? at + 1 : at)
            ids.formUnion(new.flatMap { $0.items.map(\.id) })
        case .deleteSections(let targets):
            for id in targets {
                guard let s = sections.firstIndex(where: { $0.id == id }) else { throw EditFailure(.unknownSection, [id]) }
                ids.subtract(Self.allIDs(sections[s].nodes))
                sections.remove(at: s)
            }
        case .moveSection(let id, let position):
            guard id != position.target else { throw EditFailure(.relativeToItself, [id]) }
            guard let from = sections.firstIndex(where: { $0.id == id }) else { throw EditFailure(.unknownSection, [id]) }
            let moved = sections.remove(at: from)
            guard let at = sections.firstIndex(where: { $0.id == position.target }) else {
                throw EditFailure(.unknownSection, [position.target])
            }
            sections.insert(moved, at: position.isAfter ? at + 1 : at)
        case .reloadSections(let targets):
            for id in targets where !sections.contains(where: { $0.id == id }) { throw EditFailure(.unknownSection, [id]) }
            requests.reloadSections.formUnion(targets)
        case .setHeaders(let updates):
            for update in updates {
                guard let s = sections.firstIndex(where: { $0.id == update.id }) else { throw EditFailure(.unknownSection, [update.id]) }
                sections[s].header = update.header
            }
        case .appendItems(let items, let section):
            try apply(.appendNodes(items.map { OutlineNode(item: $0) }, section: section, parent: nil))
        case .insertItems(let items, let position):
            try apply(.insertNodes(items.map { OutlineNode(item: $0) }, position))
        case .deleteItems(let targets):
            for id in targets {
                guard let (s, path) = locate(id) else { throw EditFailure(.unknownItem, [id]) }
                remove(s, path)
            }
        case .deleteAllItems:
            for s in sections.indices { sections[s].nodes = [] }
            ids = []
        case .moveItem(let id, let position):
            guard id != position.target else { throw EditFailure(.relativeToItself, [id]) }
            guard let (s, path) = locate(id), let moved = node(s, path) else { throw EditFailure(.unknownItem, [id]) }
            guard locate(position.target) != nil else { throw EditFailure(.unknownItem, [position.target]) }
            guard !Self.allIDs(moved.children).contains(position.target) else {
                throw EditFailure(.cycle, [id, position.target])
            }
            remove(s, path)
            ids.formUnion([id] + Self.allIDs(moved.children))
            try insert([moved], position)
        case .reloadItems(let targets):
            for id in targets where !ids.contains(id) { throw EditFailure(.unknownItem, [id]) }
            requests.reloadItems.formUnion(targets)
        case .reconfigureItems(let targets):
            for id in targets where !ids.contains(id) { throw EditFailure(.unknownItem, [id]) }
            requests.reconfigureItems.formUnion(targets)
        case .setContent(let updates, let style):
            for update in updates {
                guard let (s, path) = locate(update.id) else { throw EditFailure(.unknownItem, [update.id]) }
                let parentPath = Array(path.dropLast())
                let index = path[path.count - 1]
                withChildren(s, parentPath) { nodes in
                    nodes[index].item = Item(id: update.id, content: update.content, text: update.text)
                }
                if style == .reconfigure { requests.reconfigureItems.insert(update.id) }
            }
        }
    }

    private mutating func insert(_ nodes: [OutlineNode], _ position: EditPosition) throws(EditFailure) {
        guard let (s, path) = locate(position.target) else { throw EditFailure(.unknownItem, [position.target]) }
        let index = path[path.count - 1]
        withChildren(s, Array(path.dropLast())) { $0.insert(contentsOf: nodes, at: position.isAfter ? index + 1 : index) }
    }

    private mutating func remove(_ section: Int, _ path: [Int]) {
        let index = path[path.count - 1]
        let removed: OutlineNode? = withChildren(section, Array(path.dropLast())) { nodes in
            nodes.indices.contains(index) ? nodes.remove(at: index) : nil
        }
        if let removed { ids.subtract([removed.item.id] + Self.allIDs(removed.children)) }
    }

    private func sectionIndex(_ id: String?) throws(EditFailure) -> Int {
        guard let id else {
            guard !sections.isEmpty else { throw EditFailure(.noSection, []) }
            return sections.count - 1
        }
        guard let s = sections.firstIndex(where: { $0.id == id }) else { throw EditFailure(.unknownSection, [id]) }
        return s
    }

    private func checkNew(_ nodes: [OutlineNode]) throws(EditFailure) {
        let new = Self.allIDs(nodes)
        var seen: Set<String> = []
        for id in new where ids.contains(id) || !seen.insert(id).inserted { throw EditFailure(.duplicateItem, [id]) }
    }

    private func checkNewSections(_ new: [Section]) throws(EditFailure) {
        var seen = Set(sections.map(\.id))
        for section in new where !seen.insert(section.id).inserted { throw EditFailure(.duplicateSection, [section.id]) }
        var itemIDs: Set<String> = []
        for item in new.flatMap({ $0.items }) where ids.contains(item.id) || !itemIDs.insert(item.id).inserted {
            throw EditFailure(.duplicateItem, [item.id])
        }
    }

    /// Records inserted nodes' ids and their explicit expansion.
    private mutating func adopt(_ nodes: [OutlineNode]) {
        for node in nodes {
            ids.insert(node.item.id)
            if let flag = node.expanded { if flag { expanded.insert(node.item.id) } else { expanded.remove(node.item.id) } }
            adopt(node.children)
        }
    }
}
