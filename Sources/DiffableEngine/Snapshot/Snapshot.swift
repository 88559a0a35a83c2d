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
