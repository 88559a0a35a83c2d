/// One row of a source: a unique identifier and optional content.
public struct Item: Equatable, Sendable {
    /// Unique within the whole source (not just its section).
    public var id: String {
        didSet { idHash = Self.hash(id) }
    }
    public var content: Content?
    /// Where the search text lives. Most texts are a run of the content's own
    /// bytes (a JSON string without escapes), so they are not stored twice.
    var textSource: TextSource

    enum TextSource: Sendable {
        case none
        /// UTF-8 bytes `start ..< end` of `content`.
        case inContent(start: UInt32, end: UInt32)
        case string(String)
    }

    /// The engine's hash of `id`, computed once when the id is set. A diff
    /// matches ids by this first: an id longer than 15 bytes (a UUID, a
    /// path) is stored out of line, and reading it is a cache miss per
    /// comparison. (It fits in what would be padding: `Item` stays 48 bytes.)
    private(set) var idHash: UInt32

    /// `idHash` of `id`: 32 bits of `IDHashTable.hash` (seeded per process).
    @inline(__always) static func hash(_ id: String) -> UInt32 {
        UInt32(truncatingIfNeeded: IDHashTable.hash(id))
    }

    /// The text search matches on, derived from the content by the protocol
    /// layer when the item arrives (`nil` means the item never matches a
    /// non-empty query).
    /// - Complexity: O(length of the text) when it is read from the content.
    public var text: String? {
        get {
            switch textSource {
            case .none: return nil
            case .string(let text): return text
            case .inContent(let start, let end):
                guard let bytes = content?.bytes, Int(end) <= bytes.count, start <= end else { return nil }
                return String(decoding: bytes[Int(start)..<Int(end)], as: UTF8.self)
            }
        }
        set { textSource = newValue.map(TextSource.string) ?? .none }
    }

    public init(id: String, content: Content? = nil, text: String? = nil) {
        self.id = id
        self.content = content
        self.textSource = text.map(TextSource.string) ?? .none
        idHash = Self.hash(id)
    }

    /// An item whose search text is the UTF-8 bytes `textRange` of its
    /// content (which must be valid UTF-8 there); saves a copy of the text.
    public init(id: String, content: Content, textRange: Range<Int>) {
        self.id = id
        self.content = content
        idHash = Self.hash(id)
        if textRange.lowerBound >= 0, textRange.upperBound <= content.bytes.count,
           let start = UInt32(exactly: textRange.lowerBound), let end = UInt32(exactly: textRange.upperBound) {
            textSource = .inContent(start: start, end: end)
        } else {
            textSource = .none
        }
    }

    /// Items are equal when id, content and search text are.
    public static func == (a: Item, b: Item) -> Bool {
        guard a.id == b.id, a.content == b.content else { return false }
        switch (a.textSource, b.textSource) {
        case (.none, .none): return true
        case (.inContent(let s1, let e1), .inContent(let s2, let e2)) where s1 == s2 && e1 == e2: return true
        default: return a.text == b.text
        }
    }
}

/// A section of a source: a unique identifier, an optional header and its items.
public struct Section: Equatable, Sendable {
    public var id: String
    public var header: Content?
    public var items: ItemList

    public init(id: String, header: Content? = nil, items: ItemList = []) {
        self.id = id
        self.header = header
        self.items = items
    }

    /// Wraps `items` without copying them (see `ItemList`).
    public init(id: String, header: Content? = nil, items: [Item]) {
        self.init(id: id, header: header, items: ItemList(items))
    }
}

/// A row position: section index and row index within the section.
public struct ItemPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: Int
    public var row: Int

    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    public static func < (lhs: ItemPath, rhs: ItemPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    public var description: String { "[\(section),\(row)]" }
}

/// A sectioned snapshot: the whole state of a list at one moment.
///
/// Section ids are unique; item ids are unique across the whole snapshot.
/// `validationIssues()` reports violations; the engine's other operations
/// assume a valid snapshot.
public struct Snapshot: Equatable, Sendable {
    public var sections: [Section]

    public init(sections: [Section] = []) {
        self.sections = sections
    }

    /// Total number of items.
    /// - Complexity: O(number of sections)
    public var itemCount: Int {
        sections.reduce(0) { $0 + $1.items.count }
    }

    /// The ids of each section's items, section by section.
    public var itemIDs: [[String]] {
        sections.map { $0.items.map(\.id) }
    }

    /// Splits every section longer than `ItemList.maxChunk` into chunks
    /// (see `ItemList.chunkify()`), so that edits copy and shift chunks,
    /// not whole sections.
    /// - Complexity: O(sections + n / ItemList.targetChunk)
    public mutating func chunkify() {
        for s in sections.indices where sections[s].items.count > ItemList.maxChunk {
            sections[s].items.chunkify()
        }
    }

    /// Bounds-checked access to an item.
    public func item(at path: ItemPath) -> Item? {
        guard sections.indices.contains(path.section) else { return nil }
        let items = sections[path.section].items
        guard items.indices.contains(path.row) else { return nil }
        return items[path.row]
    }
}
