import DiffableEngine
import DiffableProtocol

extension Server {
    /// `highlights {source, section, start?, count?}` → `{source, version,
    /// highlights}` for the visible rows `start..<start+count` of section
    /// index `section` (rows the frontend scrolled to).
    func highlights(_ request: HighlightsRequest) throws(RPCError) -> JSON {
        let (section, start, count) = (request.section, request.start, request.count)
        let source = try existingSource(request.source)
        guard source.visible.sections.indices.contains(section) else {
            throw .invalidParams("No visible section \(section)", data: Params.pathData("params.section"))
        }
        let rows = start..<(start > Int.max - 10_000 ? Int.max : start + min(count, 10_000))
        return .object(JSONObject([
            ("source", .string(source.name)),
            ("version", .int(source.version)),
            ("highlights", highlightRows(source, limitPerSection: count, rows: rows, section: section)),
        ]))
    }
}
