import DiffableEngine

extension Server {
    /// `sources` → `{sources: [{source, version, sections, items}]}`, sorted by name.
    func listSources(_ raw: JSON?) throws(RPCError) -> JSON {
        try Params.checkNone(raw, method: "sources")
        let list: [JSON] = sources.keys.sorted().compactMap { name in
            guard let source = sources[name] else { return nil }
            return .object(JSONObject([
                ("source", .string(name)),
                ("version", .int(source.version)),
                ("sections", .int(source.snapshot.sections.count)),
                ("items", .int(source.snapshot.itemCount)),
            ]))
        }
        return .object(JSONObject([("sources", .array(list))]))
    }
}
