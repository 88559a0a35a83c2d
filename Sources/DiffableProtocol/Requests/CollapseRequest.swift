/// `collapse {source, ids, recursive?, form?, baseVersion?}`: `expand`'s params.
package struct CollapseRequest: RequestType {
    package static let method = "collapse"
    package var target: ExpandRequest

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        target = try ExpandRequest(params: params, context: context)
    }
}
