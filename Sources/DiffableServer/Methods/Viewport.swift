import DiffableEngine
import DiffableProtocol

extension Server {
    /// `viewport {source, start?, count?}` → `{source, version, window}`:
    /// scrolling. From now on every change of the source is answered with
    /// the window form; `count: 0` or `null` goes back to whole-list diffs
    /// (`window: null`).
    /// - Complexity: O(window log window + sections).
    func viewport(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw, accepting: ["source", "start", "count"])
        let name = try params.sourceName()
        let start = try params.optionalCount("start") ?? 0
        let count = try WindowCodec.count(params, default: 0)
        var source = try existingSource(name)
        let patchBase = patchBase(source, patchUpdates)
        let update = source.setViewport(count == 0 ? nil : Viewport(start: start, count: count))
        sources[source.name] = source
        return .object(JSONObject([
            ("source", .string(source.name)), ("version", .int(source.version)),
            ("window", update.map { WindowCodec.encode($0, patchingFrom: patchBase) } ?? .null),
        ]))
    }

    /// `rows {source, start?, count?}` → `{source, version, total, start, rows}`:
    /// rows of the flat visible list, without changing the window.
    func rows(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw, accepting: ["source", "start", "count"])
        let name = try params.sourceName()
        let start = try params.optionalCount("start") ?? 0
        let count = try WindowCodec.count(params, default: 100)
        let source = try existingSource(name)
        let (total, rows) = source.flatRows(start: start, count: count)
        return .object(JSONObject([
            ("source", .string(source.name)), ("version", .int(source.version)),
            ("total", .int(total)), ("start", .int(start)), ("rows", WindowCodec.encode(rows)),
        ]))
    }
}
