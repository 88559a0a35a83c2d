import DiffableEngine
import DiffableProtocol

extension Server {
    /// `highlights {source, section, start?, count?}` → `{source, version,
    /// highlights}` for the visible rows `start..<start+count` of section
    /// index `section` (rows the frontend scrolled to).
    func highlights(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw, accepting: ["source", "section", "start", "count"])
        let name = try params.sourceName()
        guard let section = try params.optionalInt("section") else { throw params.missing("section", "a section index") }
        let start = try params.optionalCount("start") ?? 0
        let count = try params.optionalCount("count") ?? 100
        let source = try existingSource(name)
        guard source.visible.sections.indices.contains(section) else {
            throw .invalidParams("No visible section \(section)", data: Params.pathData(params.fieldPath("section")))
        }
        let rows = start..<(start > Int.max - 10_000 ? Int.max : start + min(count, 10_000))
        return .object(JSONObject([
            ("source", .string(source.name)),
            ("version", .int(source.version)),
            ("highlights", highlightRows(source, limitPerSection: count, rows: rows, section: section)),
        ]))
    }
}
