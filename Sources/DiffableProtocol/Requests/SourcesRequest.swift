/// `sources` (no params) → `{sources: [{source, version, sections, items}]}`.
package struct SourcesRequest: RequestType {
    package static let method = "sources"

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        try Params.checkNone(params, method: Self.method)
    }
}
