extension Server {
    /// `shutdown` → `null`; afterwards only `exit` is accepted.
    func shutdown(_ raw: JSON?) throws(RPCError) -> JSON {
        phase = .shutDown
        return .null
    }
}
