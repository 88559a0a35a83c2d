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
        let params = try Params(params, accepting: ["source", "ops", "baseVersion", "form", "viewport", "echo", "updates"])
        source = try params.sourceName()
        form = try params.optionalForm()
        baseVersion = try params.optionalCount("baseVersion")
        viewport = try WindowCodec.viewport(params)
        echo = try params.optionalEcho()
        updates = try params.optionalUpdates()
        let list = try params.array("ops")
        var ops: [OutlineEditOperation] = []
        ops.reserveCapacity(list.count)
        for (index, json) in list.enumerated() {
            ops.append(try EditCodec.decodeOutlineOp(json, path: "\(params.fieldPath("ops"))[\(index)]"))
        }
        self.ops = ops
    }
}
