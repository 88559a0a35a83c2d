import DiffableEngine
import DiffableProtocol

extension Server {
    /// `select {source, action, ids?, paths?, sections?, baseVersion?}` →
    /// `{source, version, selection}`. All-or-nothing.
    func select(_ request: SelectRequest) throws(RPCError) -> JSON {
        var source = try existingSource(request.source)
        try checkBaseVersion(request.baseVersion, of: source)
        let delta: SelectionDelta
        do throws(SelectionError) {
            delta = try source.select(request.action, targets: request.targets)
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
