import DiffableEngine

extension Server {
    /// `snapshot {source}` → `{source, version, sections}` in `apply`'s shape.
    func snapshot(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw)
        let source = try existingSource(try params.sourceName())
        return .object(JSONObject([
            ("source", .string(source.name)),
            ("version", .int(source.version)),
            ("sections", SnapshotCodec.encode(source.visible)),
        ]))
    }
}
