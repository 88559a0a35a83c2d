import DiffableEngine

/// Wire forms of viewports and window updates (protocol/methods/viewport.md).
package enum WindowCodec {
    /// `{"total", "start", "count", "steps": [...]}`. Item rows `omitted`
    /// names carry no content (the request carried it), but the
    /// `placeholder`, the daemon's own row.
    ///
    /// `held`: the rows the frontend held before the change, given under
    /// `updates: "patch"`. The steps are replayed over them, so each
    /// `update` row patches from the content the frontend holds at that
    /// step (see `JSONPatch.diff`; the content when the patch is not
    /// shorter).
    /// - Complexity: O(steps + rows sent + the window, when replayed).
    package static func encode(_ update: WindowUpdate, omitting omitted: EchoedContent = .none, placeholder: String? = nil,
                       patchingFrom held: [WindowRow]? = nil) -> JSON {
        let omit: (WindowRow) -> Bool = { row in
            row.kind != .header && row.id != placeholder && omitted.omits(ItemID(row.id))
        }
        var steps: [JSON] = []
        steps.reserveCapacity(update.steps.count)
        let replaying = held != nil
        var replay = held ?? []
        for step in update.steps {
            switch step {
            case .delete(let at, let count):
                steps.append(op("delete", [("at", .int(at)), ("count", .int(count))]))
                if replaying, at >= 0, count >= 0, at + count <= replay.count { replay.removeSubrange(at..<at + count) }
            case .insert(let at, let rows):
                steps.append(op("insert", [("at", .int(at)), ("rows", encode(rows, omitting: omit))]))
                if replaying, at >= 0, at <= replay.count { replay.insert(contentsOf: rows, at: at) }
            case .move(let from, let to):
                steps.append(op("move", [("from", .int(from)), ("to", .int(to))]))
                if replaying, replay.indices.contains(from), replay.indices.contains(to) { replay.insert(replay.remove(at: from), at: to) }
            case .update(let at, let rows):
                var previous: [Content?]?
                if replaying {
                    previous = rows.indices.map { k in
                        guard replay.indices.contains(at + k), replay[at + k].kind == rows[k].kind, replay[at + k].id == rows[k].id
                        else { return nil }
                        return replay[at + k].content
                    }
                    for (k, row) in rows.enumerated() where replay.indices.contains(at + k) { replay[at + k] = row }
                }
                steps.append(op("update", [("at", .int(at)), ("rows", encode(rows, omitting: omit, previous: previous))]))
            }
        }
        return .object(JSONObject([
            ("total", .int(update.total)), ("start", .int(update.start)), ("count", .int(update.count)),
            ("steps", .array(steps)),
        ]))
    }

    /// Rows as `{"id", "section", "header"?: true, "content"? | "patch"?, "selected"?: true,
    /// "highlights"? | "fieldHighlights"?}` (the latter for a search of fields).
    /// `previous[k]`: the content the frontend holds for row k, which it
    /// then gets as a patch when that is no longer than the content.
    package static func encode(_ rows: [WindowRow], omitting omitted: (WindowRow) -> Bool = { _ in false },
                       previous: [Content?]? = nil) -> JSON {
        .array(rows.enumerated().map { k, row in
            var members: [(String, JSON)] = [("id", .string(row.id)), ("section", .string(row.section))]
            if row.kind == .header { members.append(("header", .bool(true))) }
            if let content = row.content, !omitted(row) {
                if let previous, previous.indices.contains(k), let old = previous[k],
                   let patch = JSONPatch.diff(from: old, to: content) {
                    members.append(("patch", .raw(patch)))
                } else {
                    members.append(("content", .raw(content.bytes)))
                }
            }
            if row.selected { members.append(("selected", .bool(true))) }
            if !row.highlights.isEmpty {
                if row.highlightFields.count == row.highlights.count {
                    members.append(("fieldHighlights", HighlightCodec.fieldRanges(zip(row.highlightFields, row.highlights).map { (field: $0.0, range: $0.1) })))
                } else {
                    members.append(("highlights", HighlightCodec.ranges(row.highlights)))
                }
            }
            if let outline = row.outline { members += OutlineCodec.members(outline) }
            return .object(JSONObject(members))
        })
    }

    /// `viewport: {start, count}` in a request; `.some(nil)` for `null` or a
    /// zero count (no viewport: whole-list diffs), nil when absent.
    package static func viewport(_ params: Params, key: String = "viewport") throws(RPCError) -> Viewport?? {
        guard let value = params.object[key] else { return nil }
        if value.isNull { return .some(nil) }
        guard let object = try params.optionalObject(key) else { return .some(nil) }
        try object.checkMembers(["start", "count"], alsoAccepting: [])
        let start = try object.optionalCount("start") ?? 0
        let count = try Self.count(object, default: 0)
        return .some(count == 0 ? nil : Viewport(start: start, count: count))
    }

    /// A `count` of rows: a non-negative integer, at most `maxCount`.
    package static func count(_ params: Params, default value: Int) throws(RPCError) -> Int {
        let count = try params.optionalCount("count") ?? value
        guard count <= maxCount else {
            throw .invalidParams("\(params.fieldPath("count")) must be at most \(maxCount) rows",
                                 data: Params.pathData(params.fieldPath("count")))
        }
        return count
    }

    /// The most rows a window (or a `rows` request) may hold.
    package static let maxCount = 10_000

    private static func op(_ name: String, _ members: [(String, JSON)]) -> JSON {
        .object(JSONObject([("op", .string(name))] + members))
    }
}
