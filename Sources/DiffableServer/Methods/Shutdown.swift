import DiffableProtocol
extension Server {
    /// `shutdown` → `null`; afterwards only `exit` is accepted.
    func shutdown(_ raw: JSON?) throws(RPCError) -> JSON {
        try Params.checkNone(raw, method: "shutdown")
        phase = .shutDown
        return .null
    }
}
