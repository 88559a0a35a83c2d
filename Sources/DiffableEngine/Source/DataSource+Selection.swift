extension DataSource {
    /// Selects, deselects, toggles or clears; all-or-nothing. Bumps the
    /// version when the selection changed.
    /// - Complexity: O(n) for locating targets, see `SelectionState.perform`.
    public mutating func select(
        _ action: SelectionAction, targets: [SelectionTarget]
    ) throws(SelectionError) -> SelectionDelta {
        let delta = try selection.perform(action, targets: targets, in: snapshot, visible: visible)
        if !delta.isEmpty { version += 1 }
        return delta
    }

    /// Changes section policies (merged with the existing ones); items that
    /// break the new rules are deselected. Bumps the version when the
    /// selection changed.
    public mutating func setSelectionPolicies(
        _ policies: [String: SectionSelectionPolicy]
    ) throws(SelectionError) -> SelectionDelta {
        let delta = try selection.setPolicies(policies, in: snapshot, visible: visible)
        if !delta.isEmpty { version += 1 }
        return delta
    }
}
