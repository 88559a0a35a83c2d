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

    /// - Complexity: O(size of the params).
    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        let params = try Params(params, accepting: Self.members)
        try self.init(checked: params)
    }

    package static let members = ["source", "ops", "baseVersion", "form", "viewport", "echo", "updates"]

    /// The params' members read in the order the tree path reads them;
    /// `ops`: the ops decoded already (from bytes), else read from `ops`.
    private init(checked params: Params, ops decodedOps: [OutlineEditOperation]? = nil) throws(RPCError) {
        source = try params.sourceName()
        form = try params.optionalForm()
        baseVersion = try params.optionalCount("baseVersion")
        viewport = try WindowCodec.viewport(params)
        echo = try params.optionalEcho()
        updates = try params.optionalUpdates()
        let list = try params.array("ops")
        if let decodedOps {
            self.ops = decodedOps
            return
        }
        var ops: [OutlineEditOperation] = []
        ops.reserveCapacity(list.count)
        for (index, json) in list.enumerated() {
            ops.append(try EditCodec.decodeOutlineOp(json, path: "\(params.fieldPath("ops"))[\(index)]"))
        }
        self.ops = ops
    }

    /// The byte path's: `params` (with `ops` an empty array) checked as
    /// `init(params:context:)` checks them, and the ops it decoded.
    init(checking params: Params, ops: [OutlineEditOperation]) throws(RPCError) {
        try params.checkMembers(Self.members)
        try self.init(checked: params, ops: ops)
    }
}
