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

    /// A section: what it was read into, or what the codec refused in it.
    /// `released`: an empty reader's runs, which the section's items release.
    /// nil when `checkpoint` stopped reading (or the bytes are not JSON).
    package static func decodeSection(
        _ s: inout ByteScanner, arenas: inout ByteArena.Writer, path: String, hints: [JSONValidator.SplitHint] = [],
        previous: (_ sectionID: String?) -> ItemList = { _ in ItemList() }, released: inout ReleasedRuns,
        checkpoint: (ByteScanner) -> Bool
    ) -> SectionRead? {
        var refused = SectionRead(section: Section(id: ""), object: .null, nesting: nil, problems: SectionProblems())
        guard s.byte(s.pos) == UInt8(ascii: "{") else {
            // Not an object: the codec names it.
            guard let value = s.skipValue(), let tree = s.tree(value.range) else { return nil }
            _ = refused.problems.refuse(section: tree, path: path)
            return refused
        }
        var members: [(String, JSON)] = []
        // As for `sections`: the last `items` counts, each decoded in place.
        var items: [Item] = []
        /// The items when read in parts (see `decodeItemsInParts`).
        var parts: [[Item]]?
        var nesting: Nesting?
        var problems = SectionProblems()
        let readAll = ByteScanner.readNamedObject(&s) { s, key, name in
            let isItems = s.name(key, is: "items")
            if isItems {
                items = []
                parts = nil
                nesting = nil
                problems = SectionProblems()
            }
            guard isItems, s.byte(s.pos) == UInt8(ascii: "[") else {
                // `items` of another type (null too) is the codec's to name.
                guard let value = s.skipValue(), let tree = s.tree(value.range) else { return false }
                members.append((name, tree))
                return true
            }
            members.append((name, .array([])))
            let array = s.pos
            s.pos += 1
            // A large array the validator left hints in is read in parts on
            // several threads, when they agree with a sequential read (flat
            // items; else read again).
            let starts = partStarts(hints, array: array)
            // The section's id, when it came first (the last one counts).
            let sectionID = members.last { $0.0 == "id" }?.1.stringValue
            let read = previous(sectionID).withRecycler { recycler -> Bool in
                parts = starts.isEmpty ? nil
                    : decodeItemsInParts(&s, starts: starts, arenas: &arenas, recycler: recycler,
                                         released: &released, checkpoint: checkpoint)
                guard parts == nil else { return true }
                s.pos = array + 1
                var recycler = recycler.starting(near: 0)
                items.reserveCapacity(recycler.count + recycler.count / 64)
                return decodeSectionItems(&s, arenas: &arenas, into: &items, nesting: &nesting,
                                          recycler: &recycler, released: &released, problems: &problems,
                                          path: path, checkpoint: checkpoint)
            }
            guard read else { return false }
            // Growth by doubling can leave up to half the buffer unused; the
            // snapshot keeps this array, so give back a large slack.
            parts = parts?.map(withoutSlack)
            items = withoutSlack(items)
            return true
        }
        guard readAll else { return nil }
        let object = JSON.object(JSONObject(members))
        refused.nesting = nesting
        // The section's own problems come before its items' (as the codec reads it).
        guard var section = problems.refuse(section: object, path: path) else {
            refused.problems = problems
            return refused
        }
        section.items = parts.map(ItemList.init(joining:)) ?? ItemList(items)
        return SectionRead(section: section, object: object, nesting: nesting, problems: problems)
    }
}
