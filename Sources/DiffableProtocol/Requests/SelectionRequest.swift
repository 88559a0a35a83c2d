/// `selection {source}` → `{source, version, selected, policies}`.
package struct SelectionRequest: RequestType {
    package static let method = "selection"
    package var source: String

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        let params = try Params(params, accepting: ["source"])
        source = try params.sourceName()
    }
}
