import DiffableEngine

/// Converts between the wire shape of a snapshot (`sections` of `apply`,
/// `snapshot`) and the engine's `Snapshot`.
///
/// Wire shape: `[{"id": String, "header"?: any, "items"?: [Item]}]` where an
/// item is `{"id": String, "content"?: any}` or, as a shorthand, the id string
/// itself. Content and headers are kept as their canonical compact JSON bytes.
package enum SnapshotCodec {
    /// At most this many problems are reported in one error's `data.problems`.
    package static let maxReportedProblems = 50

    /// The snapshot of well-formed sections, checked for duplicate ids:
    /// first by the quick proof of distinct id hashes (`IDHashes`), and only
    /// when that fails (a duplicate, or rarely a collision) by
    /// `validationIssues()`, which names every problem.
    /// - Complexity: O(n) expected in the number of items.
    /// `itemPath` spells where an item was in the request when that is not
    /// `path[section].items[row]` (nested items, flattened in preorder).
    package static func validated(_ sections: [Section], path: String,
                          itemPath: ((ItemPath) -> String)? = nil) throws(RPCError) -> Snapshot {
        let snapshot = Snapshot(sections: sections)
        if Set(sections.map(\.id)).count == sections.count, IDHashes(itemsOf: sections).provesDistinct() {
            return snapshot
        }
        let issues = snapshot.validationIssues()
        if !issues.isEmpty {
            let spell = itemPath ?? { "\(path)[\($0.section)].items[\($0.row)]" }
            throw invalid(issues.prefix(maxReportedProblems).map { problem(for: $0, path: path, itemPath: spell) })
        }
        return snapshot
    }

    package static func decodeSection(_ json: JSON, path: String) throws(ProblemList) -> Section {
        guard case .object(let object) = json else {
            throw ProblemList(path: path, message: "a section must be an object {\"id\", \"header\"?, \"items\"?}")
        }
        guard case .string(let id)? = object["id"] else {
            throw ProblemList(path: "\(path).id", message: "a section needs a string id")
        }
        try checkMembers(object, Self.sectionMembers, of: "a section", path: path)
        var header: Content?
        if let value = object["header"] { header = try content(of: value, path: "\(path).header") }
        var items: [Item] = []
        var problems: [JSON] = []
        if let itemsJSON = object["items"] {
            guard case .array(let array) = itemsJSON else { throw itemsProblem(itemsJSON, path: path) }
            items.reserveCapacity(array.count)
            for (r, itemJSON) in array.enumerated() {
                do throws(ProblemList) {
                    items.append(try decodeItem(itemJSON, path: "\(path).items[\(r)]"))
                } catch {
                    problems.append(contentsOf: error.problems)
                    if problems.count >= maxReportedProblems { break }
                }
            }
        }
        if !problems.isEmpty { throw ProblemList(problems) }
        return Section(id: id, header: header, items: items)
    }

    /// `items` of a section that is not an array: `null` is not "none"
    /// (only members the spec gives a meaning take `null`).
    package static func itemsProblem(_ value: JSON, path: String) -> ProblemList {
        ProblemList(path: "\(path).items", message: value.isNull
            ? "items must not be null: leave it out for a section without items"
            : "items must be an array")
    }

    /// `path` is spelled only when the item is refused.
    package static func decodeItem(_ json: JSON, path: @autoclosure () -> String) throws(ProblemList) -> Item {
        let parts = try decodeItemParts(json, path: path())
        return Item(id: parts.id, content: parts.content.map { Content(bytes: $0) }, text: parts.text)
    }

    /// An item's parts, decoded and checked as `decodeItem` does: its id,
    /// its content's canonical bytes and its search text.
    package struct ItemParts {
        package let id: String
        package let content: [UInt8]?
        package let text: String?

        /// Bytes of the id and content.
        package var byteCount: Int { id.utf8.count + (content?.count ?? 0) }

        /// The item, written into `builder`'s arena; its search text, when
        /// it is written verbatim in the content (a plain string, or the
        /// `text` member of an object), is read there rather than copied.
        /// - Complexity: O(bytes of the id and content).
        package func item(in builder: inout ByteArena.Builder) -> Item {
            guard let content else { return Item(id: id) }
            let range = text.flatMap { Self.range(of: $0, in: content) }
            if text != nil && range == nil { return Item(id: id, content: Content(bytes: content), text: text) }
            var id = id
            return id.withUTF8 { idBytes in
                content.withUnsafeBytes { builder.item(id: UnsafeRawBufferPointer(idBytes), content: $0, textRange: range) }
            }
        }

        /// Where `text` is written verbatim as a string in `content`
        /// (canonical JSON): the whole of a string content, or the value
        /// of a `"text"` member. Checked byte for byte, so any place that
        /// holds the same bytes will do.
        /// - Complexity: O(content), on bytes (a million items' texts are
        ///   placed this way on `apply`).
        package static func range(of text: String, in content: [UInt8]) -> Range<Int>? {
            var text = text
            return text.withUTF8 { utf8 in
                content.withUnsafeBufferPointer { bytes in Self.range(of: utf8, in: bytes) }
            }
        }

        private static func range(of text: UnsafeBufferPointer<UInt8>, in content: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
            let quote = UInt8(ascii: "\"")
            var start: Int?
            if content.first == quote {
                start = 1
            } else {
                let key: StaticString = "\"text\":\""
                var at = 0
                while let found = ByteRuns.firstIndex(of: quote, in: content, from: at, end: content.count) {
                    if ByteRuns.hasLiteral(key, in: content, at: found, end: content.count) {
                        start = found + key.utf8CodeUnitCount
                        break
                    }
                    at = found + 1
                }
            }
            guard let start, start + text.count < content.count, content[start + text.count] == quote,
                  ByteRuns.hasBytes(text, in: content, at: start) else { return nil }
            return start..<start + text.count
        }
    }

    /// `decodeItem`'s checks, keeping the parts apart (see `ItemParts`).
    package static func decodeItemParts(_ json: JSON, path: @autoclosure () -> String) throws(ProblemList) -> ItemParts {
        switch json {
        case .string(let id):
            return ItemParts(id: id, content: nil, text: nil)
        case .object(let object):
            guard case .string(let id)? = object["id"] else {
                throw ProblemList(path: "\(path()).id", message: "an item needs a string id")
            }
            try checkMembers(object, Self.itemMembers, of: "an item", path: path())
            guard let value = object["content"] else { return ItemParts(id: id, content: nil, text: nil) }
            return ItemParts(id: id, content: try contentBytes(of: value, path: "\(path()).content"), text: searchText(of: value))
        default:
            throw ProblemList(path: path(), message: "an item must be an object {\"id\", \"content\"?} or an id string")
        }
    }

    /// The members of section and item objects (`content` and `header`
    /// themselves are free-form).
    package static let sectionMembers = ["id", "header", "items", "selection", "allowsEmptySelection"]
    package static let itemMembers = ["id", "content", "children", "expanded"]

    /// A typo in a member name (`"contnet"`, `"childrn"`, `"selction"`)
    /// would silently drop what it names: it is refused, with the member
    /// it most likely meant.
    package static func checkMembers(_ object: JSONObject, _ allowed: [String], of what: String,
                             path: @autoclosure () -> String) throws(ProblemList) {
        guard object.members.contains(where: { !allowed.contains($0.key) }) else { return }
        let path = path()
        var problems: [JSON] = []
        for key in object.keys where !allowed.contains(key) {
            let guess = Params.closest(to: key, in: allowed).map { " (did you mean \"\($0)\"?)" } ?? ""
            let message = "unknown member \"\(key)\"\(guess); \(what) takes \(allowed.joined(separator: ", "))"
            problems.append(.object(JSONObject([("path", .string("\(path).\(key)")), ("message", .string(message))])))
        }
        if !problems.isEmpty { throw ProblemList(problems) }
    }

    /// Canonical bytes of a JSON value; `null` and absent both mean "no
    /// content". Content nested deeper than `NestingLimits.content` is
    /// refused: an item's content may end up at the bottom of the deepest
    /// tree, and the reply that carries it there must stay readable.
    package static func content(of value: JSON, path: @autoclosure () -> String) throws(ProblemList) -> Content? {
        try contentBytes(of: value, path: path()).map { Content(bytes: $0) }
    }

    /// `content(of:path:)`'s canonical bytes, not yet made a `Content`.
    package static func contentBytes(of value: JSON, path: @autoclosure () -> String) throws(ProblemList) -> [UInt8]? {
        if value.isNull { return nil }
        guard let bytes = JSONWriter.bytes(value, maxDepth: NestingLimits.content) else {
            throw ProblemList(path: path(), message: "content nests deeper than \(NestingLimits.content) levels of arrays and objects")
        }
        return bytes
    }

    /// `content(of:path:)` for callers that report the problem themselves.
    package static func content(orNilIfTooDeep value: JSON) -> Content?? {
        if value.isNull { return .some(nil) }
        guard let bytes = JSONWriter.bytes(value, maxDepth: NestingLimits.content) else { return nil }
        return Content(bytes: bytes)
    }

    /// `content(of:path:)` as an invalid-params error.
    package static func content(of value: JSON?, path: @autoclosure () -> String) throws(RPCError) -> Content? {
        guard let value else { return nil }
        do throws(ProblemList) {
            return try content(of: value, path: path())
        } catch {
            throw invalid(error.problems)
        }
    }

    /// The text search matches on: a string content itself, or the `text`
    /// member of an object content (see protocol/README.md, "What search matches").
    package static func searchText(of value: JSON) -> String? {
        switch value {
        case .string(let s): return s
        case .object(let o):
            if case .string(let s)? = o["text"] { return s }
            return nil
        default: return nil
        }
    }

    package static func invalid(_ problems: [JSON]) -> RPCError {
        let first: String
        if case .object(let o)? = problems.first, case .string(let message)? = o["message"], case .string(let p)? = o["path"] {
            first = "\(p): \(message)"
        } else {
            first = "invalid snapshot"
        }
        let suffix = problems.count > 1 ? " (and \(problems.count - 1) more problem\(problems.count == 2 ? "" : "s"), see data.problems)" : ""
        return .invalidParams("Invalid snapshot: \(first)\(suffix). Nothing was changed.",
                              data: .object(JSONObject([("problems", .array(problems))])))
    }

    private static func problem(for issue: SnapshotIssue, path: String, itemPath: (ItemPath) -> String) -> JSON {
        switch issue {
        case .duplicateSectionID(let id, let sections):
            return .object(JSONObject([
                ("path", .string("\(path)[\(sections.last ?? 0)].id")),
                ("message", .string("section id \"\(id)\" is used by \(sections.count) sections; section ids must be unique")),
                ("id", .string(id)),
                ("paths", .array(sections.map { .string("\(path)[\($0)].id") })),
            ]))
        case .duplicateItemID(let id, let paths):
            return .object(JSONObject([
                ("path", .string(itemPath(paths.last ?? ItemPath(section: 0, row: 0)) + ".id")),
                ("message", .string("item id \"\(id)\" is used \(paths.count) times; item ids must be unique in the whole source")),
                ("id", .string(id)),
                ("paths", .array(paths.map { .string(itemPath($0) + ".id") })),
            ]))
        }
    }
}

