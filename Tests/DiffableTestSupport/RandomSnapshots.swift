import DiffableEngine

/// Random snapshots drawn from a seeded generator, with fresh ids
/// (`i1`, `s2`, …) that never repeat within one generator. The property
/// tests' generators (old/new pairs, edit sequences) adopt it and add
/// their own ways of changing what it draws.
package protocol RandomSnapshots {
    var rng: SplitMix64 { get set }
    /// The last number given to a fresh id.
    var nextID: Int { get set }
    /// How often `randomContent` draws no content.
    var noContentChance: Double { get }
}

extension RandomSnapshots {
    /// A random value in `range`.
    package mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }

    /// True with probability `p`.
    package mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

    /// No content (`noContentChance`), else one byte of 0, 1 or 2, so that
    /// contents often repeat and a content change often changes nothing.
    package mutating func randomContent() -> Content? {
        chance(noContentChance) ? nil : Content(bytes: [UInt8(int(0..<3))])
    }

    /// An item with a fresh id `i…`.
    package mutating func freshItem() -> Item {
        nextID += 1
        return Item(id: "i\(nextID)", content: randomContent())
    }

    /// A section with a fresh id `s…` and up to `maxItems` fresh items.
    package mutating func freshSection(maxItems: Int) -> Section {
        nextID += 1
        var section = Section(id: "s\(nextID)", header: randomContent())
        for _ in 0..<int(0..<(maxItems + 1)) { section.items.append(freshItem()) }
        return section
    }

    /// Up to `maxSections` fresh sections of up to `maxItems` items each.
    /// - Complexity: O(maxSections × maxItems)
    package mutating func randomSnapshot(maxSections: Int, maxItems: Int) -> Snapshot {
        var s = Snapshot()
        for _ in 0..<int(0..<(maxSections + 1)) { s.sections.append(freshSection(maxItems: maxItems)) }
        return s
    }
}
