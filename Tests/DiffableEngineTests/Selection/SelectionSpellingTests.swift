import Testing
import DiffableEngine

/// Item ids are their UTF-8 bytes: canonically equivalent spellings ("é" as
/// one scalar or as "e" and a combining accent, the angstrom sign and "Å")
/// are different items, selected and deselected independently.
///
/// `String ==` calls such spellings equal, so these tests compare ids by
/// their bytes (`Spelled`), never as strings.
@Suite struct SelectionSpellingTests {
    typealias F = SelectionFixtures
    static let composed = "\u{e9}", decomposed = "e\u{301}"
    static let angstrom = "\u{212B}", aRing = "\u{C5}"
    static let spellings = [composed, decomposed, angstrom, aRing]

    /// An id by its bytes, with its path.
    struct Spelled: Equatable, CustomStringConvertible {
        var bytes: [UInt8]
        var path: ItemPath?

        init(_ id: String, _ section: Int, _ row: Int) {
            (bytes, path) = (Array(id.utf8), ItemPath(section: section, row: row))
        }

        init(_ id: String, path: ItemPath?) { (bytes, self.path) = (Array(id.utf8), path) }

        var description: String { "\(bytes)@\(path.map(\.description) ?? "hidden")" }
    }

    static func spelled(_ changes: [SelectionDelta.Change]) -> [Spelled] { changes.map { Spelled($0.id, path: $0.path) } }
    static func spelled(_ rows: [SelectedRow]) -> [Spelled] { rows.map { Spelled($0.id, path: $0.path) } }
    static func bytes(_ ids: [String]) -> [[UInt8]] { ids.map { Array($0.utf8) } }

    typealias S = Spelled
    let c = Self.composed, d = Self.decomposed, ang = Self.angstrom, ring = Self.aRing

    @Test func multipleSelectsEachSpelling() throws {
        let full = F.snapshot([("A", Self.spellings + ["x"])])
        var state = try SelectionState(policies: ["A": .multiple()])

        var delta = try state.perform(.select, targets: [.id(c)], in: full, visible: full)
        #expect(Self.spelled(delta.selected) == [S(c, 0, 0)])
        #expect(state.isSelected(c) && !state.isSelected(d))

        delta = try state.perform(.select, targets: [.id(d)], in: full, visible: full)
        #expect(Self.spelled(delta.selected) == [S(d, 0, 1)])
        #expect(Self.bytes(state.selectedIDs(in: full)) == Self.bytes([c, d]))
        #expect(state.selectedCount == 2)

        delta = try state.perform(.deselect, targets: [.id(c)], in: full, visible: full)
        #expect(Self.spelled(delta.deselected) == [S(c, 0, 0)] && delta.selected.isEmpty)
        #expect(Self.bytes(state.selectedIDs(inSection: "A", of: full)) == Self.bytes([d]))

        // One request naming both spellings names two items.
        delta = try state.perform(.toggle, targets: [.id(ang), .id(ring)], in: full, visible: full)
        #expect(Self.spelled(delta.selected) == [S(ang, 0, 2), S(ring, 0, 3)])
        delta = try state.perform(.toggle, targets: [.id(ang)], in: full, visible: full)
        #expect(Self.spelled(delta.deselected) == [S(ang, 0, 2)] && delta.selected.isEmpty)

        // By path: row 1 is the decomposed spelling; the composed one stays unselected.
        delta = try state.perform(.toggle, targets: [.path(ItemPath(section: 0, row: 1))], in: full, visible: full)
        #expect(Self.spelled(delta.deselected) == [S(d, 0, 1)] && delta.selected.isEmpty)
        #expect(Self.spelled(state.selectedPaths(in: full)) == [S(ring, 0, 3)])
        #expect(!state.isSelected(c) && !state.isSelected(d) && !state.isSelected(ang) && state.isSelected(ring))

        // An id and the path of its other spelling: two targets.
        delta = try state.perform(.select, targets: [.id(c), .path(ItemPath(section: 0, row: 1))], in: full, visible: full)
        #expect(Self.spelled(delta.selected) == [S(c, 0, 0), S(d, 0, 1)])
        #expect(state.selectedCount == 3)
    }

