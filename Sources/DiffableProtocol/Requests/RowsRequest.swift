/// `rows {source, start?, count?}` → `{source, version, total, start, rows}`.
package struct RowsRequest: RequestType {
    package static let method = "rows"
    package var source: String
    package var start: Int
    package var count: Int

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        let params = try Params(params, accepting: ["source", "start", "count"])
        source = try params.sourceName()
        start = try params.optionalCount("start") ?? 0
        count = try WindowCodec.count(params, default: 100)
    }
}
