import DiffableEngine

extension Server {
    /// `viewport {source, start?, count?}` → `{source, version, window}`:
    /// scrolling. From now on every change of the source is answered with
    /// the window form; `count: 0` or `null` goes back to whole-list diffs
    /// (`window: null`).
    /// - Complexity: O(window log window + sections).
    func viewport(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw, accepting: ["source", "start", "count"])
        var source = try existingSource(try params.sourceName())
        let start = try params.optionalCount("start") ?? 0
        let count = try params.optionalCount("count") ?? 0
        guard count <= WindowCodec.maxCount else {
            throw .invalidParams("params.count must be at most \(WindowCodec.maxCount) rows", data: Params.pathData("params.count"))
        }
        let update = source.setViewport(count == 0 ? nil : Viewport(start: start, count: count))
        sources[source.name] = source
        return .object(JSONObject([
            ("source", .string(source.name)), ("version", .int(source.version)),
            ("window", update.map { WindowCodec.encode($0) } ?? .null),
        ]))
    }

    /// `rows {source, start?, count?}` → `{source, version, total, start, rows}`:
    /// rows of the flat visible list, without changing the window.
    func rows(_ raw: JSON?) throws(RPCError) -> JSON {
        let params = try Params(raw, accepting: ["source", "start", "count"])
        let source = try existingSource(try params.sourceName())
        let start = try params.optionalCount("start") ?? 0
        let count = min(try params.optionalCount("count") ?? 100, WindowCodec.maxCount)
        let (total, rows) = source.flatRows(start: start, count: count)
        return .object(JSONObject([
            ("source", .string(source.name)), ("version", .int(source.version)),
            ("total", .int(total)), ("start", .int(start)), ("rows", WindowCodec.encode(rows)),
        ]))
    }
}
