import Testing
@testable import DiffableServer
import DiffableTestSupport
@testable import DiffableProtocol

/// Bad input never crashes the daemon and never half-applies: random and
/// mutated requests for every method, in-process. Every request gets exactly
/// one response; a request that fails leaves the source's snapshot untouched.
struct ServerFuzzTests {
    static let methods = ["apply", "edit", "select", "setSelectionMode", "selection", "search", "highlights",
                          "snapshot", "sources", "drop", "initialize", "shutdown", "nope",
                          "viewport", "rows", "expand", "collapse", "outline"]

    static func viewport(_ rng: inout SplitMix64) -> JSON {
        Int.random(in: 0..<4, using: &rng) == 0 ? .null
            : .object(JSONObject([("start", .int(Int.random(in: 0...4, using: &rng))), ("count", .int(Int.random(in: 0...5, using: &rng)))]))
    }

    /// Mostly valid params for `method`, then (one time in three) one member
    /// replaced by a random value or removed.
    static func params(for method: String, _ rng: inout SplitMix64) -> JSON {
        var members: [(String, JSON)] = [("source", .string(Bool.random(using: &rng) ? "s" : "t"))]
        func id(_ n: Int) -> JSON { .string("i\(Int.random(in: 0..<n, using: &rng))") }
        switch method {
        case "apply":
            var pool = (0..<8).map { "i\($0)" }.shuffled(using: &rng)
            let sections: [JSON] = (0..<Int.random(in: 0...3, using: &rng)).map { s in
                let count = Int.random(in: 0...min(3, pool.count), using: &rng)
                var items = pool.prefix(count).map { JSON.object(JSONObject([("id", .string($0)), ("content", .object(JSONObject([("text", .string($0 + " g"))])))])) }
                pool.removeFirst(count)
                // Sometimes nested: the first item gets a child from the pool.
                if !items.isEmpty, !pool.isEmpty, Bool.random(using: &rng), case .object(let first) = items[0] {
                    let child = pool.removeFirst()
                    items[0] = .object(JSONObject(first.members.map { ($0.key, $0.value) } + [
                        ("children", .array([.object(JSONObject([("id", .string(child)), ("content", .string(child + " g"))]))])),
                        ("expanded", .bool(Bool.random(using: &rng))),
                    ]))
                }
                return .object(JSONObject([
                    ("id", .string("sec\(s)")),
                    ("selection", .string(["single", "multiple", "none"].randomElement(using: &rng) ?? "none")),
                    ("items", .array(items)),
                ]))
            }
            members.append(("sections", .array(sections)))
            if Bool.random(using: &rng) { members.append(("viewport", viewport(&rng))) }
            if Bool.random(using: &rng) { members.append(("echo", Bool.random(using: &rng) ? "ids" : "full")) }
        case "edit":
            let ops: [JSON] = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                switch Int.random(in: 0..<10, using: &rng) {
                case 6: return .object(JSONObject([("op", "moveItem"), ("id", id(8)), ("parent", id(8))]))
                case 7: return .object(JSONObject([("op", "appendItems"), ("parent", id(8)), ("items", .array([.string("n\(Int.random(in: 0..<1000, using: &rng))")]))]))
                case 8: return .object(JSONObject([("op", Bool.random(using: &rng) ? "expand" : "collapse"), ("ids", .array([id(8)]))]))
                case 9: return .object(JSONObject([("op", "replaceChildren"), ("parent", id(8)), ("items", .array([.string("n\(Int.random(in: 0..<1000, using: &rng))")]))]))
                case 0: return .object(JSONObject([("op", "appendItems"), ("items", .array([.string("n\(Int.random(in: 0..<1000, using: &rng))")]))]))
                case 1: return .object(JSONObject([("op", "deleteItems"), ("ids", .array([id(8)]))]))
                case 2: return .object(JSONObject([("op", "moveItem"), ("id", id(8)), ("after", id(8))]))
                case 3: return .object(JSONObject([("op", "reloadItems"), ("ids", .array([id(8)]))]))
                case 4: return .object(JSONObject([("op", "setContent"), ("items", .array([.object(JSONObject([("id", id(8)), ("content", "x")]))]))]))
                default: return .object(JSONObject([("op", "moveSection"), ("id", "sec0"), ("before", "sec1")]))
                }
            }
            members.append(("ops", .array(ops)))
        case "select":
            members.append(("action", .string(["select", "deselect", "toggle", "clear"].randomElement(using: &rng) ?? "select")))
            if Bool.random(using: &rng) { members.append(("ids", .array([id(8)]))) } else { members.append(("paths", .array([.array([.int(Int.random(in: 0...2, using: &rng)), .int(Int.random(in: 0...3, using: &rng))])]))) }
        case "setSelectionMode":
            members.append(("sections", .object(JSONObject([("sec\(Int.random(in: 0..<3, using: &rng))", .object(JSONObject([("mode", .string(["single", "multiple", "none"].randomElement(using: &rng) ?? "none"))])))]))))
        case "search":
            members.append(("query", .string(["", "i", "g", "i1", "zz"].randomElement(using: &rng) ?? "")))
            if Bool.random(using: &rng) { members.append(("mode", "fuzzy")) }
            if Bool.random(using: &rng) { members.append(("limit", .int(Int.random(in: 0...3, using: &rng)))) }
            if Bool.random(using: &rng) { members.append(("placeholder", .object(JSONObject([("id", "none")])))) }
            if Bool.random(using: &rng) { members.append(("viewport", viewport(&rng))) }
        case "highlights":
            members.append(("section", .int(Int.random(in: 0...2, using: &rng))))
        case "viewport", "rows":
            members.append(("start", .int(Int.random(in: 0...6, using: &rng))))
            members.append(("count", .int(Int.random(in: 0...6, using: &rng))))
        case "expand", "collapse":
            members.append(("ids", .array([id(8)])))
            if Bool.random(using: &rng) { members.append(("recursive", .bool(true))) }
        case "outline":
            members.append(("id", id(8)))
        default:
            break
        }
        if Bool.random(using: &rng) { members.append(("form", Bool.random(using: &rng) ? "steps" : "batch")) }
        if Int.random(in: 0..<3, using: &rng) == 0, !members.isEmpty {
            let index = Int.random(in: 0..<members.count, using: &rng)
            if Bool.random(using: &rng) { members[index].1 = JSONGenerator.value(&rng, depth: 2) } else { members.remove(at: index) }
        }
        return .object(JSONObject(members))
    }

    @Test func randomRequestsNeverCrashAndFailuresChangeNothing() {
        var rng = SplitMix64(seed: 20_261_121)
        let server = Server()
        _ = server.handle(message: .object(JSONObject([("jsonrpc", "2.0"), ("id", 0), ("method", "initialize")])))
        var successes: [String: Int] = [:]
        for id in 1...6_000 {
            let method = Self.methods.randomElement(using: &rng) ?? "apply"
            let before = server.sources.mapValues { ($0.version, $0.snapshot, $0.outline) }
            var members: [(String, JSON)] = [("jsonrpc", "2.0"), ("id", .int(id)), ("method", .string(method))]
            if Int.random(in: 0..<20, using: &rng) > 0 { members.append(("params", Self.params(for: method, &rng))) }
            let response = server.handle(message: .object(JSONObject(members)))
            guard case .object(let object)? = response else {
                Issue.record("request \(id) (\(method)) got no response object")
                continue
            }
            #expect(object["id"] == .int(id))
            if object["result"] != nil { successes[method, default: 0] += 1 }
            if object["error"] != nil {
                let after = server.sources.mapValues { ($0.version, $0.snapshot, $0.outline) }
                #expect(after.keys.sorted() == before.keys.sorted(), "request \(id) (\(method)) failed but changed the sources")
                for (name, state) in before {
                    #expect(after[name]?.0 == state.0 && after[name]?.1 == state.1 && after[name]?.2 == state.2,
                            "request \(id) (\(method)) failed but changed \(name)")
                }
            }
            if method == "shutdown" {
                // Start over: a shut-down server only answers errors.
                server.phase = .running
            }
        }
        // The generator must reach real work, not only errors.
        for method in ["apply", "edit", "select", "search", "snapshot", "drop", "viewport", "rows", "expand", "outline"] {
            #expect(successes[method, default: 0] > 5, "\(method) succeeded \(successes[method, default: 0]) times")
        }
    }
}
