import DiffableEngine

/// Wire forms of selection policies, targets and deltas (protocol/methods/select.md).
package enum SelectionCodec {
    package static let modes = SelectionMode.allCases.map(\.rawValue)

    /// Policies named by `apply`'s section objects: `"selection"` (mode) and
    /// `"allowsEmptySelection"`. Sections that name neither keep their policy.
    package static func policies(inSections sections: [JSON], path: String) throws(RPCError) -> [String: SectionSelectionPolicy] {
        var result: [String: SectionSelectionPolicy] = [:]
        for (index, section) in sections.enumerated() {
            guard case .object(let object) = section, case .string(let id)? = object["id"] else { continue }
            let params = Params(object: object, path: "\(path)[\(index)]")
            guard object["selection"] != nil || object["allowsEmptySelection"] != nil else { continue }
            result[id] = try policy(params, modeKey: "selection", allowsEmptyKey: "allowsEmptySelection")
        }
        return result
    }

    /// `{"mode": "single", "allowsEmpty": false}` style objects keyed by section id.
    package static func policies(_ params: Params) throws(RPCError) -> [String: SectionSelectionPolicy] {
        var result: [String: SectionSelectionPolicy] = [:]
        for member in params.object.members {
            guard case .object(let object) = member.value else {
                throw .invalidParams("\(params.fieldPath(member.key)) must be an object {\"mode\", \"allowsEmpty\"?}",
                                     data: Params.pathData(params.fieldPath(member.key)))
            }
            let policyParams = Params(object: object, path: params.fieldPath(member.key))
            try policyParams.checkMembers(["mode", "allowsEmpty"], alsoAccepting: [])
            guard object["mode"] != nil else { throw policyParams.missing("mode", "\"none\", \"single\" or \"multiple\"") }
            result[member.key] = try policy(policyParams, modeKey: "mode", allowsEmptyKey: "allowsEmpty")
        }
        return result
    }

    private static func policy(_ params: Params, modeKey: String, allowsEmptyKey: String) throws(RPCError) -> SectionSelectionPolicy {
        let mode = try params.optionalEnum(modeKey, modes).flatMap(SelectionMode.init(rawValue:)) ?? .none
        let allowsEmpty = try params.optionalBool(allowsEmptyKey) ?? true
        return SectionSelectionPolicy(mode: mode, allowsEmpty: allowsEmpty)
    }

    package static func encode(_ policy: SectionSelectionPolicy) -> JSON {
        .object(JSONObject([("mode", .string(policy.mode.rawValue)), ("allowsEmpty", .bool(policy.allowsEmpty))]))
    }

    package static func encode(_ change: SelectionDelta.Change) -> JSON {
        .object(JSONObject([("id", .string(change.id)), ("path", change.path.map(path) ?? .null)]))
    }

    package static func path(_ p: ItemPath) -> JSON { .array([.int(p.section), .int(p.row)]) }

    /// `{"selected"?, "deselected"?, "kept"?, "rows"?}`; empty lists omitted.
    package static func encode(_ delta: SelectionDelta, rows: [SelectedRow]) -> JSON {
        var members: [(String, JSON)] = []
        if !delta.selected.isEmpty { members.append(("selected", .array(delta.selected.map(encode)))) }
        if !delta.deselected.isEmpty { members.append(("deselected", .array(delta.deselected.map(encode)))) }
        if !delta.kept.isEmpty { members.append(("kept", .array(delta.kept.map(encode)))) }
        if !rows.isEmpty {
            members.append(("rows", .array(rows.map {
                .object(JSONObject([("id", .string($0.id)), ("path", path($0.path))]))
            })))
        }
        return .object(JSONObject(members))
    }

    /// Maps a refused selection request to its documented error.
    package static func error(_ error: SelectionError) -> RPCError {
        func data(_ members: [(String, JSON)]) -> JSON { .object(JSONObject(members)) }
        func ids(_ list: [String]) -> JSON { .array(list.map { .string($0) }) }
        switch error {
        case .unknownItem(let id):
            return RPCError(code: ErrorCode.unknownID, message: "No item \"\(id)\" in this source; nothing was changed.",
                            data: data([("ids", ids([id]))]))
        case .unknownSection(let id):
            return RPCError(code: ErrorCode.unknownID, message: "No section \"\(id)\" in this source; nothing was changed.",
                            data: data([("sections", ids([id]))]))
        case .pathOutOfRange(let p):
            return .invalidParams("No visible row at [\(p.section),\(p.row)]; nothing was changed.",
                                  data: data([("path", path(p))]))
        case .targetNotAllowed(let action, _):
            return .invalidParams(action == .clear
                ? "`clear` takes section ids (params.sections), not items."
                : "`\(action.rawValue)` takes item ids or paths; `sections` is only for `clear`.",
                data: data([("path", .string(action == .clear ? "params.ids" : "params.sections"))]))
        case .selectionDisabled(let section, let items):
            return RPCError(code: ErrorCode.selectionRejected,
                            message: "Section \"\(section)\" does not allow selection (mode none); set its mode with `setSelectionMode` or `apply`. Nothing was changed.",
                            data: data([("section", .string(section)), ("ids", ids(items))]))
        case .tooManyForSingle(let section, let items):
            return RPCError(code: ErrorCode.selectionRejected,
                            message: "Section \"\(section)\" allows a single selection but the request selects \(items.count) items; nothing was changed.",
                            data: data([("section", .string(section)), ("ids", ids(items))]))
        case .invalidPolicy(let section, _):
            return .invalidParams("Section \"\(section)\" cannot have mode none and forbid an empty selection.",
                                  data: data([("section", .string(section))]))
        }
    }
}
