/// What a selection request does to its targets.
public enum SelectionAction: String, Sendable, CaseIterable {
    /// Select the targets. Already selected targets are left alone.
    case select
    /// Deselect the targets. Unselected targets are left alone.
    case deselect
    /// Select each unselected target and deselect each selected one.
    case toggle
    /// Deselect everything in the target sections (all sections if there are
    /// no targets), ignoring `allowsEmpty`.
    case clear
}

/// One target of a selection request.
public enum SelectionTarget: Equatable, Hashable, Sendable {
    /// An item by id, looked up in the full snapshot (it may be hidden by search).
    case id(String)
    /// An item by its position in the **visible** snapshot.
    case path(ItemPath)
    /// A whole section by id; only valid for `clear`.
    case section(String)
}

/// What a selection operation changed, for the frontend to render.
///
/// Paths are positions in the **visible** snapshot passed to the operation;
/// `nil` means the item is not visible (hidden by search, or deleted).
/// Every list is ordered by position in the full snapshot; items that are no
/// longer in it come last, in the order they had been selected.
public struct SelectionDelta: Equatable, Sendable {
    /// One item of a delta.
    public struct Change: Equatable, Hashable, Sendable, CustomStringConvertible {
        public var id: String
        /// Position in the visible snapshot, `nil` when not visible.
        public var path: ItemPath?

        public init(id: String, path: ItemPath?) {
            self.id = id
            self.path = path
        }

        public var description: String { "\(id)@\(path.map(\.description) ?? "hidden")" }
    }

    /// Items that became selected.
    public var selected: [Change]
    /// Items that are no longer selected.
    public var deselected: [Change]
    /// Items the request asked to deselect but that stay selected because their
    /// section does not allow an empty selection. Nothing changed for them; a
    /// frontend whose row already looks deselected (a tapped table-view row)
    /// should select it again.
    public var kept: [Change]

    public init(selected: [Change] = [], deselected: [Change] = [], kept: [Change] = []) {
        self.selected = selected
        self.deselected = deselected
        self.kept = kept
    }

    /// `true` when the selection did not change (`kept` may still be non-empty).
    public var isEmpty: Bool { selected.isEmpty && deselected.isEmpty }
}

/// One selected, visible row (see `SelectionState.selectedPaths(in:)`).
public struct SelectedRow: Equatable, Hashable, Sendable {
    public var id: String
    public var path: ItemPath

    public init(id: String, path: ItemPath) {
        self.id = id
        self.path = path
    }
}

/// Why a selection request was refused. A refused request changes nothing.
///
/// When several targets are wrong, the error is about the first of them in
/// request order: target errors (`unknownItem`, `unknownSection`,
/// `pathOutOfRange`, `targetNotAllowed`) first, then section rules
/// (`selectionDisabled`, `tooManyForSingle`) in order of each section's first
/// target.
public enum SelectionError: Error, Equatable, Sendable {
    /// No item with this id in the full snapshot.
    case unknownItem(id: String)
    /// No section with this id in the full snapshot.
    case unknownSection(id: String)
    /// No item at this position in the visible snapshot.
    case pathOutOfRange(ItemPath)
    /// `.section` targets are only valid for `clear`, and `clear` only takes
    /// `.section` targets.
    case targetNotAllowed(action: SelectionAction, target: SelectionTarget)
    /// The request would select these items of a section whose mode is `.none`.
    case selectionDisabled(sectionID: String, itemIDs: [String])
    /// The request would select more than one item of a `.single` section.
    case tooManyForSingle(sectionID: String, itemIDs: [String])
    /// `(.none, allowsEmpty: false)`: a section cannot both forbid selection
    /// and require it.
    case invalidPolicy(sectionID: String, policy: SectionSelectionPolicy)
}
