import DiffableEngine

/// Reading the `sections` array of an `apply`, section by section, with
/// what each section's items released of the request (see `ReleasedRuns`).
extension ApplyScanner {
    /// What a `sections` array was read into (a refused section stands in
    /// as an empty one, with its problems).
    package struct SectionsRead {
        package var sections: [Section] = []
        package var objects: [JSON] = []
        package var nesting: [Nesting?] = []
        package var problems: [SectionProblems] = []
        package var arenaUse = ArenaUse()
        /// Per section, the runs of its items released while reading.
        package var released: [ReleasedRuns] = []
    }

    /// The sections of an array whose `[` was consumed; nil when
    /// `checkpoint` stopped reading (or the bytes are not JSON).
    /// `releasing`: what each section's reader may give back.
    package static func decodeSections(
        _ s: inout ByteScanner, hints: [JSONValidator.SplitHint] = [], previous: [Section] = [],
        releasing template: ReleasedRuns = .keeping, checkpoint: (ByteScanner) -> Bool
    ) -> SectionsRead? {
        var read = SectionsRead()
        var arenas = ByteArena.Writer()
        var isFirst = true
        // Sections added or removed before a section do not stop its items
        // from being found.
        var heldByID: [String: Int] = [:]
        for (index, section) in previous.enumerated() where heldByID[section.id] == nil { heldByID[section.id] = index }
        while true {
            guard let more = s.nextElement(isFirst: isFirst) else { return nil }
            if !more {
                read.arenaUse = arenas.use
                return read
            }
            isFirst = false
            let index = read.sections.count
            var released = template
            guard let section = decodeSection(
                &s, arenas: &arenas, path: "\(sectionsPath)[\(index)]", hints: hints,
                previous: { id in
                    if let id, let held = heldByID[id] { return previous[held].items }
                    return index < previous.count ? previous[index].items : ItemList()
                },
                released: &released, checkpoint: checkpoint)
            else { return nil }
            read.sections.append(section.section)
            read.objects.append(section.object)
            read.nesting.append(section.nesting)
            read.problems.append(section.problems)
            read.released.append(released)
        }
    }
}
