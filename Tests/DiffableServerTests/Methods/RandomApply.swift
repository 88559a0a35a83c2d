@testable import DiffableServer
@testable import DiffableProtocol
import DiffableTestSupport


/// Random `apply` requests: mostly well-formed, with every kind of problem
/// mixed in unless `clean`.
enum RandomApply {
    static let ids = ["a", "b", "c", "d", "e", "f", "g", "h", "item-1", "item-2", "é", "e\u{301}", "日本", "x\"y", "😀", ""]

    static func pick<T, R: RandomNumberGenerator>(_ list: [T], _ rng: inout R) -> T {
        list[Int.random(in: 0..<list.count, using: &rng)]
    }

    static func chance<R: RandomNumberGenerator>(_ oneIn: Int, _ rng: inout R) -> Bool {
        Int.random(in: 0..<oneIn, using: &rng) == 0
    }

    static func content<R: RandomNumberGenerator>(_ rng: inout R) -> JSON {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return .string(JSONGenerator.string(&rng))
        case 1: return .object(JSONObject([("text", .string(JSONGenerator.string(&rng))), ("n", 1)]))
        case 2: return chance(3, &rng) ? .null : .object(JSONObject([("text", 5), ("text", .string("late"))]))
        default: return JSONGenerator.value(&rng)
        }
    }

    static func item<R: RandomNumberGenerator>(_ id: String, _ rng: inout R, clean: Bool) -> JSON {
        if chance(4, &rng) { return .string(id) }
        var members: [(String, JSON)] = [("id", .string(id))]
        if chance(2, &rng) { members.append(("content", content(&rng))) }
        if !clean {
            // An unknown member: refused (with a did-you-mean) on both paths.
            if chance(5, &rng) { members.append(("extra", JSONGenerator.value(&rng))) }
            if chance(20, &rng) { members[0].1 = 3 }
            if chance(20, &rng) { members.removeFirst() }
            if chance(20, &rng) { members.append(("id", .string(pick(ids, &rng)))) }
            if chance(30, &rng) { return .number("7") }
        }
        if chance(3, &rng) { members.reverse() }
        return .object(JSONObject(members))
    }

    static func params<R: RandomNumberGenerator>(_ rng: inout R, clean: Bool) -> JSON {
        var unused = clean ? (0..<200).map { "u\($0)" }.shuffled(using: &rng) : []
        var sections: [JSON] = []
        for s in 0..<Int.random(in: 0...3, using: &rng) {
            var members: [(String, JSON)] = [("id", .string(clean ? "s\(s)" : pick(["s0", "s1", "s2"], &rng)))]
            if chance(3, &rng) { members.append(("header", JSONGenerator.value(&rng))) }
            let itemList: [JSON] = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
                item(clean ? unused.popLast() ?? "z" : pick(ids, &rng), &rng, clean: clean)
            }
            // No items: left out, or (not clean) null, which is refused.
            if !chance(8, &rng) {
                members.append(("items", .array(itemList)))
            } else if !clean {
                members.append(("items", .null))
            }
            if chance(6, &rng) { members.append(("selection", .string(pick(["none", "single", "multiple", "bogus"], &rng)))) }
            if chance(8, &rng) { members.append(("allowsEmptySelection", .bool(Bool.random(using: &rng)))) }
            if !clean {
                if chance(20, &rng) { members.append(("items", .object(JSONObject()))) }
                if chance(20, &rng) { members.removeFirst() }
            }
            if chance(3, &rng) { members.shuffle(using: &rng) }
            sections.append(!clean && chance(30, &rng) ? .number("1") : .object(JSONObject(members)))
        }
        var members: [(String, JSON)] = [("source", .string(clean || !chance(20, &rng) ? "src" : "")),
                                         ("sections", .array(sections))]
        if chance(4, &rng) { members.append(("form", .string(pick(["batch", "steps"], &rng)))) }
        if !clean && chance(15, &rng) { members.append(("baseVersion", 1)) }
        if chance(3, &rng) { members.reverse() }
        return .object(JSONObject(members))
    }

    static func body<R: RandomNumberGenerator>(id: Int, _ rng: inout R, clean: Bool = false) -> String {
        let params = NoisyJSON.write(params(&rng, clean: clean), &rng, noisyKeys: !clean)
        return #"{"jsonrpc":"2.0","id":\#(id),"method":"apply","params":\#(params)}"#
    }

    /// Truncates the body or overwrites one byte: usually a parse error.
    static func corrupt<R: RandomNumberGenerator>(_ body: inout [UInt8], _ rng: inout R) {
        guard !body.isEmpty else { return }
        let at = Int.random(in: 0..<body.count, using: &rng)
        if chance(2, &rng) {
            body.removeSubrange(at...)
        } else {
            body[at] = pick(Array("{}[],:\"\\ x0".utf8) + [0x01, 0xC3, 0xFF], &rng)
        }
    }
}
