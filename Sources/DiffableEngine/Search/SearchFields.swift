/// What a search matches in each item when it searches named fields (fzf's
/// `--nth`): the protocol layer says how to read the fields' texts from an
/// item's content (`extract`), the engine keeps them as one search text per
/// item, the fields joined by `separator`, and matches each query term
/// field by field (see `SearchQuery.fielded`).
///
/// The joined text is the engine's own representation: one text per item
/// keeps every structure of the index (flat buffers, splices, compacted
/// match sets) unchanged. The separator is U+000B (vertical tab): fzf's
/// whitespace, one scalar, so positions, the length tie-break (the text
/// without surrounding whitespace) and the `begin`, `end` and `chunk`
/// tie-breaks read the joined text exactly as fzf reads a line whose fields
/// are separated by a tab (`fzf --delimiter '\t' --nth 1,2,…`). A U+000B
/// inside a field's text (or a query of fields) is read as a space, so no
/// match can cross into another field and the scalar positions stay those
/// of the field's own text.
public struct SearchFields: Sendable, Equatable {
    /// The fields' names, in the order they are tried (what equality,
    /// caches and highlights go by).
    public let names: [String]
    /// The texts of the fields of a content, in `names` order (nil: the
    /// content has no such field, or it is not a string).
    let extract: @Sendable (Content) -> [String?]

    /// U+000B, what separates fields in the joined text.
    static let separator: UInt8 = 0x0B
    static let separatorScalar: Unicode.Scalar = "\u{0B}"

    public init(names: [String], extract: @escaping @Sendable (Content) -> [String?]) {
        self.names = names
        self.extract = extract
    }

    public static func == (a: SearchFields, b: SearchFields) -> Bool { a.names == b.names }

    /// The joined search text of `item`: nil when its content has none of
    /// the fields (or it has no content), so that it never matches a
    /// non-empty query.
    /// - Complexity: O(what `extract` reads + the fields' lengths)
    public func text(of item: Item) -> String? {
        guard let content = item.content else { return nil }
        return Self.join(extract(content), count: names.count)
    }

    /// The texts joined by `separator` (a missing one empty; a separator
    /// inside a text read as a space), padded to `count` fields; nil when
    /// every text is missing.
    /// - Complexity: O(total length)
    public static func join(_ texts: [String?], count: Int) -> String? {
        guard texts.contains(where: { $0 != nil }) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(texts.reduce(count) { $0 + ($1?.utf8.count ?? 0) })
        for k in 0..<max(count, texts.count) {
            if k > 0 { bytes.append(separator) }
            guard k < texts.count, let text = texts[k] else { continue }
            for b in text.utf8 { bytes.append(b == separator ? 0x20 : b) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `ranges` (ascending scalar ranges in the joined `text`, none holding
    /// a separator) as ranges of each field's own text, with the field's
    /// index, ascending.
    /// - Complexity: O(length of `text` + ranges)
    public static func split(_ ranges: [Range<Int>], in text: String) -> [(field: Int, range: Range<Int>)] {
        guard !ranges.isEmpty else { return [] }
        // Scalar offset where each field starts.
        var starts = [0]
        var position = 0
        for scalar in text.unicodeScalars {
            position += 1
            if scalar == separatorScalar { starts.append(position) }
        }
        var out: [(field: Int, range: Range<Int>)] = []
        out.reserveCapacity(ranges.count)
        var field = 0
        for range in ranges {
            while field + 1 < starts.count && starts[field + 1] <= range.lowerBound { field += 1 }
            let start = starts[field]
            out.append((field, range.lowerBound - start ..< range.upperBound - start))
        }
        return out
    }
}
