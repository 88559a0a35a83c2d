import DiffableProtocol
extension Server {
    /// `initialize {processId?, initializationOptions?: {form?: "batch"|"steps",
    /// supersedeSearches?: Bool, echo?, updates?, progressiveBudget?: ms}, …}` (other LSP members
    /// are ignored) →
    /// `{serverInfo, capabilities}`.
    func initialize(_ raw: JSON?) throws(RPCError) -> JSON {
        guard phase == .awaitingInitialize else {
            throw RPCError(code: ErrorCode.invalidRequest, message: "Invalid Request: `initialize` was already received")
        }
        if let raw, !raw.isNull {
            // Lenient at the top (LSP clients send processId, rootUri,
            // capabilities, trace, …); strict inside our own options.
            var params = try Params(raw, accepting: nil)
            params.lenient = true
            if let options = try params.optionalObject("initializationOptions") {
                try options.checkMembers(["form", "supersedeSearches", "echo", "updates", "progressiveBudget"], alsoAccepting: [])
                defaultForm = try form(options)
                echoContent = try echoContent(options)
                patchUpdates = try patchUpdates(options)
                supersedeSearches = try options.optionalBool("supersedeSearches") ?? true
                if let budget = try options.optionalCount("progressiveBudget") {
                    guard budget <= 1_000 else {
                        throw .invalidParams("params.initializationOptions.progressiveBudget must be at most 1000 (milliseconds), got \(budget)",
                                             data: Params.pathData("params.initializationOptions.progressiveBudget"))
                    }
                    progressiveBudget = Double(budget) / 1_000
                }
            }
            if let pid = try params.optionalInt("processId") {
                guard pid > 0, pid <= Int(Int32.max) else {
                    throw .invalidParams("params.processId must be a positive process id or null",
                                         data: Params.pathData("params.processId"))
                }
                parentProcessID = Int32(pid)
            }
        }
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
}
