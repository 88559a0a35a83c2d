import DiffableProtocol
extension Server {
    /// `shutdown` → `null`; afterwards only `exit` is accepted.
    func shutdown(_ request: ShutdownRequest) throws(RPCError) -> JSON {
        phase = .shutDown
        return .null
    }
}
