/// One named data source: its full snapshot, what the frontend sees of it
/// (the visible snapshot), and a version bumped by every change.
///
/// Every diff a data source hands out is a diff of the **visible** snapshot,
/// because that is what the frontend holds.
public struct DataSource: Sendable {
    public let name: String
    /// 0 before the first apply; +1 for every change.
    public private(set) var version: Int = 0
    /// The whole state, as last applied or edited.
    public private(set) var snapshot = Snapshot()
    /// What the frontend shows.
    public private(set) var visible = Snapshot()

    public init(name: String) {
        self.name = name
    }

    /// The result of a change: the diff of the visible snapshot and the
    /// visible snapshot before it (needed to derive the steps form).
    public struct Update: Sendable {
        public var changeset: Changeset
        public var oldVisible: Snapshot
        public var newVisible: Snapshot
    }

    /// Replaces the whole snapshot (which must be valid, see
    /// `Snapshot.validationIssues()`) and bumps the version.
    /// - Complexity: O(n) expected, n = items in both snapshots.
    public mutating func apply(_ new: Snapshot) -> Update {
        let oldVisible = visible
        snapshot = new
        visible = new
        version += 1
        return Update(changeset: oldVisible.difference(to: visible), oldVisible: oldVisible, newVisible: visible)
    }
}
