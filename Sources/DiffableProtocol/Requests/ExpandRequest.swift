/// `expand {source, ids, recursive?, form?, baseVersion?}` and `collapse`
/// (the same params): the diff of the visible rows.
package struct ExpandRequest: RequestType {
    package static let method = "expand"
    package var source: String
    package var ids: [String]
    package var recursive: Bool
    package var form: DiffForm?
    package var baseVersion: Int?

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        let params = try Params(params, accepting: ["source", "ids", "recursive", "form", "baseVersion"])
        source = try params.sourceName()
        form = try params.optionalForm()
        baseVersion = try params.optionalCount("baseVersion")
        recursive = try params.optionalBool("recursive") ?? false
        ids = try params.strings("ids", required: true) ?? []
    }
}
