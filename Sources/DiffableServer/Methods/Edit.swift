import DiffableEngine
import DiffableProtocol

extension Server {
    /// `edit {source, ops, baseVersion?, form?, viewport?, echo?, updates?}`
    /// → the diff of the edit, from its ops. All-or-nothing: an invalid op shape (-32602, `data.path`), an
    /// unknown source (1001), a version conflict (1002) or an op that cannot
    /// apply (1004, `data: {op, reason, ids}`) leaves the source untouched.
    /// See protocol/methods/edit.md.
    /// - Complexity: decoding is O(size of the request); the edit itself,
    ///   see `DataSource.edit`; the batch payload is O(changes).
    func edit(_ request: EditRequest) throws(RPCError) -> JSON {
        let (name, baseVersion, viewport, ops) = (request.source, request.baseVersion, request.viewport, request.ops)
        let form = request.form ?? defaultForm
        let echo = request.echo ?? echoContent
        let patches = request.updates ?? patchUpdates
        // Ops that only trees have take the tree path (so does a source with nested items).
        let flatOps = ops.compactMap { op -> EditOperation? in if case .op(let flat) = op { flat } else { nil } }
        // Taken out of the table while it changes, so its storage is not shared
        // (no copy-on-write copy of a large snapshot or index); always put back.
        // The last safe point: the edit below changes the source in place.
        try work.checkCancelled()
        guard var source = sources.removeValue(forKey: name) else { throw .unknownSource(name) }
        defer { sources[name] = source }
        try checkBaseVersion(baseVersion, of: source)
        let savedWindow = source.window
        let patchBase = patchBase(source, patches)
        if let viewport { source.prepareViewport(viewport) }
        let update: DataSource.Update
        do throws(EditError) {
            let cancellation = work.cancellation
            if flatOps.count != ops.count {
                update = try source.editOutline(ops, shouldStop: { cancellation?.isCancelled ?? false })
            } else if let inPlace = try source.editContentsInPlace(flatOps) {
                // Contents alone: changed where they are (no chunk copied, no
                // old snapshot to free); the reply reads `contentsBefore`.
                update = inPlace
            } else {
                update = try source.edit(flatOps)
            }
        } catch {
            source.restoreWindow(savedWindow)
            if error.reason == .stopped { try work.checkCancelled() }
            throw RPCError(
                code: ErrorCode.invalidEdit,
                message: "Edit rejected: \(error). Nothing was changed.",
                data: .object(JSONObject([
                    ("op", .int(error.op)), ("reason", .string(error.reason.rawValue)),
                    ("ids", .array(error.ids.map(JSON.string))),
                ] + (error.transformFailure?.step.map { [("patchOp", .int($0))] } ?? []))))
        }
        return diffResult(source, update, form: form, echo: echo ? .none : .items(EditCodec.contentCarried(by: ops)),
                          patchBase: patchBase, viewportRemoved: viewport == .some(nil))
    }
}
