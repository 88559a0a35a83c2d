/// The difference between two snapshots in UIKit `performBatchUpdates` form.
///
/// Coordinates follow UIKit's batch rules:
/// - deletes and reloads use indices in the **old** snapshot;
/// - inserts use indices in the **new** snapshot;
/// - a move goes from an old position to a new one.
///
/// Sections that are inserted carry all their rows (no row operation refers to
/// them); sections that are deleted drop all their rows (no row operation
/// refers to them either). An item that survives but moves between a deleted
/// or inserted section and another is therefore reported as an insert or a
/// delete, never as a move. No position is both deleted and reloaded, and no
/// moved item is also reloaded: a move whose content changed says so instead.
///
/// All arrays are sorted ascending (moves by destination).
public struct Changeset: Equatable, Sendable {
    public struct SectionMove: Equatable, Sendable {
        public var from: Int
        public var to: Int
        /// The header changed too; render the new header at `to`.
        public var headerChanged: Bool
        public init(from: Int, to: Int, headerChanged: Bool = false) {
            self.from = from
            self.to = to
            self.headerChanged = headerChanged
        }
    }

    public struct ItemMove: Equatable, Sendable {
        public var from: ItemPath
        public var to: ItemPath
        /// The content changed too; render the new content at `to`.
        public var contentChanged: Bool
        public init(from: ItemPath, to: ItemPath, contentChanged: Bool = false) {
            self.from = from
            self.to = to
            self.contentChanged = contentChanged
        }
    }

    /// An item that stays where it is (relative to its neighbours) but must be
    /// redrawn. `old` is the UIKit coordinate; `new` locates the content.
    public struct ItemUpdate: Equatable, Sendable {
        public var old: ItemPath
        public var new: ItemPath
        public init(old: ItemPath, new: ItemPath) {
            self.old = old
            self.new = new
        }
    }

    /// Section header changed, section not moved: (old index, new index).
    public struct SectionUpdate: Equatable, Sendable {
        public var old: Int
        public var new: Int
        public init(old: Int, new: Int) {
            self.old = old
            self.new = new
        }
    }

    public var sectionDeletes: [Int] = []
    public var sectionInserts: [Int] = []
    public var sectionMoves: [SectionMove] = []
    /// Header-only changes of sections that were neither moved nor deleted.
    public var sectionReloads: [SectionUpdate] = []

    public var itemDeletes: [ItemPath] = []
    public var itemInserts: [ItemPath] = []
    public var itemMoves: [ItemMove] = []
    /// Replace the row (content changed, or `reload` asked for it).
    public var itemReloads: [ItemUpdate] = []
    /// Update the existing row in place (`reconfigure` in an edit).
    public var itemReconfigures: [ItemUpdate] = []

    public init() {}

    public var isEmpty: Bool {
        sectionDeletes.isEmpty && sectionInserts.isEmpty && sectionMoves.isEmpty
            && sectionReloads.isEmpty && itemDeletes.isEmpty && itemInserts.isEmpty
            && itemMoves.isEmpty && itemReloads.isEmpty && itemReconfigures.isEmpty
    }
}
