import Testing
import DiffableEngine

/// The settings screen of the seed tutorial, driven as a frontend would.
@Suite struct SelectionScenarioTests {
    typealias F = SelectionFixtures
    let full = F.settings

    func initialState() throws -> SelectionState {
        var state = try SelectionState(policies: F.settingsPolicies)
        let delta = try state.perform(
            .select, targets: [.id("two"), .id("a"), .id("c")], in: full, visible: full)
        #expect(delta.selected == [F.change("two", 0, 1), F.change("a", 1, 0), F.change("c", 1, 2)])
        #expect(delta.deselected.isEmpty)
        return state
    }

    @Test func initialSelection() throws {
        let state = try initialState()
        #expect(state.selectedIDs(in: full) == ["two", "a", "c"])
        #expect(state.selectedIDs(inSection: "numbers", of: full) == ["two"])
        #expect(state.selectedPaths(in: full) == [
            SelectedRow(id: "two", path: ItemPath(section: 0, row: 1)),
            SelectedRow(id: "a", path: ItemPath(section: 1, row: 0)),
            SelectedRow(id: "c", path: ItemPath(section: 1, row: 2)),
        ])
    }

    @Test func tapWalkthrough() throws {
        var state = try initialState()

        // Tap "one": replaces "two".
        var delta = try state.perform(
            .toggle, targets: [.path(ItemPath(section: 0, row: 0))], in: full, visible: full)
        #expect(delta == SelectionDelta(selected: [F.change("one", 0, 0)], deselected: [F.change("two", 0, 1)]))

        // Tap "one" again: the single, non-empty section keeps it.
        let before = state
        delta = try state.perform(
            .toggle, targets: [.path(ItemPath(section: 0, row: 0))], in: full, visible: full)
        #expect(delta.isEmpty)
        #expect(delta.kept == [F.change("one", 0, 0)])
        #expect(state == before)

        // An explicit deselect is ignored the same way.
        delta = try state.perform(.deselect, targets: [.id("one")], in: full, visible: full)
        #expect(delta == SelectionDelta(kept: [F.change("one", 0, 0)]))
        #expect(state == before)

        // Toggle "b": selected. Toggle "a": deselected.
        delta = try state.perform(.toggle, targets: [.id("b")], in: full, visible: full)
        #expect(delta == SelectionDelta(selected: [F.change("b", 1, 1)]))
        delta = try state.perform(.toggle, targets: [.id("a")], in: full, visible: full)
        #expect(delta == SelectionDelta(deselected: [F.change("a", 1, 0)]))

        #expect(state.selectedIDs(in: full) == ["one", "b", "c"])
    }

    @Test func selectingTheSelectedItemIsANoOp() throws {
        var state = try initialState()
        let before = state
        let delta = try state.perform(.select, targets: [.id("two"), .id("c")], in: full, visible: full)
        #expect(delta == SelectionDelta())
        #expect(state == before)
    }

    @Test func clearIgnoresAllowsEmpty() throws {
        var state = try initialState()
        let delta = try state.perform(.clear, targets: [.section("numbers")], in: full, visible: full)
        #expect(delta == SelectionDelta(deselected: [F.change("two", 0, 1)]))
        #expect(state.selectedIDs(in: full) == ["a", "c"])

        let all = try state.perform(.clear, targets: [], in: full, visible: full)
        #expect(all == SelectionDelta(deselected: [F.change("a", 1, 0), F.change("c", 1, 2)]))
        #expect(state.selectedCount == 0)
    }

    @Test func toggleSwitchesWithinSingleSection() throws {
        var state = try initialState()
        // Toggling the selected and another item of a single section switches.
        let delta = try state.perform(.toggle, targets: [.id("two"), .id("three")], in: full, visible: full)
        #expect(delta == SelectionDelta(selected: [F.change("three", 0, 2)], deselected: [F.change("two", 0, 1)]))
    }

    @Test func multipleNonEmptyKeepsLastItem() throws {
        var state = try SelectionState(policies: ["letters": .multiple(allowsEmpty: false)])
        try state.perform(.select, targets: [.id("a"), .id("b")], in: full, visible: full)
        // Deselecting all of them would empty the section: that section is left as is.
        let delta = try state.perform(.deselect, targets: [.id("a"), .id("b")], in: full, visible: full)
        #expect(delta == SelectionDelta(kept: [F.change("a", 1, 0), F.change("b", 1, 1)]))
        // Deselecting one of two is fine.
        let one = try state.perform(.deselect, targets: [.id("b")], in: full, visible: full)
        #expect(one == SelectionDelta(deselected: [F.change("b", 1, 1)]))
    }
}
