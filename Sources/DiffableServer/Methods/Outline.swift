import DiffableEngine
import DiffableProtocol

extension Server {
    /// `expand {source, ids, recursive?, form?, baseVersion?}` → the diff of
    /// the visible rows (the revealed descendants inserted, the toggled rows
    /// redrawn). See protocol/methods/outline.md.
    func expand(_ raw: JSON?) throws(RPCError) -> JSON { try setExpanded(raw, true) }

    /// `collapse {source, ids, recursive?, form?, baseVersion?}`: the hidden
    /// descendants deleted, the toggled rows redrawn.
    func collapse(_ raw: JSON?) throws(RPCError) -> JSON { try setExpanded(raw, false) }

    private func setExpanded(_ raw: JSON?, _ expand: Bool) throws(RPCError) -> JSON {
        let params = try Params(raw, accepting: ["source", "ids", "recursive", "form", "baseVersion"])
        let name = try params.sourceName()
        let form = try form(params)
        let baseVersion = try params.optionalCount("baseVersion")
        let recursive = try params.optionalBool("recursive") ?? false
        var ids: [String] = []
        for (index, value) in try params.array("ids").enumerated() {
            guard case .string(let id) = value else { throw params.wrongType("ids[\(index)]", "a string") }
            ids.append(id)
        }
        try checkBaseVersion(baseVersion, of: try existingSource(name))
        // The last safe point: the source changes in place below (taken out
        // of the table so that its rows are not copied on write).
        try work.checkCancelled()
        guard var source = sources.removeValue(forKey: name) else { throw .unknownSource(name) }
        defer { sources[name] = source }
        let patchBase = patchBase(source, patchUpdates)
        let update: DataSource.Update
        do throws(OutlineError) {
            update = try source.setExpanded(ids, expand, recursive: recursive)
        } catch {
            throw RPCError(code: ErrorCode.unknownID,
                           message: "No item \(error.unknown.map { "\"\($0)\"" }.joined(separator: ", ")) in \"\(name)\"; nothing was changed.",
                           data: .object(JSONObject([("ids", .array(error.unknown.map { .string($0) }))])))
        }
        return diffResult(source, update, form: form, patchBase: patchBase)
    }

    /// `outline {source, id}` → `{source, version, id, parent, level,
    /// children, hasChildren, expanded, visible, path}`.
    func outlineQuery(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw, accepting: ["source", "id"])
        let name = try params.sourceName()
        let id = try params.string("id")
        let source = try existingSource(name)
        guard let info = source.outlineInfo(of: id) else {
            throw RPCError(code: ErrorCode.unknownID, message: "No item \"\(id)\" in \"\(name)\".",
                           data: .object(JSONObject([("ids", .array([.string(id)]))])))
        }
        return .object(JSONObject([
            ("source", .string(name)), ("version", .int(source.version)), ("id", .string(id)),
            ("parent", info.row.parent.map(JSON.string) ?? .null), ("level", .int(info.row.level)),
            ("children", .int(info.childCount)), ("hasChildren", .bool(info.row.hasChildren)),
            ("expanded", .bool(info.row.expanded)), ("visible", .bool(info.visiblePath != nil)),
            ("path", info.visiblePath.map { .array([.int($0.section), .int($0.row)]) } ?? .null),
        ]))
    }
}
