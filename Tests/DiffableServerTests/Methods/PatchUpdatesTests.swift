import Testing
@testable import DiffableServer
import DiffableTestSupport
@testable import DiffableProtocol

/// `updates: "patch"`: rows the frontend holds arrive as patches of their
/// content, in every form, and a frontend that applies them ends where
/// `snapshot` says (content byte for byte).
@Suite struct PatchUpdatesTests {
    /// A one-section frontend: rows of `(id, content)`, content as JSON.
    struct Frontend {
        var rows: [(id: String, content: JSON?)] = []
        var patches = 0

        /// The row's new content: its `content`, or its `patch` applied to
        /// what the frontend held.
        mutating func content(of item: JSON, held: JSON?) throws -> JSON? {
            if let patch = item["patch"] {
                patches += 1
                let ops = try JSONPatch.decode(patch, path: "patch")
                return try JSONPatch.apply(ops, to: try #require(held))
            }
            return item["content"]
        }

        /// (row, item) of each row of a reload/reconfigure run: `{at, items}`,
        /// or a patch run `{rows, patches}` (as an item `{"patch"}`).
        static func entries(_ run: JSON) throws -> [(row: Int, item: JSON)] {
            if let rows = run["rows"]?.arrayValue {
                let patches = try #require(run["patches"]?.arrayValue)
                #expect(rows.count == patches.count)
                let numbers = try rows.map { try #require($0.intValue) }
                #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count, "rows ascending: \(numbers)")
                return zip(numbers, patches).map { ($0, ["patch": $1]) }
            }
            let at = try #require(run["at"]?.intValue)
            return (run["items"]?.arrayValue ?? []).enumerated().map { (at + $0.offset, $0.element) }
        }

        mutating func applyBatch(_ batch: JSON) throws {
            let items = batch["items"]
            var old = rows
            for key in ["reload", "reconfigure"] {
                for run in items?[key]?.arrayValue ?? [] {
                    for (row, item) in try Self.entries(run) {
                        old[row].content = try content(of: item, held: old[row].content)
                    }
                }
            }
            var removed = Set<Int>()
            for group in items?["delete"]?.arrayValue ?? [] {
                for range in group["ranges"]?.arrayValue ?? [] {
                    let start = try #require(range.arrayValue?.first?.intValue), count = try #require(range.arrayValue?.last?.intValue)
                    removed.formUnion(start..<start + count)
                }
            }
            var placed: [(at: Int, row: (id: String, content: JSON?))] = []
            for move in items?["move"]?.arrayValue ?? [] {
                let from = try #require(move["from"]?.arrayValue?.last?.intValue), to = try #require(move["to"]?.arrayValue?.last?.intValue)
                removed.insert(from)
                var row = old[from]
                if let item = move["item"] { row.content = try content(of: item, held: row.content) }
                placed.append((to, row))
            }
            for run in items?["insert"]?.arrayValue ?? [] {
                let at = try #require(run["at"]?.intValue)
                for (k, item) in (run["items"]?.arrayValue ?? []).enumerated() {
                    placed.append((at + k, (try #require(item["id"]?.stringValue), item["content"])))
                }
            }
            var new = old.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
            for (at, row) in placed.sorted(by: { $0.at < $1.at }) { new.insert(row, at: at) }
            rows = new
        }

        mutating func applySteps(_ steps: JSON) throws {
            for step in steps.arrayValue ?? [] {
                let at = step["at"]?.intValue ?? 0
                switch step["op"]?.stringValue {
                case "deleteItems": rows.removeSubrange(at..<at + (step["count"]?.intValue ?? 0))
                case "insertItems":
                    for (k, item) in (step["items"]?.arrayValue ?? []).enumerated() {
                        rows.insert((try #require(item["id"]?.stringValue), item["content"]), at: at + k)
                    }
                case "reloadItems", "reconfigureItems":
                    for (row, item) in try Self.entries(step) {
                        rows[row].content = try content(of: item, held: rows[row].content)
                    }
                case "moveItem":
                    let from = try #require(step["from"]?.arrayValue?.last?.intValue), to = try #require(step["to"]?.arrayValue?.last?.intValue)
                    var row = rows.remove(at: from)
                    if let item = step["item"] { row.content = try content(of: item, held: row.content) }
                    rows.insert(row, at: to)
                default: Issue.record("unexpected step \(step)")
                }
            }
        }

        mutating func applyWindow(_ window: JSON) throws {
            for step in window["steps"]?.arrayValue ?? [] {
                let at = step["at"]?.intValue ?? 0
                switch step["op"]?.stringValue {
                case "delete": rows.removeSubrange(at..<at + (step["count"]?.intValue ?? 0))
                case "insert":
                    for (k, row) in (step["rows"]?.arrayValue ?? []).enumerated() {
                        rows.insert((try #require(row["id"]?.stringValue), row["content"]), at: at + k)
                    }
                case "move":
                    let from = try #require(step["from"]?.intValue), to = try #require(step["to"]?.intValue)
                    rows.insert(rows.remove(at: from), at: to)
                case "update":
                    for (k, row) in (step["rows"]?.arrayValue ?? []).enumerated() {
                        #expect(rows[at + k].id == row["id"]?.stringValue)
                        rows[at + k].content = try content(of: row, held: rows[at + k].content)
                    }
                default: Issue.record("unexpected window step \(step)")
                }
            }
        }

        /// The rows as canonical bytes, to compare with the daemon's.
        var written: [String] { rows.map { "\($0.id)=\($0.content.map(JSONWriter.string) ?? "-")" } }
    }

    static func written(_ items: [JSON]) -> [String] {
        items.map { "\($0["id"]?.stringValue ?? "?")=\($0["content"].map(JSONWriter.string) ?? "-")" }
    }

    static func result(_ server: Server, _ method: String, _ params: JSON) throws -> JSON {
        let body = JSONWriter.bytes(["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": params])
        let answer = try JSONParser.parse(try #require(server.handle(body: body)))
        return try #require(answer["result"], "\(JSONWriter.string(answer))")
    }

    @Test(arguments: ["batch", "steps", "window"])
    func randomSessionsReplayToTheSnapshot(form: String) throws {
        var rng = SplitMix64(seed: form == "batch" ? 1 : form == "steps" ? 2 : 3)
        var patched = 0
        for session in 0..<40 {
            let server = Server()
            let options: JSON = ["updates": "patch", "form": form == "steps" ? "steps" : "batch"]
            _ = try Self.result(server, "initialize", ["initializationOptions": options])
            // Most rows are wide enough for a patch to be shorter than them.
            let pad = JSON.string(String(repeating: "pad ", count: 20))
            var contents: [(id: String, content: JSON)] = (0..<12).map { i in
                ("r\(i)", i.isMultiple(of: 4) ? JSONGenerator.value(&rng) : ["pad": pad, "v": JSONGenerator.value(&rng), "w": JSONGenerator.value(&rng)])
            }
            var frontend = Frontend()
            func items() -> JSON { .array(contents.map { ["id": .string($0.id), "content": $0.content] }) }
            // The first apply inserts the section: the frontend starts from it.
            _ = try Self.result(server, "apply", ["source": "s", "sections": [["id": "m", "items": items()]]])
            let loaded = try Self.result(server, "snapshot", ["source": "s"])
            frontend.rows = try (loaded["sections"]?.arrayValue?.first?["items"]?.arrayValue ?? []).map { (try #require($0["id"]?.stringValue), $0["content"]) }
            if form == "window" {
                let window = try Self.result(server, "viewport", ["source": "s", "start": 0, "count": 8])
                frontend.rows = []
                try frontend.applyWindow(try #require(window["window"]))
            }
            for tick in 0..<15 {
                let answer: JSON
                if tick.isMultiple(of: 2) {
                    for _ in 0..<Int.random(in: 1...4, using: &rng) {
                        let k = Int.random(in: 0..<contents.count, using: &rng)
                        contents[k].content = JSONPatchGenerator.edited(contents[k].content, &rng)
                    }
                    if tick % 6 == 4 { contents.swapAt(0, contents.count - 1) }
                    if tick % 8 == 6 { contents.insert(("n\(session)-\(tick)", JSONGenerator.value(&rng)), at: 3) }
                    answer = try Self.result(server, "apply", ["source": "s", "sections": [["id": "m", "items": items()]]])
                } else {
                    let k = Int.random(in: 0..<contents.count, using: &rng)
                    let new = JSONPatchGenerator.edited(contents[k].content, &rng)
                    let patchBytes = JSONPatch.diff(from: JSONWriter.bytes(contents[k].content), to: JSONWriter.bytes(new))
                        ?? JSONWriter.bytes([["op": "replace", "path": "", "value": new]])
                    let patch = try JSONParser.parse(patchBytes)
                    contents[k].content = new
                    answer = try Self.result(server, "edit", ["source": "s", "ops": [["op": "patchContent", "id": .string(contents[k].id), "patch": patch]]])
                }
                if form == "window" {
                    let window = try #require(answer["window"])
                    try frontend.applyWindow(window)
                    let rows = try Self.result(server, "rows", ["source": "s", "start": window["start"] ?? 0, "count": 8])
                    #expect(frontend.written == Self.written(rows["rows"]?.arrayValue ?? []))
                } else {
                    try frontend.applyBatchOrSteps(answer, form: form)
                    let snapshot = try Self.result(server, "snapshot", ["source": "s"])
                    let held = snapshot["sections"]?.arrayValue?.first?["items"]?.arrayValue ?? []
                    #expect(frontend.written == Self.written(held))
                }
            }
            patched += frontend.patches
        }
        #expect(patched > (form == "window" ? 40 : 100), "\(patched) rows came as patches")
    }

    /// A 20-field ticker row with one field changed: the reload is a patch
    /// run of one row and a one-op patch; `updates: "content"` (the
    /// default) is unchanged.
    @Test func tickerRowReloadCarriesOneOp() throws {
        let fields = (0..<20).map { ("f\($0)", JSON.number("\(100 + $0).25")) }
        var changed = fields
        changed[7].1 = .number("108.5")
        for (updates, expected) in [
            ("patch", #"{"batch":{"items":{"reload":[{"section":0,"rows":[1],"patches":[[{"op":"replace","path":"/f7","value":108.5}]]}]}}}"#),
            ("content", #"{"batch":{"items":{"reload":[{"section":0,"at":1,"items":[{"id":"b","content":\#(JSONWriter.string(.object(JSONObject(changed))))}]}]}}}"#),
        ] {
            let server = Server()
            _ = try Self.result(server, "initialize", [:])
            let row: (JSON) -> JSON = { ["id": "b", "content": $0] }
            _ = try Self.result(server, "apply", ["source": "s", "sections": [["id": "m", "items": ["a", row(.object(JSONObject(fields)))]]]])
            let answer = try Self.result(server, "apply", ["source": "s", "updates": .string(updates),
                                                             "sections": [["id": "m", "items": ["a", row(.object(JSONObject(changed)))]]]])
            #expect(JSONWriter.string(["batch": try #require(answer["batch"])]) == expected)
        }
    }
}

extension PatchUpdatesTests.Frontend {
    mutating func applyBatchOrSteps(_ answer: JSON, form: String) throws {
        if let batch = answer["batch"] { try applyBatch(batch) } else if let steps = answer["steps"] { try applySteps(steps) }
    }
}
