import DiffableProtocol

/// The lifecycle methods: `initialize` opens the session and reports the
/// routes (`capabilities.methods`), `shutdown` closes it. They change the
/// phase that dispatch checks (`Server+Dispatch.swift`), so they live
/// with it rather than in `../Methods`.
extension Server {
    /// `initialize {processId?, initializationOptions?: {form?: "batch"|"steps",
    /// supersedeSearches?: Bool, echo?, updates?, progressiveBudget?: ms}, …}` (other LSP members
    /// are ignored) →
    /// `{serverInfo, capabilities}`.
    func initialize(_ request: InitializeRequest) throws(RPCError) -> JSON {
        if let form = request.form { defaultForm = form }
        if let echo = request.echo { echoContent = echo }
        if let updates = request.updates { patchUpdates = updates }
        if let supersede = request.supersedeSearches { supersedeSearches = supersede }
        if let budget = request.progressiveBudget { progressiveBudget = Double(budget) / 1_000 }
        if let pid = request.processID { parentProcessID = pid }
        phase = .running
        return .object(JSONObject([
            ("serverInfo", .object(JSONObject([
                ("name", .string(ServerInfo.name)), ("version", .string(ServerInfo.version)),
            ]))),
            ("capabilities", Self.capabilities(defaultForm: defaultForm)),
        ]))
    }

    static func capabilities(defaultForm: DiffForm) -> JSON {
        .object(JSONObject([
            ("methods", .array(methodNames.map { .string($0) })),
            ("diffForms", .array([.string("batch"), .string("steps")])),
            ("defaultForm", .string(defaultForm.rawValue)),
            ("framings", .array([.string("content-length"), .string("newline")])),
            ("viewports", .bool(true)),
            ("echo", .array([.string("full"), .string("ids")])),
            ("updates", .array([.string("content"), .string("patch")])),
        ]))
    }

    /// `shutdown` → `null`; afterwards only `exit` is accepted.
    func shutdown(_ request: ShutdownRequest) throws(RPCError) -> JSON {
        phase = .shutDown
        return .null
    }
}
