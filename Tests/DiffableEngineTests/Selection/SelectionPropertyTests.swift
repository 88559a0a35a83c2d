import Testing
import DiffableEngine
import DiffableTestSupport

/// Random interleavings of snapshot changes, policy changes and selection
/// requests, checked against the selection invariants after every step.
@Suite struct SelectionPropertyTests {
    static let sectionPool = (0..<5).map { "s\($0)" }
    static let itemPool = (0..<24).map { "i\($0)" }

    static func randomPolicy(_ rng: inout SplitMix64) -> SectionSelectionPolicy {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return .disabled
        case 1: return .single()
        case 2: return .single(allowsEmpty: false)
        case 3: return .multiple()
        default: return .multiple(allowsEmpty: false)
        }
    }

    static func randomSnapshot(_ rng: inout SplitMix64, from old: Snapshot) -> Snapshot {
        var sections = old.sections
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            // Brand new layout: each pool item present with p = 0.7.
            let ids = sectionPool.filter { _ in Int.random(in: 0..<4, using: &rng) > 0 }.shuffled(using: &rng)
            sections = ids.map { Section(id: $0) }
            guard !sections.isEmpty else { return Snapshot() }
            for id in itemPool.shuffled(using: &rng) where Int.random(in: 0..<10, using: &rng) < 7 {
                sections[Int.random(in: 0..<sections.count, using: &rng)].items.append(Item(id: id))
            }
        case 1:
            // Move one item to another section.
            let nonEmpty = sections.indices.filter { !sections[$0].items.isEmpty }
            guard let from = nonEmpty.randomElement(using: &rng), !sections.isEmpty else { break }
            let item = sections[from].items.remove(at: Int.random(in: 0..<sections[from].items.count, using: &rng))
            let to = Int.random(in: 0..<sections.count, using: &rng)
            sections[to].items.insert(item, at: Int.random(in: 0...sections[to].items.count, using: &rng))
        case 2:
            // Delete one item, or a whole section.
            guard !sections.isEmpty else { break }
            let s = Int.random(in: 0..<sections.count, using: &rng)
            if sections[s].items.isEmpty || Bool.random(using: &rng) {
                sections.remove(at: s)
            } else {
                sections[s].items.remove(at: Int.random(in: 0..<sections[s].items.count, using: &rng))
            }
        default:
            // Insert an absent item, or reorder sections.
            let present = Set(sections.flatMap { $0.items.map(\.id) })
            if let id = itemPool.filter({ !present.contains($0) }).randomElement(using: &rng), !sections.isEmpty {
                let s = Int.random(in: 0..<sections.count, using: &rng)
                sections[s].items.insert(Item(id: id), at: Int.random(in: 0...sections[s].items.count, using: &rng))
            } else {
                sections.shuffle(using: &rng)
            }
        }
        return Snapshot(sections: sections)
    }

    static func randomTarget(_ rng: inout SplitMix64, visible: Snapshot) -> SelectionTarget {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<5:
            return .id(itemPool.randomElement(using: &rng) ?? "i0")
        case 5..<9:
            let s = Int.random(in: 0...max(0, visible.sections.count), using: &rng)
            let rows = s < visible.sections.count ? visible.sections[s].items.count : 1
            return .path(ItemPath(section: s, row: Int.random(in: 0...rows, using: &rng)))
        default:
            return .section(sectionPool.randomElement(using: &rng) ?? "s0")
        }
    }

    struct World {
        var full = Snapshot()
        var visible = Snapshot()
        var state = SelectionState()
    }

    /// Section id of each item of `full`.
    static func sections(of full: Snapshot) -> [String: String] {
        var result: [String: String] = [:]
        for section in full.sections { for item in section.items { result[item.id] = section.id } }
        return result
    }

    static func visiblePaths(_ visible: Snapshot) -> [String: ItemPath] {
        var result: [String: ItemPath] = [:]
        for (s, section) in visible.sections.enumerated() {
            for (r, item) in section.items.enumerated() { result[item.id] = ItemPath(section: s, row: r) }
        }
        return result
    }

    static func checkInvariants(_ world: World, _ context: @autoclosure () -> String) {
        let state = world.state
        let selected = state.selectedIDs(in: world.full)
        #expect(selected.count == state.selectedCount, "only present ids are selected: \(context())")
        for section in world.full.sections {
            let count = section.items.filter { state.isSelected($0.id) }.count
            switch state.policy(for: section.id).mode {
            case .none: #expect(count == 0, "none section \(section.id) is empty: \(context())")
            case .single: #expect(count <= 1, "single section \(section.id) holds ≤ 1: \(context())")
            case .multiple: break
            }
        }
        let paths = visiblePaths(world.visible)
        let rows = state.selectedPaths(in: world.visible)
        #expect(rows.map(\.id) == selected.filter { paths[$0] != nil }, "selectedPaths: \(context())")
        #expect(rows.allSatisfy { paths[$0.id] == $0.path }, "selectedPaths positions: \(context())")
    }

    /// The delta describes exactly the difference, with visible paths.
    static func checkDelta(
        _ delta: SelectionDelta, before: Set<String>, after: Set<String>, visible: Snapshot,
        _ context: @autoclosure () -> String
    ) {
        let added = Set(delta.selected.map(\.id))
        let removed = Set(delta.deselected.map(\.id))
        #expect(added.count == delta.selected.count && removed.count == delta.deselected.count, "no repeats: \(context())")
        #expect(added.isDisjoint(with: before), "selected were unselected: \(context())")
        #expect(removed.isSubset(of: before), "deselected were selected: \(context())")
        #expect(before.subtracting(removed).union(added) == after, "delta matches state: \(context())")
        #expect(Set(delta.kept.map(\.id)).isSubset(of: after), "kept stay selected: \(context())")
        let paths = visiblePaths(visible)
        for change in delta.selected + delta.deselected + delta.kept {
            #expect(change.path == paths[change.id], "visible path of \(change.id): \(context())")
        }
    }

    static func selectedSet(_ world: World) -> Set<String> {
        Set(world.state.selectedIDs(in: world.full))
    }

    @Test(arguments: 0..<40)
    func randomInterleavings(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &* 7919 &+ 1)
        var world = World()
        var policies: [String: SectionSelectionPolicy] = [:]
        for id in Self.sectionPool { policies[id] = Self.randomPolicy(&rng) }
        world.state = try SelectionState(policies: policies)
        world.full = Self.randomSnapshot(&rng, from: Snapshot())
        world.visible = world.full
        var errors = 0

        for step in 0..<150 {
            let context = "seed \(seed) step \(step)"
            let before = Self.selectedSet(world)
            let roll = Int.random(in: 0..<100, using: &rng)
            if roll < 25 {
                // Snapshot change, then reconcile.
                world.full = Self.randomSnapshot(&rng, from: world.full)
                let hide = Int.random(in: 0..<3, using: &rng)
                world.visible = hide == 0
                    ? world.full
                    : SelectionFixtures.filtered(world.full) { _ in Int.random(in: 0..<3, using: &rng) > 0 }
                let stillPresent = before.filter { Self.sections(of: world.full)[$0] != nil }
                let delta = world.state.reconcile(with: world.full, visible: world.visible)
                #expect(delta.selected.isEmpty, "reconcile never selects: \(context)")
                #expect(Set(delta.deselected.filter { $0.path == nil }.map(\.id))
                    .isSuperset(of: before.subtracting(stillPresent)), "deleted items reported: \(context)")
                Self.checkDelta(delta, before: before, after: Self.selectedSet(world), visible: world.visible, context)
            } else if roll < 30 {
                // Policy change (sometimes invalid).
                let id = Self.sectionPool.randomElement(using: &rng) ?? "s0"
                let policy = Int.random(in: 0..<8, using: &rng) == 0
                    ? SectionSelectionPolicy(mode: .none, allowsEmpty: false)
                    : Self.randomPolicy(&rng)
                let saved = world.state
                do {
                    let delta = try world.state.setPolicies([id: policy], in: world.full, visible: world.visible)
                    #expect(delta.selected.isEmpty, "setPolicies never selects: \(context)")
                    Self.checkDelta(delta, before: before, after: Self.selectedSet(world), visible: world.visible, context)
                } catch {
                    #expect(error == .invalidPolicy(sectionID: id, policy: policy), "\(context)")
                    #expect(world.state == saved, "refused policy changes nothing: \(context)")
                    errors += 1
                }
            } else {
                // Selection request.
                let action = SelectionAction.allCases.randomElement(using: &rng) ?? .toggle
                let count = Int.random(in: 0...3, using: &rng)
                let targets = (0..<count).map { _ in Self.randomTarget(&rng, visible: world.visible) }
                let saved = world.state
                let sectionOf = Self.sections(of: world.full)
                func selectedCount(in sectionID: String) -> Int {
                    before.filter { sectionOf[$0] == sectionID }.count
                }
                do {
                    let delta = try world.state.perform(action, targets: targets, in: world.full, visible: world.visible)
                    let after = Self.selectedSet(world)
                    Self.checkDelta(delta, before: before, after: after, visible: world.visible, "\(context) \(action) \(targets)")
                    if action != .clear {
                        // allowsEmpty = false: a non-empty section stays non-empty.
                        for section in world.full.sections
                        where !world.state.policy(for: section.id).allowsEmpty && selectedCount(in: section.id) > 0 {
                            #expect(section.items.contains { after.contains($0.id) }, "\(context) keeps \(section.id)")
                        }
                    }
                    if action == .select {
                        for target in targets {
                            let id: String? = switch target {
                            case .id(let id): id
                            case .path(let path): world.visible.item(at: path)?.id
                            case .section: nil
                            }
                            if let id { #expect(after.contains(id), "\(context) selected \(id)") }
                        }
                    }
                    if action == .clear && targets.isEmpty {
                        #expect(after.isEmpty, "\(context) clear all")
                    }
                } catch {
                    #expect(world.state == saved, "refused request changes nothing: \(context) \(action) \(targets) \(error)")
                    errors += 1
                }
            }
            Self.checkInvariants(world, context)
        }
        // The generator should exercise both outcomes.
        #expect(errors > 0 && errors < 150, "seed \(seed): \(errors) errors")
    }
}
