import DiffableEngine

/// `edit {source, ops, baseVersion?, form?, viewport?, echo?, updates?}` →
/// the diff of the edit. See protocol/methods/edit.md.
package struct EditRequest: RequestType {
    package static let method = "edit"
    package var source: String
    /// Every op, flat or tree, in order (`EditCodec.decodeOutlineOp`).
    package var ops: [OutlineEditOperation]
    package var baseVersion: Int?
    package var form: DiffForm?
    package var viewport: Viewport??
    package var echo: Bool?
    package var updates: Bool?

    /// Read by the one `edit` reader, from the params written back as
    /// bytes (`EditRequest.decode`): a small `edit`, or one in a batch,
    /// came as a tree. Params that are not an object, and unknown members,
    /// are refused first, as for every method.
    /// - Complexity: O(size of the params).
    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        self = try Self.decode(LazyParams(writingBack: params, accepting: Self.members), context: context)
    }

    package static let members = ["source", "ops", "baseVersion", "form", "viewport", "echo", "updates"]

    /// The params' members checked in order; `ops`: what reading the ops
    /// gave (the ops, or the first failing op's error, reported after the
    /// other members), nil when the `ops` member is not an array (its check
    /// names the problem).
    init(checked params: Params, ops decodedOps: Result<[OutlineEditOperation], RPCError>?) throws(RPCError) {
        source = try params.sourceName()
        form = try params.optionalForm()
        baseVersion = try params.optionalCount("baseVersion")
        viewport = try WindowCodec.viewport(params)
        echo = try params.optionalEcho()
        updates = try params.optionalUpdates()
        _ = try params.array("ops")
        guard let decodedOps else {
            throw RPCError(code: ErrorCode.internalError,
                           message: "Internal error: the edit's ops array was not read; nothing was changed.")
        }
        switch decodedOps {
        case .success(let ops): self.ops = ops
        case .failure(let error): throw error
        }
    }
}
