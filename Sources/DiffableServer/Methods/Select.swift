import DiffableEngine
import DiffableProtocol

extension Server {
    /// `select {source, action, ids?, paths?, sections?, baseVersion?}` →
    /// `{source, version, selection}`. All-or-nothing.
    func select(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw, accepting: ["source", "action", "ids", "paths", "sections", "baseVersion"])
        let name = try params.sourceName()
        let baseVersion = try params.optionalCount("baseVersion")
        let actionName = try params.optionalEnum("action", SelectionAction.allCases.map(\.rawValue)) ?? "select"
        let action = SelectionAction(rawValue: actionName) ?? .select
        var targets: [SelectionTarget] = []
        for (index, id) in (try params.optionalArray("ids") ?? []).enumerated() {
            guard case .string(let s) = id else { throw params.wrongType("ids[\(index)]", "a string") }
            targets.append(.id(s))
        }
        for (index, path) in (try params.optionalArray("paths") ?? []).enumerated() {
            guard case .array(let pair) = path, pair.count == 2, let s = pair[0].intValue, let r = pair[1].intValue else {
                throw params.wrongType("paths[\(index)]", "a [section, row] pair of integers")
            }
            targets.append(.path(ItemPath(section: s, row: r)))
        }
        for (index, id) in (try params.optionalArray("sections") ?? []).enumerated() {
            guard case .string(let s) = id else { throw params.wrongType("sections[\(index)]", "a string") }
            targets.append(.section(s))
        }
        // Every param is checked before the source is looked up, so a
        // malformed request is -32602 whatever the source's name.
        var source = try existingSource(name)
        try checkBaseVersion(baseVersion, of: source)
        let delta: SelectionDelta
        do throws(SelectionError) {
            delta = try source.select(action, targets: targets)
        } catch {
            throw SelectionCodec.error(error)
        }
        let patchBase = patchBase(source, patchUpdates)
        let window = source.refreshWindow()
        sources[source.name] = source
        return selectionResult(source, delta, window: window, patchBase: patchBase)
    }

    /// `{source, version, selection?}`: `selection` only when it says
    /// something (a change, or selected rows to report).
    /// With a viewport, also `window`: the selection marks of the window rows.
    func selectionResult(_ source: DataSource, _ delta: SelectionDelta, window: WindowUpdate? = nil,
                         patchBase: [WindowRow]? = nil) -> JSON {
        var members: [(String, JSON)] = [("source", .string(source.name)), ("version", .int(source.version))]
        let selection = SelectionCodec.encode(delta, rows: source.selection.selectedPaths(in: source.visible))
        if case .object(let object) = selection, !object.isEmpty { members.append(("selection", selection)) }
        if let window { members.append(("window", WindowCodec.encode(window, patchingFrom: patchBase))) }
        return .object(JSONObject(members))
    }
}
