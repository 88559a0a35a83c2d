import DiffableEngine

/// `select {source, action?, ids?, paths?, sections?, baseVersion?}` →
/// `{source, version, selection}`.
package struct SelectRequest: RequestType {
    package static let method = "select"
    package var source: String
    package var action: SelectionAction
    /// Ids, then `[section, row]` paths, then sections, in that order.
    package var targets: [SelectionTarget]
    package var baseVersion: Int?

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        let params = try Params(params, accepting: ["source", "action", "ids", "paths", "sections", "baseVersion"])
        source = try params.sourceName()
        baseVersion = try params.optionalCount("baseVersion")
        let actionName = try params.optionalEnum("action", SelectionAction.allCases.map(\.rawValue)) ?? "select"
        action = SelectionAction(rawValue: actionName) ?? .select
        targets = []
        for id in try params.strings("ids", required: false) ?? [] { targets.append(.id(id)) }
        for (index, path) in (try params.optionalArray("paths") ?? []).enumerated() {
            guard case .array(let pair) = path, pair.count == 2, let s = pair[0].intValue, let r = pair[1].intValue else {
                throw params.wrongType("paths[\(index)]", "a [section, row] pair of integers")
            }
            targets.append(.path(ItemPath(section: s, row: r)))
        }
        for id in try params.strings("sections", required: false) ?? [] { targets.append(.section(id)) }
    }
}
