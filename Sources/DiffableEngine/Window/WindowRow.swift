/// The part of a source's flattened visible list that a frontend draws.
///
/// The **flat list** is the visible snapshot with each section contributing
/// a header row (when it has a header) followed by its item rows. A viewport
/// `start ..< start + count` of it is the **window**; the frontend holds only
/// the window's rows, and every change is answered with `WindowUpdate`:
/// the new total, the new start, and sequential steps over the window rows.
public struct Viewport: Equatable, Sendable {
    public var start: Int
    public var count: Int

    public init(start: Int, count: Int) {
        self.start = max(0, start)
        self.count = max(0, count)
    }
}

/// One row of the flat list, with what a frontend needs to draw it.
public struct WindowRow: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case header, item }

    public var kind: Kind
    /// The item id, or the section id for a header row.
    public var id: String
    /// The id of the section the row belongs to.
    public var section: String
    /// The item's content, or the section's header.
    public var content: Content?
    public var selected: Bool
    /// Highlighted Unicode-scalar ranges of a search match (with fields:
    /// in the text of the field `highlightFields` gives).
    public var highlights: [Range<Int>]
    /// With a search of fields (`SearchSettings.fields`), the name of the
    /// field each of `highlights` is in; empty otherwise.
    public var highlightFields: [String]
    /// The item's place in the outline (sources with nested items).
    public var outline: OutlineRow?

    public init(kind: Kind, id: String, section: String, content: Content?, selected: Bool = false,
                highlights: [Range<Int>] = [], highlightFields: [String] = [], outline: OutlineRow? = nil) {
        self.kind = kind
        self.id = id
        self.section = section
        self.content = content
        self.selected = selected
        self.highlights = highlights
        self.highlightFields = highlightFields
        self.outline = outline
    }

    /// Identity within the flat list: item ids and section ids are separate
    /// namespaces, so a header's key is marked as one.
    var key: Key { Key(isHeader: kind == .header, id: id) }

    struct Key: Hashable {
        var isHeader: Bool
        var id: String
    }
}

/// A sequential edit of the frontend's window rows: each step applies to the
/// rows as the previous steps left them (Android `RecyclerView`'s
/// `notifyItemRange…` calls, keyed DOM children).
public enum WindowStep: Equatable, Sendable {
    /// Remove `count` rows at `at`.
    case delete(at: Int, count: Int)
    /// Insert `rows` at `at`.
    case insert(at: Int, rows: [WindowRow])
    /// Move the row at `from` to `to` (Array semantics: remove, then insert).
    case move(from: Int, to: Int)
    /// Redraw the rows at `at ..< at + rows.count` (same ids, new content,
    /// selection or highlights).
    case update(at: Int, rows: [WindowRow])
}

/// The answer to a change while a viewport is set.
public struct WindowUpdate: Equatable, Sendable {
    /// Rows in the whole flat list.
    public var total: Int
    /// The window's first flat row after the change.
    public var start: Int
    /// The window's size (the viewport's count; fewer rows exist near the end).
    public var count: Int
    public var steps: [WindowStep]

    public init(total: Int, start: Int, count: Int, steps: [WindowStep]) {
        self.total = total
        self.start = start
        self.count = count
        self.steps = steps
    }
}

extension Array where Element == WindowRow {
    /// Replays window steps the way a frontend does.
    /// - Throws: `ReplayError` for a step outside the rows.
    public func applyingWindowSteps(_ steps: [WindowStep]) throws -> [WindowRow] {
        var rows = self
        for step in steps {
            switch step {
            case .delete(let at, let count):
                guard count > 0, at >= 0, at + count <= rows.count else {
                    throw ReplayError(.outOfRange, "delete \(at)+\(count) outside 0..<\(rows.count)")
                }
                rows.removeSubrange(at..<at + count)
            case .insert(let at, let inserted):
                guard !inserted.isEmpty, at >= 0, at <= rows.count else {
                    throw ReplayError(.outOfRange, "insert at \(at) outside 0...\(rows.count)")
                }
                rows.insert(contentsOf: inserted, at: at)
            case .move(let from, let to):
                guard rows.indices.contains(from), rows.indices.contains(to), from != to else {
                    throw ReplayError(.outOfRange, "move \(from) → \(to) in \(rows.count) rows")
                }
                rows.insert(rows.remove(at: from), at: to)
            case .update(let at, let updated):
                guard !updated.isEmpty, at >= 0, at + updated.count <= rows.count else {
                    throw ReplayError(.outOfRange, "update \(at)+\(updated.count) outside 0..<\(rows.count)")
                }
                for (offset, row) in updated.enumerated() {
                    guard rows[at + offset].key == row.key else {
                        throw ReplayError(.conflict, "update at \(at + offset) names \(row.id), the row is \(rows[at + offset].id)")
                    }
                    rows[at + offset] = row
                }
            }
        }
        return rows
    }
}