/// Problems found while decoding, each `{"path", "message"}`.
package struct ProblemList: Error {
    package var problems: [JSON]

    package init(_ problems: [JSON]) { self.problems = problems }

    package init(path: String, message: String) {
        problems = [.object(JSONObject([("path", .string(path)), ("message", .string(message))]))]
    }
}

/// Which items' content a request carried itself: with `echo: "ids"`
/// exactly those rows are sent without their content (the client holds it);
/// every other row (revealed by an expand or a search, moved into view,
/// redrawn by `reloadItems`) carries its content.
package enum EchoedContent {
    /// `echo: "full"`: every row carries its content.
    case none
    /// An `apply` with `echo: "ids"`: every item of the source came in it.
    case everyItem
    /// An `edit` with `echo: "ids"`: the items its ops carried.
    case items(Set<ItemID>)

    package func omits(_ id: ItemID) -> Bool {
        switch self {
        case .none: false
        case .everyItem: true
        case .items(let ids): ids.contains(id)
        }
    }

    package var omitsAny: Bool {
        if case .none = self { return false }
        return true
    }
}

/// How items are written in diffs: which carry their content (see
/// `EchoedContent`), and their place in the outline, if any.
package struct ItemEncoding {
    package var omitted = EchoedContent.none
    /// Carries its content even when `omitted` names it: the search placeholder
    /// is the daemon's row, never one the client sent.
    package var exception: String?
    /// Rows of a source with an outline carry `level`, `parent`,
    /// `hasChildren` and `expanded`.
    package var outline: Outline?
    /// `updates: "patch"`: the content the frontend holds of each row
    /// reloaded, reconfigured or moved with new content; such a row carries
    /// `patch` (from that content to its own) in place of `content` when
    /// the patch is no longer.
    package var previous: [ItemID: Content] = [:]

    package init(omitted: EchoedContent = .none, exception: String? = nil, outline: Outline? = nil,
                 previous: [ItemID: Content] = [:]) {
        self.omitted = omitted
        self.exception = exception
        self.outline = outline
        self.previous = previous
    }

    package static let full = ItemEncoding()

    /// The same without `previous`: every row carries its content.
    package var withoutPrevious: ItemEncoding {
        var encoding = self
        encoding.previous = [:]
        return encoding
    }

    package func includes(_ item: Item) -> Bool { !omitted.omits(item.itemID) || isException(item) }

    package func isException(_ item: Item) -> Bool { exception.map(item.hasID) ?? false }
}

