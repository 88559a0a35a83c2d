import DiffableEngine
import DiffableProtocol

extension Server {
    /// `selection {source}` → `{source, version, selected: [{id, path|null}], policies}`:
    /// every selected id in snapshot order (path null when hidden by search).
    func selectionQuery(_ request: SelectionRequest) throws(RPCError) -> JSON {
        let source = try existingSource(request.source)
        let rows = source.selection.selectedPaths(in: source.visible)
        // By bytes: two spellings of "é" are two items, which `String` keys
        // would merge.
        var visiblePaths: [ItemID: ItemPath] = [:]
        for row in rows { visiblePaths[ItemID(row.id)] = row.path }
        let selected: [JSON] = source.selection.selectedIDs(in: source.snapshot).map { id in
            SelectionCodec.encode(SelectionDelta.Change(id: id, path: visiblePaths[ItemID(id)]))
        }
        let policies = source.selection.policies.keys.sorted().compactMap { id -> (String, JSON)? in
            source.selection.policies[id].map { (id, SelectionCodec.encode($0)) }
        }
        return .object(JSONObject(members: [
            (key: "source", value: .string(source.name)),
            (key: "version", value: .int(source.version)),
            (key: "selected", value: .array(selected)),
            (key: "policies", value: .object(JSONObject(policies))),
        ]))
    }
}
