/// The selection of one source: section policies and the selected item ids.
///
/// The state holds ids only. Which section a selected item is in is always
/// derived from the full snapshot passed to each operation, so the state never
/// goes stale by itself; but after the source's snapshot changes, call
/// `reconcile(with:visible:)` so that deleted items are dropped and section
/// rules hold again. Operations assume a valid snapshot (see
/// `Snapshot.validationIssues()`).
///
/// Every selected item remembers when it was selected (a serial number) and
/// the section it was last seen in; `reconcile` uses both to decide which item
/// survives when a `.single` section ends up with several.
///
/// Items hidden by search stay selected: `selectedIDs(in:)` lists them,
/// `selectedPaths(in:)` does not.
///
/// Ids are compared by their UTF-8 bytes (`ItemID`), like everywhere in the
/// engine: "\u{e9}" and "e\u{301}" are two items, although `String ==`
/// calls them equal.
public struct SelectionState: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        /// Order of selection, lower is earlier.
        var serial: UInt64
        /// The section the item was in when last seen by an operation.
        var sectionID: String
    }

    /// Explicit policies by section id. Sections not listed use
    /// `SectionSelectionPolicy.disabled`. Policies may name sections that are
    /// not (or no longer) in the snapshot: they apply when the section appears.
    public private(set) var policies: [String: SectionSelectionPolicy] = [:]

    /// Selected ids. Each key owns its bytes (see `ItemID.owned`): a view
    /// into a snapshot's arena would keep that whole arena alive for as long
    /// as the item stays selected, across any number of later snapshots.
    var entries: [ItemID: Entry] = [:]
    var nextSerial: UInt64 = 0

    /// An empty selection where every section is `.none`.
    public init() {}

    /// An empty selection with these policies.
    /// - Throws: `invalidPolicy` for `(.none, allowsEmpty: false)`.
    /// - Complexity: O(p log p), p = number of policies.
    public init(policies: [String: SectionSelectionPolicy]) throws(SelectionError) {
        try Self.validate(policies)
        for (id, policy) in policies where policy != .disabled {
            self.policies[id] = policy
        }
    }

    /// The policy of a section (`.disabled` when none was set).
    /// - Complexity: O(1)
    public func policy(for sectionID: String) -> SectionSelectionPolicy {
        policies[sectionID] ?? .disabled
    }

    /// Number of selected items, including hidden ones.
    /// - Complexity: O(1)
    public var selectedCount: Int { entries.count }

    /// `Item.idHash` of every selected id: scans over every item test this
    /// before they make the item's id (a string) to look it up.
    /// - Complexity: O(selected)
    var selectedHashes: Set<UInt32> { Set(entries.keys.map { Item.hash($0) }) }

    /// Whether the item is selected.
    /// - Complexity: O(length of the id)
    public func isSelected(_ id: String) -> Bool { entries[ItemID(id)] != nil }

    /// Whether the item is selected; `item.itemID` asks without copying the id.
    /// - Complexity: O(length of the id)
    public func isSelected(_ id: ItemID) -> Bool { entries[id] != nil }

    /// The selected ids present in `full`, in snapshot order.
    /// - Complexity: O(n), n = items in `full`.
    public func selectedIDs(in full: Snapshot) -> [String] {
        guard !entries.isEmpty else { return [] }
        var result: [String] = []
        result.reserveCapacity(entries.count)
        let hashes = selectedHashes
        for section in full.sections {
            for item in section.items where hashes.contains(item.idHash) && entries[item.itemID] != nil {
                result.append(item.id)
            }
        }
        return result
    }

    /// The selected ids of one section of `full`, in snapshot order
    /// (empty if the section does not exist).
    /// - Complexity: O(s + k), s = sections, k = items in that section.
    public func selectedIDs(inSection sectionID: String, of full: Snapshot) -> [String] {
        guard let section = full.sections.first(where: { $0.id == sectionID }) else { return [] }
        let hashes = selectedHashes
        return Array(section.items.lazy.filter { hashes.contains($0.idHash) && entries[$0.itemID] != nil }.map(\.id))
    }

    /// The selected rows of the visible snapshot, in order. Selected items that
    /// are hidden are not listed but stay selected.
    /// - Complexity: O(n), n = items in `visible`.
    public func selectedPaths(in visible: Snapshot) -> [SelectedRow] {
        guard !entries.isEmpty else { return [] }
        var result: [SelectedRow] = []
        let hashes = selectedHashes
        for (s, section) in visible.sections.enumerated() {
            for (r, item) in section.items.enumerated() where hashes.contains(item.idHash) && entries[item.itemID] != nil {
                result.append(SelectedRow(id: item.id, path: ItemPath(section: s, row: r)))
            }
        }
        return result
    }

    /// Sets section policies, then enforces them like `reconcile(with:visible:)`:
    /// items of sections that become `.none` are deselected, and a section that
    /// becomes `.single` keeps only its earliest selected item. Nothing is
    /// selected automatically.
    ///
    /// - Parameters:
    ///   - policies: policies by section id. Setting `.disabled` removes a
    ///     section's explicit policy.
    ///   - replacingAll: when `true`, sections not in `policies` go back to
    ///     `.disabled`; when `false` (default) their policies are kept.
    ///   - full: the source's full snapshot.
    ///   - visible: what the frontend shows; delta paths refer to it.
    /// - Returns: what was deselected to enforce the new policies.
    /// - Throws: `invalidPolicy` (first in section-id order); nothing changes.
    /// - Complexity: O(n + p log p), n = items in `full` and `visible`,
    ///   p = number of policies given.
    @discardableResult
    public mutating func setPolicies(
        _ policies: [String: SectionSelectionPolicy],
        replacingAll: Bool = false,
        in full: Snapshot,
        visible: Snapshot
    ) throws(SelectionError) -> SelectionDelta {
        try Self.validate(policies)
        if replacingAll { self.policies = [:] }
        for (id, policy) in policies {
            self.policies[id] = policy == .disabled ? nil : policy
        }
        return reconcile(with: full, visible: visible)
    }

    static func validate(_ policies: [String: SectionSelectionPolicy]) throws(SelectionError) {
        for (id, policy) in policies.sorted(by: { $0.key < $1.key }) where !policy.isValid {
            throw .invalidPolicy(sectionID: id, policy: policy)
        }
    }
}
