import DiffableEngine
import DiffableProtocol

extension Server {
    /// `viewport {source, start?, count?}` → `{source, version, window}`:
    /// scrolling. From now on every change of the source is answered with
    /// the window form; `count: 0` goes back to whole-list diffs
    /// (`window: null`).
    /// - Complexity: O(window log window + sections).
    func viewport(_ request: ViewportRequest) throws(RPCError) -> JSON {
        var source = try existingSource(request.source)
        let patchBase = patchBase(source, patchUpdates)
        let update = source.setViewport(request.viewport)
        sources[source.name] = source
        return .object(JSONObject([
            ("source", .string(source.name)), ("version", .int(source.version)),
            ("window", update.map { WindowCodec.encode($0, patchingFrom: patchBase) } ?? .null),
        ]))
    }

    /// `rows {source, start?, count?}` → `{source, version, total, start, rows}`:
    /// rows of the flat visible list, without changing the window.
    func rows(_ request: RowsRequest) throws(RPCError) -> JSON {
        let (start, count) = (request.start, request.count)
        let source = try existingSource(request.source)
        let (total, rows) = source.flatRows(start: start, count: count)
        return .object(JSONObject([
            ("source", .string(source.name)), ("version", .int(source.version)),
            ("total", .int(total)), ("start", .int(start)), ("rows", WindowCodec.encode(rows)),
        ]))
    }
}
