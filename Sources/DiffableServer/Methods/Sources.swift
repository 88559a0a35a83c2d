import DiffableEngine
import DiffableProtocol

extension Server {
    /// `sources` → `{sources: [{source, version, sections, items}]}`, sorted by name.
    func listSources(_ request: SourcesRequest) throws(RPCError) -> JSON {
        let list: [JSON] = sources.keys.sorted().compactMap { name in
            guard let source = sources[name] else { return nil }
            return .object(JSONObject(members: [
                (key: "source", value: .string(name)),
                (key: "version", value: .int(source.version)),
                (key: "sections", value: .int(source.snapshot.sections.count)),
                (key: "items", value: .int(source.snapshot.itemCount)),
            ]))
        }
        return .object(JSONObject(members: [(key: "sources", value: .array(list))]))
    }
}
