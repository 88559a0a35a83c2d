/// One row of a source: a unique identifier and optional content.
public struct Item: Equatable, Sendable {
    /// Unique within the whole source (not just its section).
    public var id: String {
        didSet { idHash = Self.hash(id) }
    }

    /// Where the content and the search text are: `contentCount` bytes at
    /// `contentStart` of `storage` (`noContent`: none), and the text at
    /// `textStart ..< textEnd` from `contentStart` (`noText`: none). Most
    /// texts are a run of the content's own bytes (a JSON string without
    /// escapes), so they are not stored twice; another text is stored
    /// after the content. Kept as plain fields rather than a `Content?`
    /// and an enum so that `Item` stays 48 bytes.
    @usableFromInline var storage: ByteArena?
    @usableFromInline var contentStart: UInt32
    @usableFromInline var contentCount: UInt32
    @usableFromInline var textStart: UInt32
    @usableFromInline var textEnd: UInt32

    @usableFromInline static let noContent = UInt32.max
    @usableFromInline static let noText = UInt32.max

    /// The engine's hash of `id`, computed once when the id is set. A diff
    /// matches ids by this first: an id longer than 15 bytes (a UUID, a
    /// path) is stored out of line, and reading it is a cache miss per
    /// comparison.
    private(set) var idHash: UInt32

    /// `idHash` of `id`: 32 bits of `IDHashTable.hash` (seeded per process).
    @inline(__always) static func hash(_ id: String) -> UInt32 {
        UInt32(truncatingIfNeeded: IDHashTable.hash(id))
    }

    public var content: Content? {
        get {
            guard let storage, contentCount != Self.noContent else { return nil }
            return Content(arena: storage, start: contentStart, count: contentCount)
        }
        set { store(content: newValue, text: textOutsideContent) }
    }

    /// The text search matches on, derived from the content by the protocol
    /// layer when the item arrives (`nil` means the item never matches a
    /// non-empty query).
    /// - Complexity: O(length of the text)
    public var text: String? {
        get { withTextBytes { String(decoding: $0, as: UTF8.self) } }
        set { store(content: content, text: newValue.map { .outside($0) }) }
    }