extension SnapshotCodec {
    /// Wire form of an item: `{"id", "content"?}`.
    package static func encode(_ item: Item, echo: ItemEncoding = .full) -> JSON {
        var writer = JSONWriter()
        write(item, echo: echo, into: &writer)
        return .raw(writer.bytes)
    }

    /// Wire form of a section with all its items, and its selection policy
    /// when it has one (as `apply` accepts it).
    package static func encode(_ section: Section, policy: SectionSelectionPolicy? = nil) -> JSON {
        var writer = JSONWriter()
        write(section, policy: policy, into: &writer)
        return .raw(writer.bytes)
    }

    /// The sections of a snapshot, streamed into one pre-serialized array.
    /// - Complexity: O(size of the output); no JSON tree is built.
    package static func encode(_ snapshot: Snapshot, policies: [String: SectionSelectionPolicy] = [:]) -> JSON {
        encode(sections: snapshot.sections[...], policies: policies)
    }

    /// A run of sections as one pre-serialized array.
    package static func encode(sections: ArraySlice<Section>, policies: [String: SectionSelectionPolicy] = [:],
                       echo: ItemEncoding = .full) -> JSON {
        var writer = JSONWriter(reservingCapacity: sections.reduce(64) { $0 + 64 + encodedSize($1.items, echo: echo) })
        writer.beginArray()
        for section in sections { write(section, policy: policies[section.id], echo: echo, into: &writer) }
        writer.endArray()
        return .raw(writer.bytes)
    }

