import DiffableEngine

/// Wire forms of viewports and window updates (protocol/methods/viewport.md).
enum WindowCodec {
    /// `{"total", "start", "count", "steps": [...]}`. Item rows `omitted`
    /// names carry no content (the request carried it), but the
    /// `placeholder`, the daemon's own row.
    static func encode(_ update: WindowUpdate, omitting omitted: EchoedContent = .none, placeholder: String? = nil) -> JSON {
        let omit: (WindowRow) -> Bool = { row in
            row.kind != .header && row.id != placeholder && omitted.omits(ItemID(row.id))
        }
        var steps: [JSON] = []
        steps.reserveCapacity(update.steps.count)
        for step in update.steps {
            switch step {
            case .delete(let at, let count):
                steps.append(op("delete", [("at", .int(at)), ("count", .int(count))]))
            case .insert(let at, let rows):
                steps.append(op("insert", [("at", .int(at)), ("rows", encode(rows, omitting: omit))]))
            case .move(let from, let to):
                steps.append(op("move", [("from", .int(from)), ("to", .int(to))]))
            case .update(let at, let rows):
                steps.append(op("update", [("at", .int(at)), ("rows", encode(rows, omitting: omit))]))
            }
        }
        return .object(JSONObject([
            ("total", .int(update.total)), ("start", .int(update.start)), ("count", .int(update.count)),
            ("steps", .array(steps)),
        ]))
    }

    /// Rows as `{"id", "section", "header"?: true, "content"?, "selected"?: true, "highlights"?}`.
    static func encode(_ rows: [WindowRow], omitting omitted: (WindowRow) -> Bool = { _ in false }) -> JSON {
        .array(rows.map { row in
            var members: [(String, JSON)] = [("id", .string(row.id)), ("section", .string(row.section))]
            if row.kind == .header { members.append(("header", .bool(true))) }
            if let content = row.content, !omitted(row) { members.append(("content", .raw(content.bytes))) }
            if row.selected { members.append(("selected", .bool(true))) }
            if !row.highlights.isEmpty {
                members.append(("highlights", .array(row.highlights.map { .array([.int($0.lowerBound), .int($0.count)]) })))
            }
            if let outline = row.outline { members += OutlineCodec.members(outline) }
            return .object(JSONObject(members))
        })
    }

    /// `viewport: {start, count}` in a request; `.some(nil)` for `null` or a
    /// zero count (no viewport: whole-list diffs), nil when absent.
    static func viewport(_ params: Params, key: String = "viewport") throws(RPCError) -> Viewport?? {
        guard let value = params.object[key] else { return nil }
        if value.isNull { return .some(nil) }
        guard let object = try params.optionalObject(key) else { return .some(nil) }
        try object.checkMembers(["start", "count"], alsoAccepting: [])
        let start = try object.optionalCount("start") ?? 0
        let count = try Self.count(object, default: 0)
        return .some(count == 0 ? nil : Viewport(start: start, count: count))
    }

    /// A `count` of rows: a non-negative integer, at most `maxCount`.
    static func count(_ params: Params, default value: Int) throws(RPCError) -> Int {
        let count = try params.optionalCount("count") ?? value
        guard count <= maxCount else {
            throw .invalidParams("\(params.fieldPath("count")) must be at most \(maxCount) rows",
                                 data: Params.pathData(params.fieldPath("count")))
        }
        return count
    }

    /// The most rows a window (or a `rows` request) may hold.
    static let maxCount = 10_000

    private static func op(_ name: String, _ members: [(String, JSON)]) -> JSON {
        .object(JSONObject([("op", .string(name))] + members))
    }
}
