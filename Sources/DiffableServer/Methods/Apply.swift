import DiffableEngine

extension Server {
    /// `apply {source, sections, baseVersion?, form?}` → the diff from the
    /// previous visible snapshot to the new one. Creates the source if needed.
    /// All-or-nothing: any invalid input leaves the source untouched.
    func apply(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw)
        let name = try params.sourceName()
        let form = try form(params)
        let baseVersion = try params.optionalInt("baseVersion")
        let snapshot = try SnapshotCodec.decodeSnapshot(try params.array("sections"), path: "params.sections")
        var source = sources[name] ?? DataSource(name: name)
        try checkBaseVersion(baseVersion, of: source)
        let update: DataSource.Update
        do throws(SelectionError) {
            update = try source.apply(snapshot)
        } catch {
            throw RPCError(code: ErrorCode.selectionRejected, message: "\(error)")
        }
        sources[name] = source
        return diffResult(source, update, form: form)
    }
}
