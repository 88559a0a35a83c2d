@testable import DiffableEngine

/// SplitMix64: a tiny seeded generator so random tests reproduce from a seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func content(_ text: String) -> Content { Content(bytes: Array(text.utf8)) }

/// Shorthand: `snap(("A", ["a", "b"]), ("B", []))`; an item "a=x" has content "x".
func snap(_ sections: (String, [String])...) -> Snapshot {
    Snapshot(sections: sections.map { id, items in
        let parts = id.split(separator: "=", maxSplits: 1).map(String.init)
        return Section(id: parts[0], header: parts.count > 1 ? content(parts[1]) : nil, items: items.map { spec in
            let p = spec.split(separator: "=", maxSplits: 1).map(String.init)
            return Item(id: p[0], content: p.count > 1 ? content(p[1]) : nil)
        })
    })
}

func path(_ section: Int, _ row: Int) -> ItemPath { ItemPath(section: section, row: row) }

/// Random old/new snapshot pairs.
struct PairGenerator {
    var rng: SplitMix64
    var nextID = 0

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

    mutating func randomContent() -> Content? {
        chance(0.2) ? nil : Content(bytes: [UInt8(int(0..<3))])
    }
    mutating func freshItem() -> Item {
        nextID += 1
        return Item(id: "i\(nextID)", content: randomContent())
    }
    mutating func freshSection(maxItems: Int) -> Section {
        nextID += 1
        var section = Section(id: "s\(nextID)", header: randomContent())
        for _ in 0..<int(0..<(maxItems + 1)) { section.items.append(freshItem()) }
        return section
    }
    mutating func randomSnapshot(maxSections: Int = 5, maxItems: Int = 8) -> Snapshot {
        var s = Snapshot()
        for _ in 0..<int(0..<(maxSections + 1)) { s.sections.append(freshSection(maxItems: maxItems)) }
        return s
    }

    /// `new` derived from `old` by random edits of intensity `p`.
    mutating func derive(from old: Snapshot, intensity p: Double) -> Snapshot {
        var sections = old.sections
        sections.removeAll { _ in chance(p * 0.5) }
        for i in sections.indices where chance(p * 0.5) { sections[i].header = randomContent() }
        for _ in 0..<int(0..<3) where sections.count > 1 && chance(p) {
            let moved = sections.remove(at: int(0..<sections.count))
            sections.insert(moved, at: int(0..<(sections.count + 1)))
        }
        for i in sections.indices {
            sections[i].items.removeAll { _ in chance(p * 0.5) }
            for j in sections[i].items.indices where chance(p * 0.5) {
                sections[i].items[j].content = randomContent()
            }
        }
        // New sections, some of them taking items out of existing sections.
        for _ in 0..<int(0..<3) where chance(p) {
            var section = freshSection(maxItems: 3)
            for _ in 0..<int(0..<3) {
                guard let from = sections.indices.filter({ !sections[$0].items.isEmpty }).randomElement(using: &rng)
                else { break }
                section.items.append(sections[from].items.remove(at: int(0..<sections[from].items.count)))
            }
            sections.insert(section, at: int(0..<(sections.count + 1)))
        }
        // Item moves within and across sections.
        let total = sections.reduce(0) { $0 + $1.items.count }
        for _ in 0..<Int(Double(total) * p) {
            guard let from = sections.indices.filter({ !sections[$0].items.isEmpty }).randomElement(using: &rng)
            else { break }
            let item = sections[from].items.remove(at: int(0..<sections[from].items.count))
            let to = int(0..<sections.count)
            sections[to].items.insert(item, at: int(0..<(sections[to].items.count + 1)))
        }
        // Item inserts.
        for i in sections.indices {
            for _ in 0..<int(0..<3) where chance(p) {
                sections[i].items.insert(freshItem(), at: int(0..<(sections[i].items.count + 1)))
            }
        }
        return Snapshot(sections: sections)
    }

    /// Two unrelated snapshots drawing ids from one small pool.
    mutating func randomPair() -> (Snapshot, Snapshot) {
        let itemPool = (0..<int(0..<16)).map { "p\($0)" }
        let sectionPool = (0..<int(1..<6)).map { "q\($0)" }
        func make(_ g: inout PairGenerator) -> Snapshot {
            let ids = itemPool.filter { _ in g.chance(0.7) }.shuffled(using: &g.rng)
            var sections = sectionPool.filter { _ in g.chance(0.7) }.shuffled(using: &g.rng)
                .map { Section(id: $0, header: g.randomContent()) }
            guard !sections.isEmpty else { return Snapshot() }
            for id in ids {
                sections[g.int(0..<sections.count)].items.append(Item(id: id, content: g.randomContent()))
            }
            return Snapshot(sections: sections)
        }
        return (make(&self), make(&self))
    }
}

/// Phase of a step in the documented order.
func phase(of step: Step) -> Int {
    switch step {
    case .deleteItems: 0
    case .deleteSections: 1
    case .moveSection: 2
    case .insertSections: 3
    case .reloadSection: 4
    case .moveItem: 5
    case .insertItems: 6
    case .reloadItems, .reconfigureItems: 7
    }
}

extension Item {
    /// Two distinct ids `prefix0`, `prefix1`, … whose `idHash` is the same
    /// in this process (the hash is seeded per process, so the pair is found
    /// at run time: a birthday search over a few hundred thousand ids).
    static func idsSharingAHash(prefix: String) -> (String, String)? {
        var seen: [UInt32: String] = [:]
        for n in 0..<2_000_000 {
            let id = "\(prefix)\(n)"
            let hash = Item(id: id).idHash
            if let other = seen[hash] { return (other, id) }
            seen[hash] = id
        }
        return nil
    }
}
