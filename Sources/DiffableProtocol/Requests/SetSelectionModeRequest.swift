import DiffableEngine

/// `setSelectionMode {source, sections: {id: {mode, allowsEmpty?}}}` →
/// `{source, version, selection}`.
package struct SetSelectionModeRequest: RequestType {
    package static let method = "setSelectionMode"
    package var source: String
    package var policies: [String: SectionSelectionPolicy]

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        let params = try Params(params, accepting: ["source", "sections"])
        source = try params.sourceName()
        guard let sections = try params.optionalObject("sections") else { throw params.missing("sections", "an object") }
        policies = try SelectionCodec.policies(sections)
    }
}
