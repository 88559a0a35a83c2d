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
    /// Reads a content's fields: calls `found(k, utf8)` for each field `k`
    /// the content has (a string there), in ascending `k`, each at most
    /// once, with its text's UTF-8 (valid during the call). A field it does
    /// not report is missing.
    public typealias Reader = @Sendable (Content, _ found: (Int, UnsafeBufferPointer<UInt8>) -> Void) -> Void
    let read: Reader

    /// U+000B, what separates fields in the joined text.
    static let separator: UInt8 = 0x0B
    static let separatorScalar: Unicode.Scalar = "\u{0B}"

    public init(names: [String], read: @escaping Reader) {
        self.names = names
        self.read = read
    }

    /// Fields given as a function from content to each field's text
    /// (nil: missing), in `names` order.
    public init(names: [String], extract: @escaping @Sendable (Content) -> [String?]) {
        self.init(names: names) { content, found in
            for (k, text) in extract(content).enumerated() {
                guard var text else { continue }
                text.withUTF8 { found(k, $0) }
            }
        }
    }

    public static func == (a: SearchFields, b: SearchFields) -> Bool { a.names == b.names }

    /// The joined search text of `item`: nil when its content has none of
    /// the fields (or it has no content), so that it never matches a
    /// non-empty query.
    /// - Complexity: O(what `read` reads + the fields' lengths)
    public func text(of item: Item) -> String? {
        var scratch: [UInt8] = []
        return text(of: item, scratch: &scratch)
    }

    /// `text(of:)` built in `scratch` (kept between calls): one allocation,
    /// the text's, per item.
    func text(of item: Item, scratch: inout [UInt8]) -> String? {
        guard let content = item.content else { return nil }
        scratch.removeAll(keepingCapacity: true)
        var next = 0
        let count = names.count
        let separator = Self.separator
        read(content) { k, utf8 in
            guard k >= next, k < count else { return }
            while next < k { if next > 0 { scratch.append(separator) }; next += 1 }
            if k > 0 { scratch.append(separator) }
            next = k + 1
            for b in utf8 { scratch.append(b == separator ? 0x20 : b) }
        }
        guard next > 0 else { return nil }
        while next < count { scratch.append(separator); next += 1 }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// The joined texts of `items`, in order, read on two threads when
    /// there are many.
    /// - Complexity: O(what `read` reads + the texts' lengths)
    func texts(of items: [Item]) -> [String?] {
        let parts = items.count >= 16_384 ? 2 : 1
        let pieces = Parallel.map(parts, placeholder: [String?]()) { part in
            var scratch: [UInt8] = []
            let range = items.count * part / parts ..< items.count * (part + 1) / parts
            return items[range].map { text(of: $0, scratch: &scratch) }
        }
        return pieces.count == 1 ? pieces[0] : pieces.flatMap { $0 }
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
