/// `outline {source, id}` → one item's place in the tree.
package struct OutlineRequest: RequestType {
    package static let method = "outline"
    package var source: String
    package var id: String

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        let params = try Params(params, accepting: ["source", "id"])
        source = try params.sourceName()
        id = try params.string("id")
    }
}
