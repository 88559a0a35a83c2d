import DiffableEngine

/// Decodes `apply` params straight from their bytes (`LazyParams`) into
/// engine values, without a JSON tree for the items. Every `apply` is read
/// here (`ApplyRequest`), so its answers are the contract's, pinned by
/// `protocol/transcripts/apply-decoding.transcript`.
///
/// - params members other than `sections`, and section members other than
///   `items`, are small: they are parsed into trees and checked by `Params`,
///   `SnapshotCodec.decodeSection` and `SelectionCodec`;
/// - items are decoded here: ids directly (escapes via the parser), content
///   kept as its own bytes when they are already canonical (no whitespace, no
///   escapes), else parsed and rewritten by `JSONWriter`; `text` taken in the
///   same pass (`SnapshotCodec.searchText`);
/// - items in the daemon's own shape (`{"id":…,"content":…}`) are read
///   without the member loop, and items the source already holds, byte for
///   byte, are reused without being read at all (`ApplyScanner+CanonicalItems`,
///   `ApplyScanner+Recycling`); large arrays are read in parts on several
///   threads (`ApplyScanner+Parts`);
/// - a top-level item those steps do not take (escaped or unknown members,
///   a wrong type, a tree deeper than `maxByteReaderLevel`) is parsed alone
///   and decoded by the codec (`OutlineCodec.node`), which names its
///   problems (`ApplyScanner+Refusals`); they are reported once the
///   request is read, as the codec of the whole snapshot reports them.
/// Duplicate members: the last one counts, as in `JSONObject`.
package enum ApplyScanner {
    package struct Decoded {
        /// The params object, `sections` standing in as an empty array when
        /// it is one (else as it came, for `Params` to name).
        package var params: Params
        package var sections: [Section]
        /// Each section object, `items` standing in as an empty array (for `SelectionCodec`).
        package var sectionObjects: [JSON]
        /// Per section, its nesting (nil: no item of the section nests).
        package var nesting: [Nesting?]
        /// Per section, what the codecs refused in it.
        package var problems: [SectionProblems]
        /// The bytes each content arena serves to these sections; record it
        /// when they become the source's (see `ByteArena.isSparse`).
        package var arenaUse: ArenaUse
        /// Bytes of the request given back while reading (see `ReleasedRuns`).
        package var releasedByteCount = 0
        package var isNested: Bool { nesting.contains { $0 != nil } }

        /// The error naming every problem the codecs found, as reported for
        /// the whole snapshot (see `ApplyScanner.error`); nil when none.
        package var error: RPCError? { ApplyScanner.error(problems, nested: isNested) }
    }

    /// Nested items of a section, flattened in preorder as they are read:
    /// the parent row of every row (-1 at the top) and the `expanded` flags
    /// items named. Made on the first `children` or `expanded` member.
    package struct Nesting {
        package var parentRow: [Int32]
        package var expanded: [Int: Bool] = [:]
    }

    package static let sectionsPath = "params.sections"

    /// Called every `checkpointItems` items with the fraction of the params
    /// read so far; returning false stops decoding (the answer is then nil).
    package typealias Checkpoint = (_ fractionRead: Double) -> Bool
    package static let checkpointItems = 4096

    /// `previous`: the sections held by the source named by a `source`
    /// member read before `sections` (usually the first member). An item
    /// that arrives with the id and content bytes of the item at its place
    /// in the held section of the same id (when the section's `id` comes
    /// before its `items`), else at the same index, is that item, reused
    /// (see `ItemRecycler`): the result is the same either way, only cheaper.
    ///
    /// Pages of items read may be given back as it goes (`lazy.release`).
    /// nil when `checkpoint` stopped it, or for bytes that are not valid
    /// JSON (which never reach here).
    /// - Complexity: O(bytes).
    package static func decode(_ lazy: LazyParams, previous: (_ source: String) -> [Section] = { _ in [] },
                       checkpoint: Checkpoint = { _ in true }) -> Decoded? {
        lazy.withReleasableBytes { bytes -> Decoded? in
            decode(lazy, bytes, previous: previous, checkpoint: checkpoint)
        }
    }

    private static func decode(
        _ lazy: LazyParams, _ bytes: UnsafeMutableBufferPointer<UInt8>, previous: (_ source: String) -> [Section],
        checkpoint: Checkpoint
    ) -> Decoded? {
        var s = ByteScanner(UnsafeBufferPointer(bytes), range: lazy.range)
        let start = lazy.range.lowerBound, length = Double(max(1, lazy.range.count))
        func fractionRead(_ s: ByteScanner) -> Bool { checkpoint(Double(s.pos - start) / length) }
        var members: [(String, JSON)] = []
        // The last `sections` member counts; each one is decoded where it
        // stands (no separate pass to find its end).
        var read: SectionsRead?
        var source: String?
        let readAll = ByteScanner.readNamedObject(&s) { s, key, name in
            if s.name(key, is: "sections") {
                read = nil
                if s.byte(s.pos) == UInt8(ascii: "[") {
                    members.append((name, .array([])))
                    s.pos += 1
                    read = decodeSections(&s, hints: lazy.splitHints, previous: source.map(previous) ?? [],
                                          releasing: ReleasedRuns(bytes, mode: lazy.release), checkpoint: fractionRead)
                    return read != nil
                }
            }
            guard let value = s.skipValue(), let tree = s.tree(value.range) else { return false }
            if s.name(key, is: "source") { source = tree.stringValue }
            members.append((name, tree))
            return true
        }
        guard readAll else { return nil }
        let sections = read ?? SectionsRead()
        return Decoded(params: Params(object: JSONObject(members), path: "params"),
                       sections: sections.sections, sectionObjects: sections.objects, nesting: sections.nesting,
                       problems: sections.problems, arenaUse: sections.arenaUse,
                       releasedByteCount: sections.released.reduce(0) { $0 + $1.releasedByteCount })
    }

    /// Real trees are shallow; the items of deeper ones are parsed alone.
    package static let maxByteReaderLevel = 64

    /// `items`, copied when more than an eighth of its buffer is unused.
    /// - Complexity: O(1), or O(count) when copied.
    package static func withoutSlack(_ items: [Item]) -> [Item] {
        items.capacity > items.count + items.count / 8 + 16 ? Array(items) : items
    }

    /// The items of an array whose `[` was consumed, appended to `items` in
    /// preorder (an item, then its children); `parent` is the row of their
    /// parent (-1 at the top).
    /// `stop`: the offset of an element that is not read (the next part's
    /// first); reading stops with the cursor on it.
    /// `level`: the level of these items. Trees deeper than
    /// `maxByteReaderLevel` are left to the codec (`decodeSectionItems`
    /// parses such an item alone), which reads any depth without
    /// recursion; this reader recurses once per level.
    /// False when an element is not one these steps take, or `checkpoint`
    /// stopped reading.
    package static func decodeItems(
        _ s: inout ByteScanner, arenas: inout ByteArena.Writer, into items: inout [Item],
        nesting: inout Nesting?, parent: Int32, level: Int = 0, stop: Int = Int.max, recycler: inout ItemRecycler,
        released: inout ReleasedRuns, checkpoint: (ByteScanner) -> Bool
    ) -> Bool {
        guard level <= maxByteReaderLevel else { return false }
        var isFirst = true
        while true {
            guard let more = s.nextElement(isFirst: isFirst) else { return false }
            if !more || s.pos >= stop { return true }
            isFirst = false
            if items.count % checkpointItems == checkpointItems - 1, !checkpoint(s) { return false }
            guard decodeElement(&s, arenas: &arenas, into: &items, nesting: &nesting, parent: parent, level: level,
                                recycler: &recycler, released: &released, checkpoint: checkpoint)
            else { return false }
        }
    }

    /// The element at the cursor (an item and its children), appended to
    /// `items`; false when it is not one these steps take.
    @inline(__always)
    static func decodeElement(
        _ s: inout ByteScanner, arenas: inout ByteArena.Writer, into items: inout [Item],
        nesting: inout Nesting?, parent: Int32, level: Int, recycler: inout ItemRecycler,
        released: inout ReleasedRuns, checkpoint: (ByteScanner) -> Bool
    ) -> Bool {
        // An element in the daemon's written form is read without the
        // member loop, and its bytes may be given back.
        let start = s.pos
        if let expected = recycler.next, consumeCanonical(&s, expected) != nil {
            recycler.advance()
            items.append(arenas.keep(expected))
            nesting?.parentRow.append(parent)
            released.note(start ..< s.pos, item: items.count - 1, of: items)
            return true
        }
        if let item = decodeCanonicalItem(&s, arenas: &arenas, recycler: &recycler) {
            items.append(arenas.keep(item))
            nesting?.parentRow.append(parent)
            released.note(start ..< s.pos, item: items.count - 1, of: items)
            return true
        }
        return decodeItem(&s, arenas: &arenas, into: &items, nesting: &nesting, parent: parent, level: level,
                          recycler: &recycler, released: &released, checkpoint: checkpoint)
    }

    /// One item (and its children), appended to `items`; false when the
    /// bytes are not an item these steps take (the item is then parsed
    /// alone, and the codec names any problem).
    package static func decodeItem(
        _ s: inout ByteScanner, arenas: inout ByteArena.Writer, into items: inout [Item],
        nesting: inout Nesting?, parent: Int32, level: Int, recycler: inout ItemRecycler,
        released: inout ReleasedRuns, checkpoint: (ByteScanner) -> Bool
    ) -> Bool {
        guard let first = s.byte(s.pos) else { return false }
        if first == UInt8(ascii: "\"") {
            guard let token = s.stringToken() else { return false }
            if !token.escaped, let old = recycler.take(id: s.bytes(of: token.inner), content: nil) {
                items.append(arenas.keep(old))
            } else {
                guard let item = decodeID(s, token, content: nil, &arenas) else { return false }
                items.append(arenas.keep(item))
            }
            nesting?.parentRow.append(parent)
            return true
        }
        guard first == UInt8(ascii: "{") else { return false }
        s.pos += 1
        // The item's row comes before its children's: hold it now, fill it last.
        let slot = items.count
        items.append(Item(id: ""))
        nesting?.parentRow.append(parent)
        var sawChildren = false, sawExpanded = false
        var idToken: ByteScanner.StringToken?
        var content: (range: Range<Int>, canonical: Bool)?
        var isFirst = true
        members: while true {
            switch s.nextMember(isFirst: isFirst) {
            case .fail: return false
            case .end: break members
            case .member(let key):
                isFirst = false
                if s.bytes(key, equal: "id") {
                    if s.byte(s.pos) == UInt8(ascii: "\"") {
                        guard let token = s.stringToken() else { return false }
                        idToken = token
                    } else {
                        idToken = nil
                        guard s.skipValue() != nil else { return false }
                    }
                } else if s.bytes(key, equal: "content") {
                    // Content nested too deep is named by the codec.
                    guard let value = s.skipValue(maxDepth: NestingLimits.content) else { return false }
                    content = value
                } else if s.bytes(key, equal: "children") {
                    // A repeated member (the last counts) is left to the codec.
                    guard !sawChildren else { return false }
                    sawChildren = true
                    if nesting == nil { nesting = Nesting(parentRow: [Int32](repeating: -1, count: items.count)) }
                    // Anything but an array (null too) is named by the codec.
                    guard s.byte(s.pos) == UInt8(ascii: "[") else { return false }
                    s.pos += 1
                    guard decodeItems(&s, arenas: &arenas, into: &items, nesting: &nesting, parent: Int32(slot), level: level + 1,
                                      recycler: &recycler, released: &released, checkpoint: checkpoint)
                    else { return false }
                } else if s.bytes(key, equal: "expanded") {
                    guard !sawExpanded else { return false }
                    sawExpanded = true
                    if nesting == nil { nesting = Nesting(parentRow: [Int32](repeating: -1, count: items.count)) }
                    guard let value = s.skipValue() else { return false }
                    switch s.byte(value.range.lowerBound) {
                    case UInt8(ascii: "t"): nesting?.expanded[slot] = true
                    case UInt8(ascii: "f"): nesting?.expanded[slot] = false
                    default: return false
                    }
                } else {
                    // An unknown member is named by the codec.
                    return false
                }
            }
        }
        guard let item = item(idToken: idToken, content: content, s, &arenas, &recycler) else { return false }
        items[slot] = arenas.keep(item)
        return true
    }

    /// The item of an object's `id` and `content` members.
    private static func item(idToken: ByteScanner.StringToken?, content: (range: Range<Int>, canonical: Bool)?,
                             _ s: ByteScanner, _ arenas: inout ByteArena.Writer,
                             _ recycler: inout ItemRecycler) -> Item? {
        guard let idToken else { return nil }
        // An unchanged item (plain id, canonical or no content) is the one
        // the source holds.
        if !idToken.escaped {
            let isNull = content.map { s.byte($0.range.lowerBound) == UInt8(ascii: "n") } ?? true
            if isNull || content?.canonical == true,
               let old = recycler.take(id: s.bytes(of: idToken.inner), content: isNull ? nil : content.map { s.bytes(of: $0.range) }) {
                return old
            }
        }
        guard let content, s.byte(content.range.lowerBound) != UInt8(ascii: "n") else {
            return decodeID(s, idToken, content: nil, &arenas)
        }
        guard content.canonical else {
            // Content nested too deep is named by the codec.
            guard let tree = s.tree(content.range), var id = s.string(idToken),
                  case .some(let decoded) = SnapshotCodec.content(orNilIfTooDeep: tree) else { return nil }
            let text = SnapshotCodec.searchText(of: tree)
            guard let rewritten = decoded else { return Item(id: id, content: nil, text: text) }
            // Written by the arena writer too (no allocation of its own),
            // its text read in place when the rewritten content holds it
            // verbatim, as it usually does.
            let textRange = text.flatMap { SnapshotCodec.ItemParts.range(of: $0, in: rewritten.bytes) }
            guard text == nil || textRange != nil else { return Item(id: id, content: rewritten, text: text) }
            return rewritten.bytes.withUnsafeBytes { content in
                id.withUTF8 { arenas.item(id: UnsafeRawBufferPointer($0), content: content, textRange: textRange) }
            }
        }
        let bytes = UnsafeBufferPointer(rebasing: s.input[content.range])
        let text: Range<Int>?
        switch s.byte(content.range.lowerBound) {
        case UInt8(ascii: "\""):
            // Canonical content has no escapes: the text is its own bytes.
            text = 1 ..< bytes.count - 1
        case UInt8(ascii: "{"):
            guard let found = objectTextRange(s, content.range) else { return nil }
            let base = content.range.lowerBound
            text = found.map { $0.lowerBound - base ..< $0.upperBound - base }
        default:
            text = nil
        }
        return decodeID(s, idToken, content: bytes, textRange: text, &arenas)
    }

    /// A new item with the id of `token` and, when given, `content` (its
    /// search text at `textRange`), written by `arenas`.
    package static func decodeID(_ s: ByteScanner, _ token: ByteScanner.StringToken,
                         content: UnsafeBufferPointer<UInt8>?, textRange: Range<Int>? = nil,
                         _ arenas: inout ByteArena.Writer) -> Item? {
        let raw = content.map { UnsafeRawBufferPointer($0) }
        guard token.escaped else {
            let id = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: s.input[token.inner]))
            return arenas.item(id: id, content: raw, textRange: textRange)
        }
        guard var id = s.string(token) else { return nil }
        return id.withUTF8 { arenas.item(id: UnsafeRawBufferPointer($0), content: raw, textRange: textRange) }
    }

    /// Where the string `text` member of a canonical object is (the bytes
    /// between its quotes; the last `text` member counts): `.some(nil)` when
    /// there is none or it is not a string; nil when the object is malformed.
    package static func objectTextRange(_ parent: ByteScanner, _ range: Range<Int>) -> Range<Int>?? {
        var s = ByteScanner(parent.input, range: range)
        guard s.consume(UInt8(ascii: "{")) else { return nil }
        var text: Range<Int>?
        var isFirst = true
        while true {
            switch s.nextMember(isFirst: isFirst) {
            case .fail: return nil
            case .end: return .some(text)
            case .member(let key):
                isFirst = false
                if s.bytes(key, equal: "text"), s.byte(s.pos) == UInt8(ascii: "\"") {
                    guard let token = s.stringToken(), !token.escaped else { return nil }
                    text = token.inner
                } else {
                    if s.bytes(key, equal: "text") { text = nil }
                    guard s.skipValue() != nil else { return nil }
                }
            }
        }
    }
}
