import Testing
import DiffableEngine

@Suite struct SelectionErrorTests {
    typealias F = SelectionFixtures
    let full = F.snapshot([
        ("numbers", ["one", "two", "three"]),
        ("letters", ["a", "b", "c", "d"]),
        ("info", ["version"]),
    ])

    func state() throws -> SelectionState {
        var state = try SelectionState(policies: F.settingsPolicies)
        try state.perform(.select, targets: [.id("two"), .id("a")], in: full, visible: full)
        return state
    }

    func expectRefused(
        _ action: SelectionAction, _ targets: [SelectionTarget], visible: Snapshot? = nil,
        _ expected: SelectionError
    ) throws {
        var state = try state()
        let before = state
        #expect(throws: expected) {
            try state.perform(action, targets: targets, in: full, visible: visible ?? full)
        }
        #expect(state == before)
    }

    @Test func unknownItem() throws {
        try expectRefused(.select, [.id("b"), .id("zzz")], .unknownItem(id: "zzz"))
        try expectRefused(.deselect, [.id("a"), .id("zzz")], .unknownItem(id: "zzz"))
    }

    @Test func pathOutOfRange() throws {
        try expectRefused(.toggle, [.id("b"), .path(ItemPath(section: 1, row: 4))],
                          .pathOutOfRange(ItemPath(section: 1, row: 4)))
        try expectRefused(.select, [.path(ItemPath(section: 7, row: 0))],
                          .pathOutOfRange(ItemPath(section: 7, row: 0)))
        // Paths refer to the visible snapshot: row 2 of letters does not exist there.
        let visible = F.filtered(full) { $0 != "a" && $0 != "b" }
        try expectRefused(.select, [.path(ItemPath(section: 1, row: 2))], visible: visible,
                          .pathOutOfRange(ItemPath(section: 1, row: 2)))
    }

    @Test func firstErrorInTargetOrder() throws {
        try expectRefused(.select, [.path(ItemPath(section: 9, row: 9)), .id("zzz")],
                          .pathOutOfRange(ItemPath(section: 9, row: 9)))
        try expectRefused(.select, [.id("zzz"), .path(ItemPath(section: 9, row: 9))],
                          .unknownItem(id: "zzz"))
    }

    @Test func selectionDisabled() throws {
        try expectRefused(.select, [.id("b"), .id("version")],
                          .selectionDisabled(sectionID: "info", itemIDs: ["version"]))
        try expectRefused(.toggle, [.id("version")],
                          .selectionDisabled(sectionID: "info", itemIDs: ["version"]))
    }

    @Test func deselectInDisabledSectionIsANoOp() throws {
        var state = try state()
        let delta = try state.perform(.deselect, targets: [.id("version")], in: full, visible: full)
        #expect(delta == SelectionDelta())
    }

    @Test func tooManyForSingle() throws {
        try expectRefused(.select, [.id("b"), .id("one"), .id("three")],
                          .tooManyForSingle(sectionID: "numbers", itemIDs: ["one", "three"]))
        // Even when one of them is the selected item.
        try expectRefused(.select, [.id("two"), .id("one")],
                          .tooManyForSingle(sectionID: "numbers", itemIDs: ["two", "one"]))
        try expectRefused(.toggle, [.id("one"), .id("three")],
                          .tooManyForSingle(sectionID: "numbers", itemIDs: ["one", "three"]))
    }

    @Test func duplicateTargetsCountOnce() throws {
        var state = try state()
        let delta = try state.perform(
            .select, targets: [.id("one"), .path(ItemPath(section: 0, row: 0)), .id("one")],
            in: full, visible: full)
        #expect(delta == SelectionDelta(selected: [F.change("one", 0, 0)], deselected: [F.change("two", 0, 1)]))
    }

    @Test func targetKinds() throws {
        try expectRefused(.select, [.section("letters")],
                          .targetNotAllowed(action: .select, target: .section("letters")))
        try expectRefused(.clear, [.section("letters"), .id("a")],
                          .targetNotAllowed(action: .clear, target: .id("a")))
        try expectRefused(.clear, [.section("nope")], .unknownSection(id: "nope"))
    }

    @Test func invalidPolicy() throws {
        #expect(throws: SelectionError.invalidPolicy(
            sectionID: "info", policy: SectionSelectionPolicy(mode: .none, allowsEmpty: false))) {
            _ = try SelectionState(policies: ["info": SectionSelectionPolicy(mode: .none, allowsEmpty: false)])
        }
        var state = try state()
        let before = state
        #expect(throws: SelectionError.self) {
            try state.setPolicies(
                ["letters": .disabled, "info": SectionSelectionPolicy(mode: .none, allowsEmpty: false)],
                in: full, visible: full)
        }
        #expect(state == before)
    }

    @Test func defaults() {
        let state = SelectionState()
        #expect(state.policy(for: "anything") == .disabled)
        #expect(SectionSelectionPolicy.disabled.mode == .none)
        #expect(SectionSelectionPolicy(mode: .single).allowsEmpty)
    }

    @Test func emptyTargetsAreNoOps() throws {
        var state = try state()
        let before = state
        for action in [SelectionAction.select, .deselect, .toggle] {
            #expect(try state.perform(action, targets: [], in: full, visible: full) == SelectionDelta())
        }
        #expect(state == before)
    }
}

