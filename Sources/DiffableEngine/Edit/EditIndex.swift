/// Lookups that let an edit find an item without scanning the snapshot:
/// the section id of every item and the position of every section.
///
/// An index describes one snapshot; `DataSource` keeps the index of its
/// snapshot across edits (each edit updates it in O(changed ids)) and drops it
/// when the snapshot is replaced another way.
public struct EditIndex: Sendable {
    /// Item id → id of the section holding it.
    var sectionOfItem: [String: String]
    /// Section id → position.
    var sectionPosition: [String: Int]

    /// Indexes a valid snapshot (see `Snapshot.validationIssues()`).
    /// - Complexity: O(n), n = sections + items.
    public init(_ snapshot: Snapshot) {
        sectionOfItem = [String: String](minimumCapacity: snapshot.itemCount)
        sectionPosition = [String: Int](minimumCapacity: snapshot.sections.count)
        for (position, section) in snapshot.sections.enumerated() {
            sectionPosition[section.id] = position
            for item in section.items {
                sectionOfItem[item.id] = section.id
            }
        }
    }

    /// Number of indexed items.
    public var itemCount: Int { sectionOfItem.count }
}
