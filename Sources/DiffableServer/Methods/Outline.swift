import DiffableEngine
import DiffableProtocol

extension Server {
    /// `expand {source, ids, recursive?, form?, baseVersion?}` → the diff of
    /// the visible rows (the revealed descendants inserted, the toggled rows
    /// redrawn). See protocol/methods/outline.md.
    func expand(_ request: ExpandRequest) throws(RPCError) -> JSON { try setExpanded(request, true) }

    /// `collapse {source, ids, recursive?, form?, baseVersion?}`: the hidden
    /// descendants deleted, the toggled rows redrawn.
    func collapse(_ request: CollapseRequest) throws(RPCError) -> JSON { try setExpanded(request.target, false) }

    private func setExpanded(_ request: ExpandRequest, _ expand: Bool) throws(RPCError) -> JSON {
        let (name, ids, recursive) = (request.source, request.ids, request.recursive)
        let form = request.form ?? defaultForm
        try checkBaseVersion(request.baseVersion, of: try existingSource(name))
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
    func outlineQuery(_ request: OutlineRequest) throws(RPCError) -> JSON {
        let (name, id) = (request.source, request.id)
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
