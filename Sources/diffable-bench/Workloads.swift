import DiffableEngine

/// A small, fast, seedable PRNG (SplitMix64): every workload is reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The classic diff workload: `count` ids; delete `deletes` of them, insert
/// `inserts` new ones at random places, move `moves` survivors to random
/// places (all chosen with a seeded PRNG). The same flat id sequences are cut
/// into `sections` equal sections on each side (items that end up across a
/// cut become cross-section moves).
struct ClassicWorkload {
    var count: Int
    var deletes: Int
    var inserts: Int
    var moves: Int
    var sections: Int = 1
    var seed: UInt64 = 0xD1FF_AB1E

    var description: String {
        "\(count) ids in \(sections) section\(sections == 1 ? "" : "s"); delete \(deletes), insert \(inserts), move \(moves)"
    }

    /// Arguments that rebuild this workload in a child process (`--stdlib-child`).
    var arguments: [String] { ["\(count)", "\(deletes)", "\(inserts)", "\(moves)", "\(seed)"] }

    init(count: Int, deletes: Int, inserts: Int, moves: Int, sections: Int = 1, seed: UInt64 = 0xD1FF_AB1E) {
        self.count = count
        self.deletes = deletes
        self.inserts = inserts
        self.moves = moves
        self.sections = sections
        self.seed = seed
    }

    init?(arguments: [String]) {
        guard arguments.count == 5, let c = Int(arguments[0]), let d = Int(arguments[1]), let i = Int(arguments[2]),
              let m = Int(arguments[3]), let s = UInt64(arguments[4]) else { return nil }
        self.init(count: c, deletes: d, inserts: i, moves: m, seed: s)
    }

    /// Flat old and new id sequences.
    /// - Complexity: O(count log count).
    func flatIDs() -> (old: [String], new: [String]) {
        precondition(deletes + moves <= count)
        var rng = SplitMix64(seed: seed)
        let old = (0..<count).map { "i\($0)" }
        // Partial Fisher–Yates: the first `deletes` picks are deleted, the next `moves` picks move.
        var order = [Int32](0..<Int32(count))
        for k in 0..<(deletes + moves) {
            let j = Int.random(in: k..<count, using: &rng)
            order.swapAt(k, j)
        }
        // 0 survives, 1 deleted, 2 moves
        var fate = [UInt8](repeating: 0, count: count)
        for k in 0..<deletes { fate[Int(order[k])] = 1 }
        for k in deletes..<(deletes + moves) { fate[Int(order[k])] = 2 }
        var survivors: [String] = []
        survivors.reserveCapacity(count - deletes - moves)
        for i in 0..<count where fate[i] == 0 { survivors.append(old[i]) }
        // Movers (in pick order) and inserted ids, each placed before survivor `slot`.
        var placed: [(slot: Int, tie: UInt64, id: String)] = []
        placed.reserveCapacity(moves + inserts)
        for k in deletes..<(deletes + moves) {
            placed.append((Int.random(in: 0...survivors.count, using: &rng), rng.next(), old[Int(order[k])]))
        }
        for k in 0..<inserts {
            placed.append((Int.random(in: 0...survivors.count, using: &rng), rng.next(), "n\(k)"))
        }
        placed.sort { ($0.slot, $0.tie) < ($1.slot, $1.tie) }
        var new: [String] = []
        new.reserveCapacity(survivors.count + placed.count)
        var p = 0
        for (s, id) in survivors.enumerated() {
            while p < placed.count, placed[p].slot == s { new.append(placed[p].id); p += 1 }
            new.append(id)
        }
        while p < placed.count { new.append(placed[p].id); p += 1 }
        return (old, new)
    }

    /// Old and new snapshots (items without content) plus the flat ids.
    func snapshots() -> (old: Snapshot, new: Snapshot, oldIDs: [String], newIDs: [String]) {
        let (oldIDs, newIDs) = flatIDs()
        return (Self.cut(oldIDs, into: sections), Self.cut(newIDs, into: sections), oldIDs, newIDs)
    }

    /// `ids` cut into `sections` sections of (nearly) equal size, ids `s0`, `s1`, …
    static func cut(_ ids: [String], into sections: Int) -> Snapshot {
        var result: [Section] = []
        result.reserveCapacity(sections)
        for s in 0..<sections {
            let lower = ids.count * s / sections
            let upper = ids.count * (s + 1) / sections
            result.append(Section(id: "s\(s)", items: ids[lower..<upper].map { Item(id: $0) }))
        }
        return Snapshot(sections: result)
    }
}
