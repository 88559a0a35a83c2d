/// `snapshot {source, full?}` → `{source, version, sections, selected}`.
package struct SnapshotRequest: RequestType {
    package static let method = "snapshot"
    package var source: String
    /// The whole snapshot (search ignored) rather than the visible one.
    package var full: Bool

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        let params = try Params(params, accepting: ["source", "full"])
        source = try params.sourceName()
        full = try params.optionalBool("full") ?? false
    }
}
