import DiffableEngine

/// `search {source, query, sections?, mode?, order?, limit?, scheme?,
/// tiebreak?, fields?, placeholder?, highlightLimit?, form?, baseVersion?,
/// viewport?, progressive?}` → the diff of the visible snapshot, plus
/// `search {query, matches, shown, partial?}` and `highlights`.
/// See protocol/methods/search.md.
package struct SearchRequest: RequestType {
    package static let method = "search"
    package var source: String
    package var query: SearchQuery
    /// The sections searched, by id; nil: every section.
    package var sections: [String]?
    package var fields: SearchFieldReader?
    package var placeholder: Item?
    package var highlightLimit: Int
    package var form: DiffForm?
    package var baseVersion: Int?
    /// nil: unchanged; `.some(nil)`: the window ends.
    package var viewport: Viewport??
    /// Answer within the frame budget, partially if need be.
    package var progressive: Bool

    /// The most fields a `search` may list.
    package static let maxFields = 16

    package init(params: JSON?, context: any DecodingContext) throws(RPCError) {
        let params = try Params(params, accepting: ["source", "query", "sections", "mode", "order", "limit", "scheme", "tiebreak", "fields", "placeholder", "highlightLimit", "form", "baseVersion", "viewport", "progressive"])
        source = try params.sourceName()
        baseVersion = try params.optionalCount("baseVersion")
        form = try params.optionalForm()
        let text = try params.string("query")
        let mode = SearchMode(rawValue: try params.optionalEnum("mode", ["substring", "fuzzy", "exact"]) ?? "substring") ?? .substring
        let defaultOrder = mode == .substring ? SearchOrder.source : .score
        let scheme = try params.optionalEnum("scheme", SearchScheme.allCases.map(\.rawValue))
            .flatMap(SearchScheme.init(rawValue:)) ?? .default
        let tiebreak = try Self.tiebreak(params)
        fields = try Self.fields(params)
        let order = try params.optionalEnum("order", ["source", "score"]).flatMap(SearchOrder.init(rawValue:)) ?? defaultOrder
        let limit = try params.optionalCount("limit")
        highlightLimit = try params.optionalCount("highlightLimit") ?? 100
        viewport = try WindowCodec.viewport(params)
        progressive = try params.optionalBool("progressive") ?? false
        sections = try params.strings("sections", required: false)
        if let value = params.object["placeholder"], !value.isNull {
            do throws(ProblemList) {
                placeholder = try SnapshotCodec.decodeItem(value, path: params.fieldPath("placeholder"))
            } catch {
                throw .invalidParams("params.placeholder must be an item {\"id\", \"content\"?}",
                                     data: .object(JSONObject([("problems", .array(error.problems))])))
            }
        }
        query = SearchQuery(text: text, mode: mode, order: order, limit: limit, scheme: scheme, tiebreak: tiebreak)
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

    /// `fields`: a non-empty list of distinct member names or JSON pointers
    /// (at most `maxFields`); nil when absent.
    static func fields(_ params: Params) throws(RPCError) -> SearchFieldReader? {
        guard let list = try params.optionalArray("fields") else { return nil }
        let path = params.fieldPath("fields")
        guard !list.isEmpty, list.count <= maxFields else {
            throw .invalidParams("\(path) must list 1 to \(maxFields) fields (leave it out to search each item's text)",
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
}
