import DiffableEngine

extension Server {
    /// `snapshot {source}` → `{source, version, sections, selected}`: sections in
    /// `apply`'s shape (with selection policies), and every selected id.
    func snapshot(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw)
        let source = try existingSource(try params.sourceName())
        return .object(JSONObject([
            ("source", .string(source.name)),
            ("version", .int(source.version)),
            ("sections", SnapshotCodec.encode(source.visible, policies: source.selection.policies)),
            ("selected", .array(source.selection.selectedIDs(in: source.snapshot).map { .string($0) })),
        ]))
    }
}
