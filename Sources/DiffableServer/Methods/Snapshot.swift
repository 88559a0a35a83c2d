import DiffableEngine
import DiffableProtocol

extension Server {
    /// `snapshot {source, full?}` → `{source, version, sections, selected}`: sections in
    /// `apply`'s shape (with selection policies), and every selected id. The
    /// visible snapshot, or with `full: true` the whole one (search ignored).
    func snapshot(_ request: SnapshotRequest) throws(RPCError) -> JSON {
        let full = request.full
        let source = try existingSource(request.source)
        let sections: JSON
        if source.outline.isEmpty {
            sections = SnapshotCodec.encode(full ? source.snapshot : source.visible, policies: source.selection.policies)
        } else if full {
            // The tree, nested as `apply` takes it.
            sections = .array(source.snapshot.sections.map { section in
                var members: [(String, JSON)] = [("id", .string(section.id))]
                if let header = section.header { members.append(("header", .raw(header.bytes))) }
                members.append(("items", OutlineCodec.encode(section.items, outline: source.outline)))
                return .object(JSONObject(members))
            })
        } else {
            // The visible rows, each with its place in the outline.
            let encoding = ItemEncoding(exception: source.placeholderID, outline: source.outline)
            sections = .array(source.visible.sections.map { section in
                var members: [(String, JSON)] = [("id", .string(section.id))]
                if let header = section.header { members.append(("header", .raw(header.bytes))) }
                members.append(("items", SnapshotCodec.encode(items: section.items, echo: encoding)))
                return .object(JSONObject(members))
            })
        }
        return .object(JSONObject([
            ("source", .string(source.name)),
            ("version", .int(source.version)),
            ("sections", sections),
            ("selected", .array(source.selection.selectedIDs(in: source.snapshot).map { .string($0) })),
        ]))
    }
}
