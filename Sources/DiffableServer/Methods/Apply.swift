import DiffableEngine

extension Server {
    /// `apply {source, sections, baseVersion?, form?}` (sections may carry
    /// `selection`/`allowsEmptySelection` policies) → the diff from the
    /// previous visible snapshot to the new one. Creates the source if needed.
    /// All-or-nothing: any invalid input leaves the source untouched.
    func apply(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw)
        let name = try params.sourceName()
        let form = try form(params)
        let baseVersion = try params.optionalInt("baseVersion")
        let sections = try params.array("sections")
        let snapshot = try SnapshotCodec.decodeSnapshot(sections, path: "params.sections")
        let policies = try SelectionCodec.policies(inSections: sections, path: "params.sections")
        var source = sources[name] ?? DataSource(name: name)
        try checkBaseVersion(baseVersion, of: source)
        let update: DataSource.Update
        do throws(SelectionError) {
            update = try source.apply(snapshot, policies: policies)
        } catch {
            throw SelectionCodec.error(error)
        }
        sources[name] = source
        return diffResult(source, update, form: form)
    }
}
