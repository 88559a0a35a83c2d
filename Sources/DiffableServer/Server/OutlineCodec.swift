import DiffableEngine

/// Wire forms of nested items (protocol/methods/outline.md): items with
/// `children` and `expanded` in `apply` and `snapshot`, and the outline
/// members of a row (`level`, `parent`, `hasChildren`, `expanded`).
enum OutlineCodec {
    /// Whether any item of these section objects nests (`children` or
    /// `expanded`). - Complexity: O(top-level items)
    static func isNested(_ sections: [JSON]) -> Bool {
        sections.contains { section in
            guard case .array(let items)? = section["items"] else { return false }
            return items.contains { $0["children"] != nil || $0["expanded"] != nil }
        }
    }

    /// Sections whose items may nest, flattened in preorder, and their
    /// outline; items that name no `expanded` keep `previous`'s state.
    /// Item ids are unique in the whole source, across levels.
    static func decode(_ sections: [JSON], path: String, previous: Outline) throws(RPCError) -> (Snapshot, Outline) {
        var problems: [JSON] = []
        var nested: [(id: String, header: Content?, nodes: [OutlineNode])] = []
        for (s, json) in sections.enumerated() {
            do throws(ProblemList) {
                let section = try section(json, path: "\(path)[\(s)]")
                nested.append((section.id, section.header, section.nodes))
            } catch {
                problems.append(contentsOf: error.problems)
            }
        }
        if !problems.isEmpty { throw SnapshotCodec.invalid(problems) }
        let (snapshot, outline) = Outline.flatten(nested, previous: previous)
        // Where each preorder row was in the request, for duplicate-id errors.
        let requestPaths: [[String]] = nested.enumerated().map { s, section in
            var paths: [String] = []
            func visit(_ nodes: [OutlineNode], _ prefix: String) {
                for (i, node) in nodes.enumerated() {
                    let here = prefix + "[\(i)]"
                    paths.append(here)
                    visit(node.children, here + ".children")
                }
            }
            visit(section.nodes, "\(path)[\(s)].items")
            return paths
        }
        let checked = try SnapshotCodec.validated(snapshot.sections, path: path) { p in
            requestPaths.indices.contains(p.section) && requestPaths[p.section].indices.contains(p.row)
                ? requestPaths[p.section][p.row] : "\(path)[\(p.section)].items[\(p.row)]"
        }
        return (checked, outline)
    }

    /// A section object whose items may nest.
    static func section(_ json: JSON, path: String) throws(ProblemList) -> OutlineSection {
        let flat = try SnapshotCodec.decodeSection(json.removing("items"), path: path)
        var nodes: [OutlineNode] = []
        if case .array(let items)? = json["items"] {
            for (r, item) in items.enumerated() { nodes.append(try node(item, path: "\(path).items[\(r)]")) }
        } else if let items = json["items"], !items.isNull {
            throw ProblemList(path: "\(path).items", message: "items must be an array")
        }
        return OutlineSection(id: flat.id, header: flat.header, nodes: nodes)
    }

    static func node(_ json: JSON, path: String) throws(ProblemList) -> OutlineNode {
        let item = try SnapshotCodec.decodeItem(json, path: path)
        var node = OutlineNode(item: item)
        guard case .object(let object) = json else { return node }
        if let expanded = object["expanded"], !expanded.isNull {
            guard case .bool(let flag) = expanded else {
                throw ProblemList(path: "\(path).expanded", message: "expanded must be true or false")
            }
            node.expanded = flag
        }
        if let children = object["children"], !children.isNull {
            guard case .array(let list) = children else {
                throw ProblemList(path: "\(path).children", message: "children must be an array of items")
            }
            node.children.reserveCapacity(list.count)
            for (index, child) in list.enumerated() { node.children.append(try Self.node(child, path: "\(path).children[\(index)]")) }
        }
        return node
    }

    /// `"level", "parent"?, "hasChildren"?: true, "expanded"?: true` members.
    static func write(_ row: OutlineRow, into writer: inout JSONWriter) {
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
    static func members(_ row: OutlineRow) -> [(String, JSON)] {
        var members: [(String, JSON)] = [("level", .int(row.level))]
        if let parent = row.parent { members.append(("parent", .string(parent))) }
        if row.hasChildren { members.append(("hasChildren", .bool(true))) }
        if row.expanded { members.append(("expanded", .bool(true))) }
        return members
    }

    /// A section's items nested (`snapshot {full: true}` of an outline source).
    static func encode(_ nodes: [OutlineNode]) -> JSON {
        .array(nodes.map { node in
            var members: [(String, JSON)] = [("id", .string(node.item.id))]
            if let content = node.item.content { members.append(("content", .raw(content.bytes))) }
            if !node.children.isEmpty {
                members.append(("expanded", .bool(node.expanded ?? false)))
                members.append(("children", encode(node.children)))
            }
            return .object(JSONObject(members))
        })
    }
}

private extension JSON {
    /// An object without one member (the section's `items`, decoded apart).
    func removing(_ key: String) -> JSON {
        guard case .object(let object) = self else { return self }
        return .object(JSONObject(object.members.filter { $0.key != key }.map { ($0.key, $0.value) }))
    }
}