    @Test func singleSwitchesBetweenSpellings() throws {
        let full = F.snapshot([("S", Self.spellings)])
        var state = try SelectionState(policies: ["S": .single()])

        var delta = try state.perform(.select, targets: [.id(c)], in: full, visible: full)
        #expect(Self.spelled(delta.selected) == [S(c, 0, 0)])
        delta = try state.perform(.select, targets: [.id(d)], in: full, visible: full)
        #expect(Self.spelled(delta.selected) == [S(d, 0, 1)])
        #expect(Self.spelled(delta.deselected) == [S(c, 0, 0)])
        delta = try state.perform(.select, targets: [.id(d)], in: full, visible: full)
        #expect(delta == SelectionDelta())

        delta = try state.perform(.toggle, targets: [.id(c)], in: full, visible: full)
        #expect(Self.spelled(delta.selected) == [S(c, 0, 0)])
        #expect(Self.spelled(delta.deselected) == [S(d, 0, 1)])

        // Deselecting the other spelling is a no-op.
        delta = try state.perform(.deselect, targets: [.id(d)], in: full, visible: full)
        #expect(delta == SelectionDelta())
        #expect(Self.bytes(state.selectedIDs(in: full)) == Self.bytes([c]))

        // Both spellings in one request are two items of a single section.
        let before = state
        do throws(SelectionError) {
            try state.perform(.select, targets: [.id(ang), .id(ring)], in: full, visible: full)
            Issue.record("two items of a single section were selected")
        } catch {
            guard case .tooManyForSingle(let section, let ids) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(section == "S" && Self.bytes(ids) == Self.bytes([ang, ring]))
        }
        #expect(state == before)

        delta = try state.perform(.toggle, targets: [.id(ring)], in: full, visible: full)
        #expect(Self.spelled(delta.selected) == [S(ring, 0, 3)])
        #expect(Self.spelled(delta.deselected) == [S(c, 0, 0)])
        delta = try state.perform(.toggle, targets: [.id(ang)], in: full, visible: full)
        #expect(Self.spelled(delta.selected) == [S(ang, 0, 2)])
        #expect(Self.spelled(delta.deselected) == [S(ring, 0, 3)])
    }

    @Test func nonEmptySingleIgnoresTheOtherSpelling() throws {
        let full = F.snapshot([("S", Self.spellings)])
        var state = try SelectionState(policies: ["S": .single(allowsEmpty: false)])
        try state.perform(.select, targets: [.id(ring)], in: full, visible: full)
        // Not selected, so not kept either: nothing to report.
        var delta = try state.perform(.deselect, targets: [.id(ang)], in: full, visible: full)
        #expect(delta == SelectionDelta() && delta.kept.isEmpty)
        delta = try state.perform(.deselect, targets: [.id(ring)], in: full, visible: full)
        #expect(Self.spelled(delta.kept) == [S(ring, 0, 3)])
    }

    @Test func hiddenSpellingStaysHidden() throws {
        let full = F.snapshot([("A", Self.spellings)])
        let visible = F.filtered(full) { Array($0.utf8) != Array(Self.composed.utf8) }
        var state = try SelectionState(policies: ["A": .multiple()])
        let delta = try state.perform(.select, targets: [.id(c), .id(d)], in: full, visible: visible)
        #expect(Self.spelled(delta.selected) == [S(c, path: nil), S(d, 0, 0)])
        #expect(Self.spelled(state.selectedPaths(in: visible)) == [S(d, 0, 0)])
        let off = try state.perform(.toggle, targets: [.path(ItemPath(section: 0, row: 0))], in: full, visible: visible)
        #expect(Self.spelled(off.deselected) == [S(d, 0, 0)])
        #expect(Self.bytes(state.selectedIDs(in: full)) == Self.bytes([c]))
        let cleared = try state.perform(.clear, targets: [], in: full, visible: visible)
        #expect(Self.spelled(cleared.deselected) == [S(c, path: nil)])
    }

    @Test func selectionFollowsSpellingsThroughMoves() throws {
        var source = DataSource(name: "spellings")
        _ = try source.apply(F.snapshot([("A", Self.spellings), ("S", ["y"])]),
                             policies: ["A": .multiple(), "S": .single()])
        _ = try source.select(.select, targets: [.id(d), .id(ring)])
        _ = try source.select(.select, targets: [.id(c)])
        #expect(source.selection.selectedCount == 3)

        // Reversed: every selected item moves and stays selected.
        var update = try source.apply(F.snapshot([("A", [ring, ang, d, c]), ("S", ["y"])]))
        #expect(!update.changeset.isEmpty && update.selection == SelectionDelta())
        #expect(Self.spelled(source.selection.selectedPaths(in: source.visible)) == [S(ring, 0, 0), S(d, 0, 2), S(c, 0, 3)])

        // Both "é" move into the single section: the earlier selected one stays.
        update = try source.apply(F.snapshot([("A", [ang, ring]), ("S", [c, "y", d])]))
        #expect(Self.spelled(update.selection.deselected) == [S(c, 1, 0)] && update.selection.selected.isEmpty)
        #expect(Self.bytes(source.selection.selectedIDs(in: source.snapshot)) == Self.bytes([ring, d]))
        #expect(source.selection.isSelected(d) && !source.selection.isSelected(c))

        // Deleting one spelling drops only that one.
        update = try source.apply(F.snapshot([("A", [ang, ring]), ("S", [c, "y"])]))
        #expect(Self.spelled(update.selection.deselected) == [S(d, path: nil)])
        #expect(Self.bytes(source.selection.selectedIDs(in: source.snapshot)) == Self.bytes([ring]))
    }
}