@Suite struct SelectionReconcileTests {
    typealias F = SelectionFixtures

    @Test func deletedItemsAreDropped() throws {
        let full = F.settings
        var state = try SelectionState(policies: F.settingsPolicies)
        try state.perform(.select, targets: [.id("two"), .id("a"), .id("c"), .id("d")], in: full, visible: full)

        let newFull = F.snapshot([("numbers", ["one", "three"]), ("letters", ["d", "b"])])
        let delta = state.reconcile(with: newFull, visible: newFull)
        // Deleted items come last with no path, in selection order.
        #expect(delta == SelectionDelta(deselected: [F.hidden("two"), F.hidden("a"), F.hidden("c")]))
        #expect(state.selectedIDs(in: newFull) == ["d"])
        #expect(state.selectedCount == 1)
        // allowsEmpty=false never selects anything by itself.
        #expect(state.selectedIDs(inSection: "numbers", of: newFull).isEmpty)
    }

    @Test func movedIntoDisabledSection() throws {
        let full = F.snapshot([("letters", ["a", "b"]), ("info", ["x"])])
        var state = try SelectionState(policies: ["letters": .multiple()])
        try state.perform(.select, targets: [.id("a"), .id("b")], in: full, visible: full)
        let newFull = F.snapshot([("letters", ["b"]), ("info", ["x", "a"])])
        let delta = state.reconcile(with: newFull, visible: newFull)
        #expect(delta == SelectionDelta(deselected: [F.change("a", 1, 1)]))
        #expect(state.selectedIDs(in: newFull) == ["b"])
    }

    @Test func movedIntoSingleSectionKeepsTheResident() throws {
        let full = F.snapshot([("numbers", ["one", "two"]), ("letters", ["a", "b"])])
        var state = try SelectionState(policies: ["numbers": .single(), "letters": .multiple()])
        // "a" is selected before "two", but "two" was already in numbers.
        try state.perform(.select, targets: [.id("a")], in: full, visible: full)
        try state.perform(.select, targets: [.id("two")], in: full, visible: full)
        let newFull = F.snapshot([("numbers", ["a", "one", "two"]), ("letters", ["b"])])
        let delta = state.reconcile(with: newFull, visible: newFull)
        #expect(delta == SelectionDelta(deselected: [F.change("a", 0, 0)]))
        #expect(state.selectedIDs(in: newFull) == ["two"])
    }

