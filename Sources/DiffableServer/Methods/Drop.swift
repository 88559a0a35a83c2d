import DiffableProtocol
extension Server {
    /// `drop {source}` → `{source, dropped: true}`; unknown source → 1001.
    /// The source's memory goes back to the system shortly after.
    func drop(_ request: DropRequest) throws(RPCError) -> JSON {
        let name = request.source
        guard let dropped = sources.removeValue(forKey: name) else { throw .unknownSource(name) }
        // Freed in the background after the answer, and the heap trimmed
        // once the daemon is idle: a dropped source gives its memory back.
        retired.append(.source(dropped))
        return .object(JSONObject([("source", .string(name)), ("dropped", .bool(true))]))
    }
}
