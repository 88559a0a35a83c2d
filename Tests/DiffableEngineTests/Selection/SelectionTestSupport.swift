import DiffableEngine

/// Helpers shared by the Selection*Tests files.
enum SelectionFixtures {
    /// A snapshot from `(sectionID, [itemID])` pairs.
    static func snapshot(_ sections: [(String, [String])]) -> Snapshot {
        Snapshot(sections: sections.map { Section(id: $0.0, items: $0.1.map { Item(id: $0) }) })
    }

    /// `full` with only the items whose id passes `keep` (sections stay).
    static func filtered(_ full: Snapshot, keep: (String) -> Bool) -> Snapshot {
        Snapshot(sections: full.sections.map { section in
            var copy = section
            copy.items = section.items.filter { keep($0.id) }
            return copy
        })
    }

    /// The settings screen of the seed: "numbers" single (non-empty) and
    /// "letters" multiple.
    static let settings = snapshot([
        ("numbers", ["one", "two", "three"]),
        ("letters", ["a", "b", "c", "d"]),
    ])

    static let settingsPolicies: [String: SectionSelectionPolicy] = [
        "numbers": .single(allowsEmpty: false),
        "letters": .multiple(),
    ]

    static func change(_ id: String, _ section: Int, _ row: Int) -> SelectionDelta.Change {
        SelectionDelta.Change(id: id, path: ItemPath(section: section, row: row))
    }

    static func hidden(_ id: String) -> SelectionDelta.Change {
        SelectionDelta.Change(id: id, path: nil)
    }
}
