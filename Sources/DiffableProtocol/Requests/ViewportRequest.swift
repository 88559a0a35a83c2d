import DiffableEngine

/// `viewport {source, start?, count?}` → `{source, version, window}`;
/// `count: 0` ends the window.
package struct ViewportRequest: RequestType {
    package static let method = "viewport"
    package var source: String
    /// nil: back to whole-list diffs.
    package var viewport: Viewport?

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        let params = try Params(params, accepting: ["source", "start", "count"])
        source = try params.sourceName()
        let start = try params.optionalCount("start") ?? 0
        let count = try WindowCodec.count(params, default: 0)
        viewport = count == 0 ? nil : Viewport(start: start, count: count)
    }
}
