import DiffableEngine

/// Decodes `edit` ops (see protocol/methods/edit.md). Every failure is an
/// `invalidParams` error whose `data.path` names the offending member.
package enum EditCodec {
    package static func decodeOp(_ json: JSON, path: String) throws(RPCError) -> EditOperation {
        guard case .object(let object) = json else {
            throw .invalidParams("\(path) must be an object {\"op\", …}", data: Params.pathData(path))
        }
        let op = Params(object: object, path: path)
        guard let kind = try op.optionalEnum("op", opMembers.map(\.op)) else { throw op.missing("op", "an op name") }
        try op.checkMembers(["op"] + (opMembers.first { $0.op == kind }?.members ?? []), alsoAccepting: [])
        switch kind {
        case "appendSections":
            return .appendSections(try sections(op))
        case "insertSections":
            return .insertSections(try sections(op), try position(op))
        case "deleteSections":
            return .deleteSections(try ids(op))
        case "moveSection":
            return .moveSection(try op.string("id"), try position(op))
        case "reloadSections":
            return .reloadSections(try ids(op))
        case "setHeaders":
            return .setHeaders(try objects(op, "sections") { o throws(RPCError) in
                try o.checkMembers(["id", "header"], alsoAccepting: [])
                return HeaderUpdate(id: try o.string("id"), header: try SnapshotCodec.content(of: o.object["header"], path: o.fieldPath("header")))
            })
        case "appendItems":
            return .appendItems(try items(op), toSection: try op.optionalString("section"))
        case "insertItems":
            return .insertItems(try items(op), try position(op))
        case "deleteItems":
            return .deleteItems(try ids(op))
        case "deleteAllItems":
            return .deleteAllItems
        case "moveItem":
            return .moveItem(try op.string("id"), try position(op))
        case "reloadItems":
            return .reloadItems(try ids(op))
        case "reconfigureItems":
            return .reconfigureItems(try ids(op))
        case "setContent":
            let style = try op.optionalEnum("style", ["reload", "reconfigure"]).flatMap(ContentUpdateStyle.init) ?? .reload
            return .setContent(try objects(op, "items") { o throws(RPCError) in
                try o.checkMembers(["id", "content"], alsoAccepting: [])
                let value = o.object["content"]
                return ContentUpdate(id: try o.string("id"), content: try SnapshotCodec.content(of: value, path: o.fieldPath("content")),
                                     text: value.flatMap(SnapshotCodec.searchText(of:)))
            }, style: style)
        case "patchContent":
            return .transformContent(try patchContent(op))
        default:  // the tree ops, decoded by decodeOutlineOp
            throw .invalidParams("\(path): \"\(kind)\" is decoded as a tree op", data: Params.pathData(op.fieldPath("op")))
        }
    }

    /// Every op and the members it takes besides `op`, in the spec's order.
    package static let opMembers: [(op: String, members: [String])] = [
        ("appendSections", ["sections"]), ("insertSections", ["sections", "before", "after"]),
        ("deleteSections", ["ids"]), ("moveSection", ["id", "before", "after"]), ("reloadSections", ["ids"]),
        ("setHeaders", ["sections"]), ("appendItems", ["items", "section", "parent"]),
        ("insertItems", ["items", "before", "after"]), ("deleteItems", ["ids"]), ("deleteAllItems", []),
        ("moveItem", ["id", "before", "after", "parent"]), ("reloadItems", ["ids"]), ("reconfigureItems", ["ids"]),
        ("setContent", ["items", "style"]), ("patchContent", ["id", "patch"]), ("replaceChildren", ["parent", "items"]),
        ("expand", ["ids", "recursive"]), ("collapse", ["ids", "recursive"]),
    ]

    /// An op as a tree reads it: `.op` for the flat ops, the tree ops for
    /// nested items, `parent`, `replaceChildren`, `expand` and `collapse`.
    package static func decodeOutlineOp(_ json: JSON, path: @autoclosure () -> String) throws(RPCError) -> OutlineEditOperation {
        if let transform = usualPatchContent(json) { return .op(.transformContent(transform)) }
        let path = path()
        guard case .object(let object) = json, case .string(let name)? = object["op"] else {
            return .op(try decodeOp(json, path: path))
        }
        let op = Params(object: object, path: path)
        func nested() -> Bool {
            guard case .array(let items)? = object["items"] else { return false }
            return items.contains { $0["children"] != nil || $0["expanded"] != nil }
        }
        func nestedSections() -> Bool {
            guard case .array(let sections)? = object["sections"] else { return false }
            return OutlineCodec.isNested(sections)
        }
        switch name {
        case "appendSections" where nestedSections():
            _ = try decodeOp(json, path: path)  // shape and member checks
            return .appendNestedSections(try nestedSectionList(op))
        case "insertSections" where nestedSections():
            _ = try decodeOp(json, path: path)
            return .insertNestedSections(try nestedSectionList(op), try position(op))
        case "appendItems" where object["parent"] != nil || nested():
            _ = try decodeOp(json, path: path)  // shape and member checks
            let parent = try op.optionalString("parent")
            if parent != nil, object["section"] != nil {
                throw .invalidParams("\(path): give \"section\" or \"parent\", not both", data: Params.pathData(op.fieldPath("parent")))
            }
            return .appendNodes(try nodes(op), section: try op.optionalString("section"), parent: parent)
        case "insertItems" where nested():
            _ = try decodeOp(json, path: path)
            return .insertNodes(try nodes(op), try position(op))
        case "moveItem" where object["parent"] != nil:
            try op.checkMembers(["op", "id", "parent"], alsoAccepting: [])
            guard let parent = try op.optionalString("parent") else { throw op.missing("parent", "an item id") }
            return .moveInto(try op.string("id"), parent: parent)
        case "replaceChildren":
            try op.checkMembers(["op", "parent", "items"], alsoAccepting: [])
            return .replaceChildren(try op.string("parent"), try nodes(op))
        case "expand", "collapse":
            try op.checkMembers(["op", "ids", "recursive"], alsoAccepting: [])
            return .setExpanded(try ids(op), name == "expand", recursive: try op.optionalBool("recursive") ?? false)
        default:
            return .op(try decodeOp(json, path: path))
        }
    }

    /// The items whose content `ops` carry (new items, nested ones
    /// included, and `setContent`): what `echo: "ids"` leaves out.
    /// - Complexity: O(items in the ops)
    package static func contentCarried(by ops: [OutlineEditOperation]) -> Set<ItemID> {
        var ids: Set<ItemID> = []
        var pending: [OutlineNode] = []
        for op in ops {
            switch op {
            case .appendNestedSections(let sections), .insertNestedSections(let sections, _):
                pending += sections.flatMap(\.nodes)
            case .appendNodes(let nodes, _, _), .insertNodes(let nodes, _), .replaceChildren(_, let nodes):
                pending += nodes
            case .moveInto, .setExpanded:
                break
            case .op(let flat):
                switch flat {
                case .appendSections(let sections), .insertSections(let sections, _):
                    for section in sections { for item in section.items { ids.insert(item.itemID) } }
                case .appendItems(let items, _), .insertItems(let items, _):
                    for item in items { ids.insert(item.itemID) }
                case .setContent(let updates, _):
                    for update in updates { ids.insert(ItemID(update.id)) }
                case .transformContent(let transform):
                    ids.insert(ItemID(transform.id))
                default:
                    break
                }
            }
            while let node = pending.popLast() {
                ids.insert(node.item.itemID)
                pending += node.children
            }
        }
        return ids
    }

    /// `patchContent {id, patch}`: an RFC 6902 patch of the item's content
    /// as it is at that point of the edit. Its shape is checked here
    /// (-32602 with `data.path` inside the patch); whether it applies is
    /// known during the edit (1004 `patchFailed`, `data.patchOp`). The
    /// patched content is set as `setContent` sets content: canonical
    /// bytes, the search text taken from it, at most `NestingLimits.content` deep.
    package static func patchContent(_ op: Params) throws(RPCError) -> ContentTransform {
        let id = try op.string("id")
        guard let value = op.object["patch"] else { throw op.missing("patch", "an array of JSON Patch ops") }
        let ops: [JSONPatch.Operation]
        do throws(JSONPatch.ShapeError) {
            ops = try JSONPatch.decode(value, path: op.fieldPath("patch"))
        } catch {
            throw .invalidParams("\(error.path) \(error.message)", data: Params.pathData(error.path))
        }
        return patchContent(id: id, ops)
    }

    /// A `patchContent` op in its usual shape, read without building the
    /// paths errors would name (a ticker sends a hundred a tick): exactly
    /// `op`, `id` (a string) and `patch` (well-formed ops). Nil for
    /// anything else, which `decodeOp` then reads and, when it is wrong,
    /// names the problem of.
    /// - Complexity: O(size of the op).
    package static func usualPatchContent(_ json: JSON) -> ContentTransform? {
        guard case .object(let object) = json, object.count == 3, case .string("patchContent")? = object["op"],
              case .string(let id)? = object["id"], let patch = object["patch"],
              let ops = try? JSONPatch.decode(patch, path: "") else { return nil }
        return patchContent(id: id, ops)
    }

    /// The transform of a decoded `patchContent` (see `patchContent(_:)`).
    package static func patchContent(id: String, _ ops: [JSONPatch.Operation]) -> ContentTransform {
        ContentTransform(id: id) { old throws(ContentTransformFailure) in
            // Spliced in place when it can be: the same bytes and text as below.
            if let old, let spliced = old.withUnsafeBytes({ JSONPatch.spliced(ops, into: $0.bindMemory(to: UInt8.self)) }) {
                return (Content(bytes: spliced.bytes), spliced.text)
            }
            var document = JSON.null
            if let old {
                // Stored content is the daemon's own canonical JSON.
                guard let parsed = try? JSONParser.parse(old.bytes, maxDepth: NestingLimits.content) else {
                    throw ContentTransformFailure("the stored content could not be read back")
                }
                document = parsed
            }
            let patched: JSON
            do throws(JSONPatch.Failure) {
                patched = try JSONPatch.apply(ops, to: document)
            } catch {
                throw ContentTransformFailure(error.message, step: error.index)
            }
            guard let content = SnapshotCodec.content(orNilIfTooDeep: patched) else {
                throw ContentTransformFailure("the patched content nests deeper than \(NestingLimits.content) levels of arrays and objects")
            }
            return (content, SnapshotCodec.searchText(of: patched))
        }
    }

    /// `sections` whose items may nest.
    package static func nestedSectionList(_ op: Params) throws(RPCError) -> [OutlineSection] {
        var result: [OutlineSection] = []
        for (index, value) in try op.array("sections").enumerated() {
            do throws(ProblemList) {
                result.append(try OutlineCodec.section(value, path: "\(op.fieldPath("sections"))[\(index)]"))
            } catch {
                throw invalid(error)
            }
        }
        return result
    }

    /// `items` that may nest (`children`, `expanded`).
    package static func nodes(_ op: Params) throws(RPCError) -> [OutlineNode] {
        var result: [OutlineNode] = []
        for (index, value) in try op.array("items").enumerated() {
            do throws(ProblemList) {
                result.append(try OutlineCodec.node(value, path: "\(op.fieldPath("items"))[\(index)]"))
            } catch {
                throw invalid(error)
            }
        }
        return result
    }

    /// Exactly one of `before` / `after`, a string.
    package static func position(_ op: Params) throws(RPCError) -> EditPosition {
        let before = try op.optionalString("before")
        let after = try op.optionalString("after")
        switch (before, after) {
        case let (id?, nil): return .before(id)
        case let (nil, id?): return .after(id)
        case (nil, nil): throw op.missing("before", "a section or item id; or give \"after\"")
        case (_?, _?):
            throw .invalidParams("\(op.path): give \"before\" or \"after\", not both", data: Params.pathData(op.fieldPath("after")))
        }
    }

    package static func ids(_ op: Params) throws(RPCError) -> [String] {
        var result: [String] = []
        for (index, value) in try op.array("ids").enumerated() {
            guard case .string(let id) = value else {
                let path = "\(op.fieldPath("ids"))[\(index)]"
                throw .invalidParams("\(path) must be a string id", data: Params.pathData(path))
            }
            result.append(id)
        }
        return result
    }

    /// The op's items, written into one arena of their size (a batch of
    /// appended rows costs one allocation, not several per row).
    package static func items(_ op: Params) throws(RPCError) -> [Item] {
        var parts: [SnapshotCodec.ItemParts] = []
        var bytes = 0
        for (index, value) in try op.array("items").enumerated() {
            do throws(ProblemList) {
                let decoded = try SnapshotCodec.decodeItemParts(value, path: "\(op.fieldPath("items"))[\(index)]")
                bytes += decoded.byteCount
                parts.append(decoded)
            } catch {
                throw invalid(error)
            }
        }
        var builder = ByteArena.Builder(chunkSize: bytes)
        return parts.map { $0.item(in: &builder) }
    }

    package static func sections(_ op: Params) throws(RPCError) -> [Section] {
        var result: [Section] = []
        for (index, value) in try op.array("sections").enumerated() {
            do throws(ProblemList) {
                result.append(try SnapshotCodec.decodeSection(value, path: "\(op.fieldPath("sections"))[\(index)]"))
            } catch {
                throw invalid(error)
            }
        }
        return result
    }

    /// An array of objects, each decoded by `decode`.
    package static func objects<T>(
        _ op: Params, _ key: String, _ decode: (Params) throws(RPCError) -> T
    ) throws(RPCError) -> [T] {
        var result: [T] = []
        for (index, value) in try op.array(key).enumerated() {
            let path = "\(op.fieldPath(key))[\(index)]"
            guard case .object(let object) = value else {
                throw .invalidParams("\(path) must be an object {\"id\", …}", data: Params.pathData(path))
            }
            result.append(try decode(Params(object: object, path: path)))
        }
        return result
    }

    /// The first decoding problem as an `invalidParams` error with its path.
    package static func invalid(_ list: ProblemList) -> RPCError {
        guard case .object(let o)? = list.problems.first, case .string(let path)? = o["path"],
              case .string(let message)? = o["message"]
        else { return .invalidParams("invalid edit op") }
        return .invalidParams("\(path): \(message)", data: Params.pathData(path))
    }
}
