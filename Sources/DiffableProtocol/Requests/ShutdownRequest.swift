/// `shutdown` (no params) → `null`; afterwards only `exit` is accepted.
package struct ShutdownRequest: RequestType {
    package static let method = "shutdown"

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        try Params.checkNone(params, method: Self.method)
    }
}
