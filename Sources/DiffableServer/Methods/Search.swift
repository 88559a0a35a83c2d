import Dispatch
import DiffableEngine
import DiffableProtocol

extension Server {
    /// `search {source, query, sections?, mode?, order?, limit?, scheme?, tiebreak?, fields?,
    /// placeholder?, highlightLimit?, form?, baseVersion?, viewport?, progressive?}` → the diff
    /// of the visible snapshot, plus `search {query, matches, shown, partial?}` and `highlights`.
    /// Cancellable until the result is stored.
    func search(_ raw: JSON?) throws(RPCError) -> JSON {
        let request = try searchRequest(raw)
        var source = request.source
        let patchBase = patchBase(source, patchUpdates)
        if let viewport = request.viewport { source.prepareViewport(viewport) }
        try work.checkCancelled()
        if request.progressive, source.partialSearchApplies(to: request.settings) {
            return try progressiveSearch(request, source, patchBase: patchBase)
        }
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
    func searchResult(_ source: DataSource, _ update: DataSource.Update, _ request: SearchRequest,
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

    /// A `search` request, validated against the current state.
    struct SearchRequest {
        var source: DataSource
        var settings: SearchSettings
        var form: DiffForm
        var highlightLimit: Int
        var viewport: Viewport??
        /// Answer within the frame budget, partially if need be
        /// (`Search+Progressive.swift`).
        var progressive: Bool
    }

    /// Decodes and validates a `search` without running it: every error a
    /// `search` can answer is thrown here, so a queued search that passes
    /// will be applied (see `cancellation(for:…)`).
    func searchRequest(_ raw: JSON?) throws(RPCError) -> SearchRequest {
        let params = try Params(raw, accepting: ["source", "query", "sections", "mode", "order", "limit", "scheme", "tiebreak", "fields", "placeholder", "highlightLimit", "form", "baseVersion", "viewport", "progressive"])
        // Params first (-32602), then what depends on the source (1001, …).
        let name = try params.sourceName()
        let baseVersion = try params.optionalCount("baseVersion")
        let form = try form(params)
        let text = try params.string("query")
        let mode = SearchMode(rawValue: try params.optionalEnum("mode", ["substring", "fuzzy", "exact"]) ?? "substring") ?? .substring
        let defaultOrder = mode == .substring ? SearchOrder.source : .score
        let scheme = try params.optionalEnum("scheme", SearchScheme.allCases.map(\.rawValue))
            .flatMap(SearchScheme.init(rawValue:)) ?? .default
        let tiebreak = try Self.tiebreak(params)
        let fields = try Self.searchFields(params)
        let order = try params.optionalEnum("order", ["source", "score"]).flatMap(SearchOrder.init(rawValue:)) ?? defaultOrder
        let limit = try params.optionalCount("limit")
        let highlightLimit = try params.optionalCount("highlightLimit") ?? 100
        let viewport = try WindowCodec.viewport(params)
        let progressive = try params.optionalBool("progressive") ?? false
        var sectionIDs: [String]?
        if let sections = try params.optionalArray("sections") {
            var ids: [String] = []
            for (index, value) in sections.enumerated() {
                guard case .string(let id) = value else { throw params.wrongType("sections[\(index)]", "a string") }
                ids.append(id)
            }
            sectionIDs = ids
        }
        var placeholder: Item?
        if let value = params.object["placeholder"], !value.isNull {
            do throws(ProblemList) {
                placeholder = try SnapshotCodec.decodeItem(value, path: params.fieldPath("placeholder"))
            } catch {
                throw .invalidParams("params.placeholder must be an item {\"id\", \"content\"?}",
                                     data: .object(JSONObject([("problems", .array(error.problems))])))
            }
        }
        let source = try existingSource(name)
        try checkBaseVersion(baseVersion, of: source)
        var scope: [String]?
        if let ids = sectionIDs {
            let known = Set(source.snapshot.sections.map(\.id))
            let unknown = ids.filter { !known.contains($0) }
            guard unknown.isEmpty else {
                throw RPCError(code: ErrorCode.unknownID,
                               message: "No section \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")) in \"\(source.name)\"; nothing was changed.",
                               data: .object(JSONObject([("sections", .array(unknown.map { .string($0) }))])))
            }
            scope = ids
        }
        if let id = placeholder?.id, source.containsItem(id) {
            throw .invalidParams("params.placeholder.id \"\(id)\" is already an item of the source; pick an id no item uses",
                                 data: .object(JSONObject([("path", .string("params.placeholder.id")), ("ids", .array([.string(id)]))])))
        }
        let query = SearchQuery(text: text, mode: mode, order: order, limit: limit, scheme: scheme, tiebreak: tiebreak)
        let settings = SearchSettings(query: query, scope: scope, placeholder: placeholder, fields: fields?.searchFields)
        return SearchRequest(source: source, settings: settings, form: form, highlightLimit: highlightLimit,
                             viewport: viewport, progressive: progressive)
    }

