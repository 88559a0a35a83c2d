import Dispatch
import DiffableEngine
import DiffableProtocol

extension Server {
    /// `search {source, query, sections?, mode?, order?, limit?, scheme?, tiebreak?, fields?,
    /// placeholder?, highlightLimit?, form?, baseVersion?, viewport?, progressive?}` → the diff
    /// of the visible snapshot, plus `search {query, matches, shown, partial?}` and `highlights`.
    /// Cancellable until the result is stored.
    func search(_ decoded: SearchRequest) throws(RPCError) -> JSON {
        let request = try searchPlan(decoded)
        // The state this search replaces: a keystroke after an edit drops
        // the earlier list's index, freed after the answer (a small source
        // is freed here, at no cost to wake the reaper).
        defer { if request.source.snapshot.itemCount >= 4096 { retired.append(.source(request.source)) } }
        var source = request.source
        let patchBase = patchBase(source, patchUpdates)
        if let viewport = request.viewport { source.prepareViewport(viewport) }
        try work.checkCancelled()
        if request.progressive, source.partialSearchApplies(to: request.settings) {
            return try progressiveSearch(request, source, patchBase: patchBase)
        }
        // A field declared for progressive keys: its sample is prepared
        // while nothing is typed.
        if request.progressive { source.expectProgressiveAnswers() }
        let started = DispatchTime.now().uptimeNanoseconds
        let update = source.setSearch(request.settings)
        logger.log(.debug, "search \(source.name) \"\(request.settings.query.text)\": \(source.searchMatchCount ?? 0) matches in "
                   + Self.milliseconds(since: started))
        // `source` is a copy until stored: a cancel up to here changes nothing.
        try work.checkCancelled()
        sources[source.name] = source
        return searchResult(source, update, request, patchBase: patchBase)
    }

    /// A `search` answer (or a `searchRefined` notification's params): the
    /// diff, `search {query, matches, shown, partial?}` and, without a
    /// window, `highlights`.
    func searchResult(_ source: DataSource, _ update: DataSource.Update, _ request: SearchPlan,
                      patchBase: [WindowRow]?) -> JSON {
        let partial: [(String, JSON)] = source.searchIsPartial ? [("partial", .bool(true))] : []
        return diffResult(source, update, form: request.form, patchBase: patchBase, viewportRemoved: request.viewport == .some(nil), extra: [
            ("search", .object(JSONObject([
                ("query", .string(request.settings.query.text)),
                // An empty query matches every item of the scoped sections.
                ("matches", .int(source.searchMatchCount ?? source.itemCount(inScope: request.settings.scope, visible: false))),
                ("shown", .int(source.searchShownCount ?? source.itemCount(inScope: request.settings.scope, visible: true))),
            ] + partial))),
        ] + (update.window == nil ? [  // window rows carry their own highlights
            ("highlights", highlightRows(source, limitPerSection: max(0, request.highlightLimit))),
        ] : []))
    }

    /// Checks a decoded `search` against the current state without running
    /// it: with the decoding, every error a `search` can answer is thrown
    /// by now, so a queued search that passes will be applied (see
    /// `cancellation(for:…)`).
    func searchPlan(_ request: SearchRequest) throws(RPCError) -> SearchPlan {
        let source = try existingSource(request.source)
        try checkBaseVersion(request.baseVersion, of: source)
        var scope: [String]?
        if let ids = request.sections {
            let known = Set(source.snapshot.sections.map(\.id))
            let unknown = ids.filter { !known.contains($0) }
            guard unknown.isEmpty else {
                throw RPCError(code: ErrorCode.unknownID,
                               message: "No section \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")) in \"\(source.name)\"; nothing was changed.",
                               data: .object(JSONObject([("sections", .array(unknown.map { .string($0) }))])))
            }
            scope = ids
        }
        if let id = request.placeholder?.id, source.containsItem(id) {
            throw .invalidParams("params.placeholder.id \"\(id)\" is already an item of the source; pick an id no item uses",
                                 data: .object(JSONObject([("path", .string("params.placeholder.id")), ("ids", .array([.string(id)]))])))
        }
        let settings = SearchSettings(query: request.query, scope: scope, placeholder: request.placeholder,
                                      fields: request.fields?.searchFields)
        return SearchPlan(source: source, settings: settings, form: request.form ?? defaultForm,
                          highlightLimit: request.highlightLimit, viewport: request.viewport, progressive: request.progressive)
    }

    /// `[{id, path, ranges: [[start, count]…]}]` for the first
    /// `limitPerSection` rows of every visible section that have highlights;
    /// with `fields`, `[{id, path, fields: [{field, ranges}…]}]`.
    func highlightRows(_ source: DataSource, limitPerSection: Int, rows: Range<Int>? = nil, section only: Int? = nil) -> JSON {
        guard source.searchSettings?.isActive == true else { return .array([]) }
        let names = source.searchSettings?.fields?.names
        var result: [JSON] = []
        for (s, section) in source.visible.sections.enumerated() where only == nil || only == s {
            let range = rows ?? 0..<min(section.items.count, limitPerSection)
            for r in range where section.items.indices.contains(r) {
                let path = ItemPath(section: s, row: r)
                var members: [(String, JSON)] = [("id", .string(section.items[r].id)), ("path", .array([.int(s), .int(r)]))]
                if let names {
                    let marks = source.fieldHighlights(at: path)
                    guard !marks.isEmpty else { continue }
                    members.append(("fields", HighlightCodec.fieldRanges(marks.map {
                        (names.indices.contains($0.field) ? names[$0.field] : "", $0.range)
                    })))
                } else {
                    let ranges = source.highlights(at: path)
                    guard !ranges.isEmpty else { continue }
                    members.append(("ranges", HighlightCodec.ranges(ranges)))
                }
                result.append(.object(JSONObject(members)))
            }
        }
        return .array(result)
    }
}
