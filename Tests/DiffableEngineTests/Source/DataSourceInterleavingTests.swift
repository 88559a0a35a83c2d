import Testing
@testable import DiffableEngine

/// Random interleavings of apply, edit, select, policy changes and search on
/// one data source. After every step: the returned diff replays the previous
/// visible snapshot into the new one (both forms), and the selection keeps
/// its invariants — single sections hold at most one selected id, `none`
/// sections none, only ids present in the source are selected, and the
/// reported rows are exactly the visible selected rows.
struct DataSourceInterleavingTests {
    static let modes: [SectionSelectionPolicy] = [.disabled, .single(), .single(allowsEmpty: false), .multiple()]

    @Test func invariantsHoldAcrossRandomInterleavings() throws {
        for seed in UInt64(1)...150 {
            var g = EditGenerator(seed: seed)
            var source = DataSource(name: "s")
            _ = try source.apply(g.randomSnapshot(maxSections: 3, maxItems: 5))
            for step in 0..<40 {
                let before = source.visible
                let beforeSelection = source.selection
                let beforeVersion = source.version
                var update: DataSource.Update?
                switch g.int(0..<10) {
                case 0:
                    update = try source.apply(g.randomSnapshot(maxSections: 3, maxItems: 5))
                case 1, 2, 3:
                    let (ops, _) = g.randomOps(on: source.snapshot, count: g.int(1..<4))
                    update = try source.edit(ops)
                case 4, 5, 6:
                    let ids = source.snapshot.sections.flatMap { $0.items.map(\.id) }
                    guard !ids.isEmpty else { continue }
                    let targets = (0..<g.int(1..<3)).map { _ in SelectionTarget.id(ids[g.int(0..<ids.count)]) }
                    let action = [SelectionAction.select, .deselect, .toggle][g.int(0..<3)]
                    do {
                        _ = try source.select(action, targets: targets)
                    } catch {
                        #expect(source.selection == beforeSelection, "seed \(seed) step \(step): refused select changed the selection")
                        #expect(source.version == beforeVersion, "seed \(seed) step \(step): refused select bumped the version")
                    }
                case 7:
                    var policies: [String: SectionSelectionPolicy] = [:]
                    for section in source.snapshot.sections where g.chance(0.6) {
                        policies[section.id] = Self.modes[g.int(0..<Self.modes.count)]
                    }
                    _ = try source.setSelectionPolicies(policies)
                default:
                    let queries = ["", "\u{1}", "\u{2}", "\u{0}"]
                    let query = SearchQuery(text: queries[g.int(0..<queries.count)], mode: .substring, order: .source)
                    update = source.setSearch(SearchSettings(query: query))
                }
                if let update {
                    #expect(update.oldVisible == before, "seed \(seed) step \(step)")
                    let batch = try before.applyingBatch(update.changeset, contentFrom: update.newVisible)
                    #expect(batch == source.visible, "seed \(seed) step \(step): batch replay")
                    let steps = update.changeset.steps(from: before, to: update.newVisible)
                    #expect(try before.applyingSteps(steps, contentFrom: update.newVisible) == source.visible,
                            "seed \(seed) step \(step): steps replay")
                }
                checkSelection(source, seed: seed, step: step)
            }
        }
    }

    func checkSelection(_ source: DataSource, seed: UInt64, step: Int) {
        let selected = source.selection.selectedIDs(in: source.snapshot)
        #expect(selected.count == source.selection.selectedCount, "seed \(seed) step \(step): only present ids are selected")
        for section in source.snapshot.sections {
            let inSection = section.items.filter { source.selection.isSelected($0.id) }
            switch source.selection.policy(for: section.id).mode {
            case .none: #expect(inSection.isEmpty, "seed \(seed) step \(step): none section \(section.id) has a selection")
            case .single: #expect(inSection.count <= 1, "seed \(seed) step \(step): single section \(section.id) holds \(inSection.count)")
            case .multiple: break
            }
        }
        var expectedRows: [SelectedRow] = []
        for (s, section) in source.visible.sections.enumerated() {
            for (r, item) in section.items.enumerated() where source.selection.isSelected(item.id) {
                expectedRows.append(SelectedRow(id: item.id, path: ItemPath(section: s, row: r)))
            }
        }
        #expect(source.selection.selectedPaths(in: source.visible) == expectedRows, "seed \(seed) step \(step): rows")
    }
}
