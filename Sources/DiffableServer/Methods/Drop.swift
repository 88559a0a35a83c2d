extension Server {
    /// `drop {source}` → `{source, dropped: true}`; unknown source → 1001.
    func drop(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw, accepting: ["source"])
        let name = try params.sourceName()
        guard sources.removeValue(forKey: name) != nil else { throw .unknownSource(name) }
        return .object(JSONObject([("source", .string(name)), ("dropped", .bool(true))]))
    }
}
