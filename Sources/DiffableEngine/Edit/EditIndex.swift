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
    /// Where an item is: its section's id and its chunk's id in that
    /// section, and its offset in the chunk when last seen (a hint, see
    /// `ItemList.find`: checked before use, so a stale one costs a scan of
    /// the chunk, never a wrong row). Locations are equal when their
    /// section and chunk are; hints do not count.
    struct Location: Equatable, Sendable {
        var section: String
        /// The chunk id shifted left by `offsetBits`; below it the offset
        /// plus one (0: no hint). Packed so a location stays 24 bytes in
        /// an index of a million items.
        private var packed: Int

        private static let offsetBits = 16
        private static let offsetMask = (1 << offsetBits) - 1

        /// An offset of `offsetMask` or more (a chunk far over
        /// `ItemList.maxChunk`, possible only in a never-chunked flat list)
        /// is not kept.
        init(section: String, chunk: Int, offset: Int? = nil) {
            self.section = section
            var hint = 0
            if let offset, offset >= 0, offset < Self.offsetMask - 1 { hint = offset + 1 }
            packed = chunk << Self.offsetBits | hint
        }

        var chunk: Int { packed >> Self.offsetBits }

        /// The offset in the chunk when last seen; nil when unknown.
        var offset: Int? {
            let hint = packed & Self.offsetMask
            return hint == 0 ? nil : hint - 1
        }

        static func == (a: Location, b: Location) -> Bool {
            a.chunk == b.chunk && a.section == b.section
        }
    }

    /// Item id → its location.
    var locationOfItem: ItemLocationTable
    /// Section id → position.
    var sectionPosition: [String: Int]

    /// Indexes a valid snapshot (see `Snapshot.validationIssues()`).
    /// - Complexity: O(n), n = sections + items.
    public init(_ snapshot: Snapshot) {
        locationOfItem = ItemLocationTable(minimumCapacity: snapshot.itemCount)
        sectionPosition = [String: Int](minimumCapacity: snapshot.sections.count)
        for (position, section) in snapshot.sections.enumerated() {
            sectionPosition[section.id] = position
            section.items.forEachChunk { chunk, items in
                for (offset, item) in items.enumerated() {
                    locationOfItem[item.itemID] = Location(section: section.id, chunk: chunk, offset: offset)
                }
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
