import DiffableEngine
import DiffableProtocol

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
    var ids: IDStyle = .short

    /// The ids users have, not only short ones Swift stores inline.
    enum IDStyle: String {
        /// `i123`: up to 15 UTF-8 bytes, stored inline (no allocation).
        case short
        /// 36-byte UUIDs (heap strings).
        case uuid
        /// File paths of 40–90 bytes.
        case path

        func id(_ n: Int, prefix: String) -> String {
            switch self {
            case .short: return "\(prefix)\(n)"
            case .uuid:
                // Deterministic, UUID-shaped: 8-4-4-4-12 hex digits.
                var z = UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15 ^ (prefix == "i" ? 0 : 0xABCD)
                func hex(_ digits: Int) -> String {
                    z = (z ^ (z >> 31)) &* 0xBF58_476D_1CE4_E5B9
                    let s = String(z, radix: 16)
                    return String(String(repeating: "0", count: max(0, digits - s.count)) + s).suffix(digits).description
                }
                return "\(hex(8))-\(hex(4))-4\(hex(3))-a\(hex(3))-\(hex(12))"
            case .path:
                let dirs = ["Sources", "Tests", "protocol/clients", "Sources/DiffableEngine/Search", "docs/guides/advanced"]
                let names = ["ItemList+Collection", "SearchIndex+Narrowing", "view", "SelectionState+Operations", "x"]
                return "\(dirs[n % dirs.count])/module\(n % 97)/\(names[(n / 7) % names.count])_\(prefix)\(n).swift"
            }
        }
    }

    var description: String {
        "\(count) \(ids == .short ? "short " : ids == .uuid ? "UUID " : "path-like ")ids in \(sections) section\(sections == 1 ? "" : "s"); delete \(deletes), insert \(inserts), move \(moves)"
    }

    /// Arguments that rebuild this workload in a child process (`--stdlib-child`).
    var arguments: [String] { ["\(count)", "\(deletes)", "\(inserts)", "\(moves)", "\(seed)", ids.rawValue] }

    init(count: Int, deletes: Int, inserts: Int, moves: Int, sections: Int = 1, seed: UInt64 = 0xD1FF_AB1E,
         ids: IDStyle = .short) {
        self.count = count
        self.deletes = deletes
        self.inserts = inserts
        self.moves = moves
        self.sections = sections
        self.seed = seed
        self.ids = ids
    }

    init?(arguments: [String]) {
        guard arguments.count == 6, let c = Int(arguments[0]), let d = Int(arguments[1]), let i = Int(arguments[2]),
              let m = Int(arguments[3]), let s = UInt64(arguments[4]), let style = IDStyle(rawValue: arguments[5]) else { return nil }
        self.init(count: c, deletes: d, inserts: i, moves: m, seed: s, ids: style)
    }

    /// Flat old and new id sequences.
    /// - Complexity: O(count log count).
    func flatIDs() -> (old: [String], new: [String]) {
        precondition(deletes + moves <= count)
        var rng = SplitMix64(seed: seed)
        let old = (0..<count).map { ids.id($0, prefix: "i") }
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
            placed.append((Int.random(in: 0...survivors.count, using: &rng), rng.next(), ids.id(k, prefix: "n")))
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
    /// An id of both is one item held by both, as the daemon's decoder
    /// keeps the items a re-sent list repeats (`ItemRecycler`): the diff
    /// then finds it equal without reading its bytes.
    func snapshots() -> (old: Snapshot, new: Snapshot, oldIDs: [String], newIDs: [String]) {
        let (oldIDs, newIDs) = flatIDs()
        let oldItems = oldIDs.map { Item(id: $0) }
        var held = [String: Int](minimumCapacity: oldIDs.count)
        for (k, id) in oldIDs.enumerated() { held[id] = k }
        let newItems = newIDs.map { id in held[id].map { oldItems[$0] } ?? Item(id: id) }
        return (Self.cut(oldItems, into: sections), Self.cut(newItems, into: sections), oldIDs, newIDs)
    }

    /// `items` cut into `sections` sections of (nearly) equal size, ids `s0`, `s1`, …
    static func cut(_ items: [Item], into sections: Int) -> Snapshot {
        var result: [Section] = []
        result.reserveCapacity(sections)
        for s in 0..<sections {
            let lower = items.count * s / sections
            let upper = items.count * (s + 1) / sections
            result.append(Section(id: "s\(s)", items: Array(items[lower..<upper])))
        }
        return Snapshot(sections: result)
    }
}
