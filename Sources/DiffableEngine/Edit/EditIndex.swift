/// Lookups that let an edit find an item without scanning the snapshot:
/// the section id and the chunk (see `ItemList`) of every item, and the
/// position of every section.
///
/// An index describes one snapshot; `DataSource` keeps the index of its
/// snapshot across edits (each edit updates it in O(changed ids + items that
/// changed chunk)) and drops it when the snapshot is replaced another way.
/// Index a chunkified snapshot (`Snapshot.chunkify()`): the first edit of a
/// flat section longer than `ItemList.maxChunk` splits it, which re-indexes
/// its items.
public struct EditIndex: Sendable {
    /// Where an item is: its section's id and its chunk's id in that section.
    struct Location: Equatable, Sendable {
        var section: String
        var chunk: Int
    }

    /// Item id → its location.
    var locationOfItem: [ItemID: Location]
    /// Section id → position.
    var sectionPosition: [String: Int]

    /// Indexes a valid snapshot (see `Snapshot.validationIssues()`).
    /// - Complexity: O(n), n = sections + items.
    public init(_ snapshot: Snapshot) {
        locationOfItem = [ItemID: Location](minimumCapacity: snapshot.itemCount)
        sectionPosition = [String: Int](minimumCapacity: snapshot.sections.count)
        for (position, section) in snapshot.sections.enumerated() {
            sectionPosition[section.id] = position
            section.items.forEachChunk { chunk, items in
                let location = Location(section: section.id, chunk: chunk)
                for item in items { locationOfItem[item.itemID] = location }
            }
        }
    }

    /// Number of indexed items.
    public var itemCount: Int { locationOfItem.count }

    /// Item id → section id.
    /// - Complexity: O(n)
    var sectionOfItem: [String: String] {
        Dictionary(locationOfItem.map { ($0.key.string, $0.value.section) }, uniquingKeysWith: { a, _ in a })
    }
}
