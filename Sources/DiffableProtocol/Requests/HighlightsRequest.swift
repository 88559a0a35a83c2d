/// `highlights {source, section, start?, count?}` → `{source, version, highlights}`.
package struct HighlightsRequest: RequestType {
    package static let method = "highlights"
    package var source: String
    /// The visible section's index.
    package var section: Int
    package var start: Int
    package var count: Int

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        let params = try Params(params, accepting: ["source", "section", "start", "count"])
        source = try params.sourceName()
        guard let section = try params.optionalInt("section") else { throw params.missing("section", "a section index") }
        self.section = section
        start = try params.optionalCount("start") ?? 0
        count = try params.optionalCount("count") ?? 100
    }
}