    @Test func twoMovedIntoSingleSectionKeepsTheEarliest() throws {
        let full = F.snapshot([("numbers", ["one"]), ("letters", ["a", "b", "c"])])
        var state = try SelectionState(policies: ["numbers": .single(), "letters": .multiple()])
        try state.perform(.select, targets: [.id("c")], in: full, visible: full)
        try state.perform(.select, targets: [.id("a")], in: full, visible: full)
        let newFull = F.snapshot([("numbers", ["one", "a", "c"]), ("letters", ["b"])])
        let delta = state.reconcile(with: newFull, visible: newFull)
        #expect(delta == SelectionDelta(deselected: [F.change("a", 0, 1)]))
        #expect(state.selectedIDs(in: newFull) == ["c"])
    }

    @Test func policyChangeEnforcedBySetPolicies() throws {
        let full = F.settings
        var state = try SelectionState(policies: F.settingsPolicies)
        try state.perform(.select, targets: [.id("c"), .id("a"), .id("b")], in: full, visible: full)
        var delta = try state.setPolicies(["letters": .single()], in: full, visible: full)
        // The earliest selected ("c") survives.
        #expect(delta == SelectionDelta(deselected: [F.change("a", 1, 0), F.change("b", 1, 1)]))
        delta = try state.setPolicies(["letters": .disabled], in: full, visible: full)
        #expect(delta == SelectionDelta(deselected: [F.change("c", 1, 2)]))
        #expect(state.policies == ["numbers": .single(allowsEmpty: false)])
        try state.setPolicies(["letters": .multiple()], replacingAll: true, in: full, visible: full)
        #expect(state.policies == ["letters": .multiple()])
    }

    @Test func unchangedSnapshotIsANoOp() throws {
        let full = F.settings
        var state = try SelectionState(policies: F.settingsPolicies)
        try state.perform(.select, targets: [.id("two"), .id("a")], in: full, visible: full)
        let before = state
        #expect(state.reconcile(with: full, visible: full) == SelectionDelta())
        #expect(state == before)
    }
}

@Suite struct SelectionHiddenItemTests {
    typealias F = SelectionFixtures
    let full = F.settings

    @Test func hiddenItemsStaySelected() throws {
        var state = try SelectionState(policies: F.settingsPolicies)
        try state.perform(.select, targets: [.id("two"), .id("a"), .id("c")], in: full, visible: full)
        // Search "c" or "t": shows three, c.
        let visible = F.filtered(full) { ["three", "c"].contains($0) }
        #expect(state.selectedPaths(in: visible) == [SelectedRow(id: "c", path: ItemPath(section: 1, row: 0))])
        #expect(state.selectedIDs(in: full) == ["two", "a", "c"])

        // Selecting the visible "three" replaces the hidden "two" (nil path).
        let delta = try state.perform(.select, targets: [.path(ItemPath(section: 0, row: 0))], in: full, visible: visible)
        #expect(delta == SelectionDelta(selected: [F.change("three", 0, 0)], deselected: [F.hidden("two")]))

        // Reconciling with the same full snapshot keeps hidden items.
        #expect(state.reconcile(with: full, visible: visible) == SelectionDelta())
        #expect(state.selectedIDs(in: full) == ["three", "a", "c"])
    }

    @Test func selectHiddenByID() throws {
        var state = try SelectionState(policies: F.settingsPolicies)
        let visible = F.filtered(full) { $0 == "one" }
        let delta = try state.perform(.select, targets: [.id("b")], in: full, visible: visible)
        #expect(delta == SelectionDelta(selected: [F.hidden("b")]))
    }

    @Test func clearIncludesHidden() throws {
        var state = try SelectionState(policies: F.settingsPolicies)
        try state.perform(.select, targets: [.id("a"), .id("d")], in: full, visible: full)
        let visible = F.filtered(full) { $0 == "d" }
        let delta = try state.perform(.clear, targets: [.section("letters")], in: full, visible: visible)
        #expect(delta == SelectionDelta(deselected: [F.hidden("a"), F.change("d", 1, 0)]))
    }
}
