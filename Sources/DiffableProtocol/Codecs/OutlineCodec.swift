import DiffableEngine

/// Wire forms of nested items (protocol/methods/outline.md): items with
/// `children` and `expanded` in `apply` and `snapshot`, and the outline
/// members of a row (`level`, `parent`, `hasChildren`, `expanded`).
package enum OutlineCodec {
    /// Whether any item of these section objects nests (`children` or
    /// `expanded`). - Complexity: O(top-level items)
    package static func isNested(_ sections: [JSON]) -> Bool {
        sections.contains { section in
            guard case .array(let items)? = section["items"] else { return false }
            return items.contains { $0["children"] != nil || $0["expanded"] != nil }
        }
    }

    /// Where each preorder row of nested sections was in the request, for
    /// the rows a duplicate-id error names: `path[s].items[i].children[j]…`.
    /// `parentRows`: per section, the parent row of each row (nil: flat).
    /// - Complexity: O(rows of a section) the first time it is asked about.
    package static func itemPaths(_ path: String, parentRows: [[Int32]?]) -> (ItemPath) -> String {
        var lineages: [Int: [(parent: Int, index: Int)]] = [:]
        return { p in
            guard parentRows.indices.contains(p.section), let parents = parentRows[p.section] else {
                return "\(path)[\(p.section)].items[\(p.row)]"
            }
            if lineages[p.section] == nil { lineages[p.section] = lineage(parentRows: parents) }
            let rows = lineages[p.section] ?? []
            var indices: [Int] = []
            var row = p.row
            while rows.indices.contains(row) {
                indices.append(rows[row].index)
                row = rows[row].parent
            }
            return "\(path)[\(p.section)].items" + indices.reversed().map { "[\($0)]" }.joined(separator: ".children")
        }
    }

    /// For every preorder row: its parent's row (-1 at the top) and its
    /// index among its siblings, from the parent row of each row (a parent
    /// before its children). - Complexity: O(rows)
    package static func lineage(parentRows: [Int32]) -> [(parent: Int, index: Int)] {
        var children = [Int](repeating: 0, count: parentRows.count + 1)
        return parentRows.map { parent in
            let slot = Int(parent) + 1
            guard children.indices.contains(slot) else { return (-1, 0) }
            defer { children[slot] += 1 }
            return (Int(parent), children[slot])
        }
    }

    /// A section object whose items may nest.
    package static func section(_ json: JSON, path: String, maxLevel: Int? = nil) throws(ProblemList) -> OutlineSection {
        let flat = try SnapshotCodec.decodeSection(json.removing("items"), path: path)
        var nodes: [OutlineNode] = []
        if case .array(let items)? = json["items"] {
            for (r, item) in items.enumerated() {
                nodes.append(try node(item, path: "\(path).items[\(r)]", maxLevel: maxLevel))
            }
        } else if let items = json["items"] {
            throw SnapshotCodec.itemsProblem(items, path: path)
        }
        return OutlineSection(id: flat.id, header: flat.header, nodes: nodes)
    }

    /// An item and its descendants. With `maxLevel`, an item deeper than
    /// that level (the item at `path` is at level 0) is refused.
    /// Items wait on an explicit stack, so no depth overflows the call
    /// stack, and a path is spelled only for an item that is refused.
    /// - Complexity: O(items), O(depth) memory.
    package static func node(_ json: JSON, path: String, maxLevel: Int? = nil) throws(ProblemList) -> OutlineNode {
        // The open items from `json` down: each node, its children's JSON
        // and the index of the next child to read.
        var open: [(node: OutlineNode, children: [JSON], next: Int)] = []
        func here() -> String {
            path + open.map { ".children[\($0.next - 1)]" }.joined()
        }
        var pending: JSON? = json
        var finished: OutlineNode?
        while true {
            if let current = pending {
                pending = nil
                var node = OutlineNode(item: try SnapshotCodec.decodeItem(current, path: here()))
                var children: [JSON] = []
                if case .object(let object) = current {
                    if let expanded = object["expanded"] {
                        guard case .bool(let flag) = expanded else {
                            throw ProblemList(path: "\(here()).expanded", message: expanded.isNull
                                ? "expanded must not be null: leave it out to keep the item's expansion"
                                : "expanded must be true or false")
                        }
                        node.expanded = flag
                    }
                    if let list = object["children"] {
                        guard case .array(let array) = list else {
                            throw ProblemList(path: "\(here()).children", message: list.isNull
                                ? "children must not be null: leave it out for an item without children"
                                : "children must be an array of items")
                        }
                        children = array
                    }
                }
                if let maxLevel, !children.isEmpty, open.count >= maxLevel {
                    throw ProblemList(path: "\(here()).children", message:
                        "item \"\(node.item.id)\" is at level \(open.count) and its children would be deeper than level \(maxLevel); trees are at most \(maxLevel + 1) levels deep")
                }
                if children.isEmpty {
                    finished = node
                } else {
                    node.children.reserveCapacity(children.count)
                    open.append((node, children, 0))
                }
            }
            if let node = finished {
                finished = nil
                guard !open.isEmpty else { return node }
                open[open.count - 1].node.children.append(node)
            }
            guard let top = open.last else { continue }
            if top.next < top.children.count {
                pending = top.children[top.next]
                open[open.count - 1].next += 1
            } else {
                finished = open.removeLast().node
            }
        }
    }

    /// `"level", "parent"?, "hasChildren"?: true, "expanded"?: true` members.
    package static func write(_ row: OutlineRow, into writer: inout JSONWriter) {
        writer.key(raw: "level")
        writer.appendInt(row.level)
        if let parent = row.parent {
            writer.key(raw: "parent")
            writer.appendString(parent)
        }
        if row.hasChildren {
            writer.key(raw: "hasChildren")
            writer.appendBool(true)
        }
        if row.expanded {
            writer.key(raw: "expanded")
            writer.appendBool(true)
        }
    }

    /// The same members as a JSON list (window rows).
    package static func members(_ row: OutlineRow) -> [(String, JSON)] {
        var members: [(String, JSON)] = [("level", .int(row.level))]
        if let parent = row.parent { members.append(("parent", .string(parent))) }
        if row.hasChildren { members.append(("hasChildren", .bool(true))) }
        if row.expanded { members.append(("expanded", .bool(true))) }
        return members
    }

    /// A section's items nested as `apply` takes them (`snapshot {full:
    /// true}` of an outline source), written straight from the preorder
    /// rows: an item's object stays open while its descendants follow.
    /// - Complexity: O(items), O(depth) memory, no recursion.
    package static func encode(_ items: ItemList, outline: Outline) -> JSON {
        var writer = JSONWriter()
        // The ids of the items whose `children` array is open, top first.
        var open: [ItemID] = []
        writer.beginArray()
        for item in items {
            let id = item.itemID
            let parent = outline.parent(of: id)
            while let last = open.last, last != parent {
                open.removeLast()
                writer.endArray()
                writer.endObject()
            }
            writer.beginObject()
            writer.key(raw: "id")
            writer.appendString(item.id)
            if let content = item.content {
                writer.key(raw: "content")
                writer.appendRaw(content.bytes)
            }
            if outline.hasChildren(id) {
                writer.key(raw: "expanded")
                writer.appendBool(outline.isExpanded(id))
                writer.key(raw: "children")
                writer.beginArray()
                open.append(id)
            } else {
                writer.endObject()
            }
        }
        for _ in open {
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        return .raw(writer.bytes)
    }
}

private extension JSON {
    /// An object without one member (the section's `items`, decoded apart).
    func removing(_ key: String) -> JSON {
        guard case .object(let object) = self else { return self }
        return .object(JSONObject(object.members.filter { $0.key != key }.map { ($0.key, $0.value) }))
    }
}
