/// `drop {source}` → `{source, dropped: true}`.
package struct DropRequest: RequestType {
    package static let method = "drop"
    package var source: String

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        let params = try Params(params, accepting: ["source"])
        source = try params.sourceName()
    }
}
