/// How the items of one section can be selected.
public enum SelectionMode: String, Sendable, CaseIterable {
    /// Items cannot be selected. Selecting one is a `selectionDisabled` error.
    /// This is the mode of every section that has no explicit policy.
    case none
    /// At most one item is selected; selecting another replaces it.
    case single
    /// Any number of items can be selected.
    case multiple
}

/// The selection rules of one section, keyed by section id in `SelectionState`.
///
/// A section without an explicit policy uses `SectionSelectionPolicy.disabled`
/// (mode `.none`). `allowsEmpty` defaults to `true`: a picker that must always
/// show a choice (the "numbers" section of a settings screen) sets it to `false`
/// explicitly.
///
/// `allowsEmpty == false` only stops `deselect` and `toggle` from removing the
/// last selected item of a section (those deselections are ignored and reported
/// in `SelectionDelta.kept`). It never selects anything automatically: a section
/// starts empty until something is selected, and `clear` or a `reconcile` (the
/// item was deleted or moved away) can still empty it.
public struct SectionSelectionPolicy: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var mode: SelectionMode
    /// Whether `deselect`/`toggle` may remove the last selected item.
    /// Meaningless for `.none`; `(.none, allowsEmpty: false)` is rejected by
    /// `SelectionState.setPolicies` as contradictory.
    public var allowsEmpty: Bool

    public init(mode: SelectionMode, allowsEmpty: Bool = true) {
        self.mode = mode
        self.allowsEmpty = allowsEmpty
    }

    /// The default policy of a section: nothing can be selected.
    public static let disabled = SectionSelectionPolicy(mode: .none)

    /// Single selection (a radio group).
    public static func single(allowsEmpty: Bool = true) -> SectionSelectionPolicy {
        SectionSelectionPolicy(mode: .single, allowsEmpty: allowsEmpty)
    }

    /// Multiple selection (a set of checkboxes).
    public static func multiple(allowsEmpty: Bool = true) -> SectionSelectionPolicy {
        SectionSelectionPolicy(mode: .multiple, allowsEmpty: allowsEmpty)
    }

    /// `false` for `(.none, allowsEmpty: false)`, the only contradictory combination.
    public var isValid: Bool { mode != .none || allowsEmpty }

    public var description: String { "\(mode.rawValue)\(allowsEmpty ? "" : " (non-empty)")" }
}