    /// Calls `body` with the UTF-8 bytes of the search text, or answers nil
    /// when the item has none.
    public func withTextBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        guard let storage, textStart != Self.noText else { return nil }
        return try storage.withBytes(Int(contentStart) + Int(textStart), Int(textEnd - textStart), body)
    }

    public init(id: String, content: Content? = nil, text: String? = nil) {
        self.id = id
        idHash = Self.hash(id)
        (storage, contentStart, contentCount, textStart, textEnd) = (nil, 0, Self.noContent, Self.noText, Self.noText)
        store(content: content, text: text.map { .outside($0) })
    }

    /// An item whose search text is the UTF-8 bytes `textRange` of its
    /// content (which must be valid UTF-8 there); saves a copy of the text.
    /// A range outside the content means no text.
    public init(id: String, content: Content, textRange: Range<Int>) {
        self.id = id
        idHash = Self.hash(id)
        storage = content.arena
        contentStart = content.start
        contentCount = content.count
        if textRange.lowerBound >= 0, textRange.upperBound <= content.byteCount,
           let start = UInt32(exactly: textRange.lowerBound), let end = UInt32(exactly: textRange.upperBound) {
            (textStart, textEnd) = (start, end)
        } else {
            (textStart, textEnd) = (Self.noText, Self.noText)
        }
    }

    private enum TextPlacement {
        /// The same bytes of the (new) content.
        case inContent(start: UInt32, end: UInt32)
        case outside(String)
    }

    /// The text, as it must be kept when the content changes: its range
    /// when it lies in the content, else its bytes.
    private var textOutsideContent: TextPlacement? {
        guard storage != nil, textStart != Self.noText else { return nil }
        if contentCount != Self.noContent, textEnd <= contentCount { return .inContent(start: textStart, end: textEnd) }
        return text.map { .outside($0) }
    }

    /// Stores `content` and `text`: a text outside the content is written
    /// with a copy of the content into an arena of the item's own.
    /// - Complexity: O(bytes of the text and content) when a text is
    ///   outside the content, else O(1).
    private mutating func store(content: Content?, text: TextPlacement?) {
        switch text {
        case nil:
            storage = content?.arena
            (contentStart, contentCount) = content.map { ($0.start, $0.count) } ?? (0, Self.noContent)
            (textStart, textEnd) = (Self.noText, Self.noText)
        case .inContent(let start, let end):
            storage = content?.arena
            (contentStart, contentCount) = content.map { ($0.start, $0.count) } ?? (0, Self.noContent)
            // The range read the old content; it reads the new one (as a
            // range of the content always has), when it still fits.
            (textStart, textEnd) = content.map { end <= $0.count } == true ? (start, end) : (Self.noText, Self.noText)
        case .outside(let string):
            var bytes = content?.bytes ?? []
            let textOffset = bytes.count
            bytes.append(contentsOf: string.utf8)
            let arena = bytes.withUnsafeBytes { ByteArena.holding($0) }
            storage = arena
            contentStart = 0
            contentCount = content.map { $0.count } ?? Self.noContent
            textStart = UInt32(truncatingIfNeeded: textOffset)
            textEnd = UInt32(truncatingIfNeeded: bytes.count)
        }
    }

    /// The arena holding the item's bytes and how many bytes from its
    /// content's start the item uses (content and a text stored after it).
    var arena: ByteArena? { storage }

    /// The address of the item's arena (0: none), read without a retain.
    @inlinable @inline(__always)
    var arenaAddress: UInt {
        guard let object = storage?.storage else { return 0 }
        return UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }

    /// How many bytes from its content's start the item uses.
    @inlinable @inline(__always)
    var arenaBytes: Int {
        let content = contentCount == Self.noContent ? 0 : Int(contentCount)
        return textStart == Self.noText ? content : Swift.max(content, Int(textEnd))
    }

    /// The same item with its content copied into `builder`'s arena (its
    /// text, when it is a range of the content, reads the copy); an item
    /// with a text of its own is returned as it is (its arena holds only it).
    /// - Complexity: O(bytes of the content)
    public func rebased(into builder: inout ByteArena.Builder) -> Item {
        guard let content, textStart == Self.noText || textEnd <= contentCount else { return self }
        var item = self
        let copy = builder.copy(content)
        item.storage = copy.arena
        item.contentStart = copy.start
        return item
    }

    /// Whether two stored items have equal content (both none, or equal
    /// bytes), read in place: views of the same bytes (an item kept from
    /// the previous snapshot) answer without a retain or a read of them.
    /// - Complexity: O(1) for the same bytes, else O(bytes).
    @inline(__always)
    static func sameContent(_ a: UnsafePointer<Item>, _ b: UnsafePointer<Item>) -> Bool {
        let (countA, countB) = (a.pointee.contentCount, b.pointee.contentCount)
        guard countA == countB else { return false }
        if countA == noContent { return true }
        if a.pointee.contentStart == b.pointee.contentStart,
           a.pointee.storage?.storage === b.pointee.storage?.storage { return true }
        return a.pointee.content == b.pointee.content
    }

    /// Items are equal when id, content and search text are.
    public static func == (a: Item, b: Item) -> Bool {
        guard a.id == b.id, a.content == b.content else { return false }
        if a.storage?.storage === b.storage?.storage && a.contentStart == b.contentStart && a.textStart == b.textStart
            && a.textEnd == b.textEnd { return true }
        return a.withTextBytes { x in b.withTextBytes { y in x.elementsEqual(y) } ?? false } ?? (b.textStart == Self.noText || b.storage == nil)
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