    /// `tiebreak`: fzf's criteria, each one of `SearchTiebreak`'s names
    /// (a misspelt one gets a did-you-mean), under fzf's rules.
    static func tiebreak(_ params: Params) throws(RPCError) -> [SearchTiebreak]? {
        guard let list = try params.optionalArray("tiebreak") else { return nil }
        let names = SearchTiebreak.allCases.map(\.rawValue)
        var out: [SearchTiebreak] = []
        for (index, value) in list.enumerated() {
            let path = params.fieldPath("tiebreak[\(index)]")
            guard case .string(let name) = value else { throw params.wrongType("tiebreak[\(index)]", "a string") }
            guard let criterion = SearchTiebreak(rawValue: name) else {
                let guess = Params.closest(to: name, in: names)
                let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
                throw .invalidParams("\(path) must be one of \(list), got \"\(name)\""
                                     + (guess.map { " (did you mean \"\($0)\"?)" } ?? ""),
                                     data: .object(JSONObject([("path", .string(path))]
                                                              + (guess.map { [("suggestion", .string($0))] } ?? []))))
            }
            out.append(criterion)
        }
        if let problem = SearchTiebreak.problem(in: out) {
            throw .invalidParams("\(params.fieldPath("tiebreak")): \(problem)",
                                 data: .object(JSONObject([("path", .string(params.fieldPath("tiebreak")))])))
        }
        return out
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

    /// `fields`: a non-empty list of distinct member names or JSON pointers
    /// (at most `maxSearchFields`); nil when absent.
    static func searchFields(_ params: Params) throws(RPCError) -> SearchFieldReader? {
        guard let list = try params.optionalArray("fields") else { return nil }
        let path = params.fieldPath("fields")
        guard !list.isEmpty, list.count <= maxSearchFields else {
            throw .invalidParams("\(path) must list 1 to \(maxSearchFields) fields (leave it out to search each item's text)",
                                 data: Params.pathData(path))
        }
        var names: [String] = []
        for (index, value) in list.enumerated() {
            guard case .string(let name) = value else { throw params.wrongType("fields[\(index)]", "a string") }
            guard !names.contains(name) else {
                throw .invalidParams("\(path)[\(index)]: \"\(name)\" is listed twice", data: Params.pathData("\(path)[\(index)]"))
            }
            names.append(name)
        }
        switch SearchFieldReader.make(names) {
        case .success(let reader):
            return reader
        case .failure(let invalid):
            let at = "\(path)[\(invalid.index)]"
            throw .invalidParams("\(at): \"\(names[invalid.index])\" is not a JSON pointer (a \"~\" must be followed by 0 or 1)",
                                 data: Params.pathData(at))
        }
    }

    /// The most fields a `search` may list.
    static let maxSearchFields = 16
}