    /// About what `write` makes of `items` (their ids and contents and the
    /// punctuation, a sixteenth more for escapes): reserved up front, a
    /// 100 MB echo does not grow by doubling (a copy, and up to twice the
    /// memory, at the step that crosses it).
    /// - Complexity: O(items), reading each item's lengths only.
    package static func encodedSize<S: Sequence<Item>>(_ items: S, echo: ItemEncoding) -> Int {
        var total = 2
        for item in items { total += item.idByteCount + 10 + (echo.omitted.omitsAny ? 0 : item.contentByteCount + 11) }
        return total + total / 16
    }

    /// Items as one pre-serialized array.
    package static func encode<S: Sequence<Item>>(items: S, echo: ItemEncoding = .full) -> JSON {
        var writer = JSONWriter(reservingCapacity: encodedSize(items, echo: echo))
        writer.beginArray()
        for item in items { write(item, echo: echo, into: &writer) }
        writer.endArray()
        return .raw(writer.bytes)
    }

    package static func write(_ item: Item, echo: ItemEncoding = .full, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(raw: "id")
        item.withIDBytes { writer.appendString(utf8: $0.bindMemory(to: UInt8.self)) }
        if echo.includes(item), let content = item.content {
            if let old = echo.previous.isEmpty ? nil : echo.previous[item.itemID],
               let patch = JSONPatch.diff(from: old, to: content) {
                writer.key(raw: "patch")
                writer.appendRaw(patch)
            } else {
                writer.key(raw: "content")
                writer.appendRaw(content)
            }
        }
        if let outline = echo.outline, !echo.isException(item) {
            OutlineCodec.write(outline.row(of: item.itemID), into: &writer)
        }
        writer.endObject()
    }

    package static func write(_ section: Section, policy: SectionSelectionPolicy?, echo: ItemEncoding = .full,
                      into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(raw: "id")
        writer.appendString(section.id)
        if let header = section.header {
            writer.key(raw: "header")
            writer.appendRaw(header)
        }
        if let policy, policy != .disabled {
            writer.key(raw: "selection")
            writer.appendString(policy.mode.rawValue)
            if !policy.allowsEmpty {
                writer.key(raw: "allowsEmptySelection")
                writer.appendBool(false)
            }
        }
        writer.key(raw: "items")
        writer.beginArray()
        for item in section.items { write(item, echo: echo, into: &writer) }
        writer.endArray()
        writer.endObject()
    }

    /// Content bytes are canonical JSON written by `JSONWriter`; they are
    /// spliced back verbatim.
    package static func raw(_ content: Content) -> JSON {
        .raw(content.bytes)
    }
}

extension JSONWriter {
    /// Appends stored content (canonical JSON) verbatim, without a copy of
    /// it on the way.
    /// - Complexity: O(bytes of the content).
    package mutating func appendRaw(_ content: Content) {
        content.withUnsafeBytes { appendRaw($0) }
    }
}
