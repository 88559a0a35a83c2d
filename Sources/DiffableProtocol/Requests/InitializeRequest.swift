/// `initialize {processId?, initializationOptions?, …}` → `{serverInfo,
/// capabilities}`. Lenient at the top (LSP clients send `rootUri`,
/// `capabilities`, `trace`, … and may send `null`s); strict inside the
/// daemon's own `initializationOptions`. Absent options keep the defaults.
package struct InitializeRequest: RequestType {
    package static let method = "initialize"
    /// The editor's process id.
    package var processID: Int32?
    package var form: DiffForm?
    package var echo: Bool?
    package var updates: Bool?
    package var supersedeSearches: Bool?
    /// In milliseconds, 0…1000.
    package var progressiveBudget: Int?

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        guard let raw = params, !raw.isNull else { return }
        var params = try Params(raw, accepting: nil)
        params.lenient = true
        if let options = try params.optionalObject("initializationOptions") {
            try options.checkMembers(["form", "supersedeSearches", "echo", "updates", "progressiveBudget"], alsoAccepting: [])
            form = try options.optionalForm()
            echo = try options.optionalEcho()
            updates = try options.optionalUpdates()
            supersedeSearches = try options.optionalBool("supersedeSearches")
            if let budget = try options.optionalCount("progressiveBudget") {
                guard budget <= 1_000 else {
                    throw .invalidParams("params.initializationOptions.progressiveBudget must be at most 1000 (milliseconds), got \(budget)",
                                         data: Params.pathData("params.initializationOptions.progressiveBudget"))
                }
                progressiveBudget = budget
            }
        }
        if let pid = try params.optionalInt("processId") {
            guard pid > 0, pid <= Int(Int32.max) else {
                throw .invalidParams("params.processId must be a positive process id or null",
                                     data: Params.pathData("params.processId"))
            }
            processID = Int32(pid)
        }
    }
}
