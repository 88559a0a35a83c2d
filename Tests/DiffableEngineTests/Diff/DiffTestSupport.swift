@testable import DiffableEngine
import DiffableTestSupport

/// Random old/new snapshot pairs.
struct PairGenerator: RandomSnapshots {
    var rng: SplitMix64
    var nextID = 0
    let noContentChance = 0.2

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func randomSnapshot() -> Snapshot { randomSnapshot(maxSections: 5, maxItems: 8) }

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
