import DiffableEngine

extension Server {
    /// `snapshot {source, full?}` → `{source, version, sections, selected}`: sections in
    /// `apply`'s shape (with selection policies), and every selected id. The
    /// visible snapshot, or with `full: true` the whole one (search ignored).
    func snapshot(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw, accepting: ["source", "full"])
        let source = try existingSource(try params.sourceName())
        let full = try params.optionalBool("full") ?? false
        return .object(JSONObject([
            ("source", .string(source.name)),
            ("version", .int(source.version)),
            ("sections", SnapshotCodec.encode(full ? source.snapshot : source.visible, policies: source.selection.policies)),
            ("selected", .array(source.selection.selectedIDs(in: source.snapshot).map { .string($0) })),
        ]))
    }
}
