extension Server {
    /// `initialize {initializationOptions?: {form?: "batch"|"steps",
    /// supersedeSearches?: Bool}}` →
    /// `{serverInfo, capabilities}`.
    func initialize(_ raw: JSON?) throws(RPCError) -> JSON {
        guard phase == .awaitingInitialize else {
            throw RPCError(code: ErrorCode.invalidRequest, message: "Invalid Request: `initialize` was already received")
        }
        if let raw, !raw.isNull {
            let params = try Params(raw)
            if let options = try params.optionalObject("initializationOptions") {
                defaultForm = try form(options)
                supersedeSearches = try options.optionalBool("supersedeSearches") ?? true
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
        ]))
    }
}
