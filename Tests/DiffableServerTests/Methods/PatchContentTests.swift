import Testing
@testable import DiffableServer
import DiffableTestSupport
@testable import DiffableProtocol

/// `edit` `patchContent`: a patch sent in gives the same state as
/// `setContent` of the patched content computed apart; a failing patch
/// changes nothing and names the item and the patch op.
@Suite struct PatchContentTests {
    static func server() -> Server {
        let server = Server()
        _ = send(server, #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
        return server
    }

    @discardableResult
    static func send(_ server: Server, _ body: String) -> String {
        server.handle(body: utf8(body)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    static func request(_ server: Server, _ method: String, _ params: JSON) -> String {
        send(server, JSONWriter.string(["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": params]))
    }

    /// Everything a frontend can see of the source.
    static func state(_ server: Server) -> [String] {
        [
            request(server, "snapshot", ["source": "s"]),
            request(server, "selection", ["source": "s"]),
            request(server, "search", ["source": "s", "query": "a", "sections": ["main"]]),
            request(server, "search", ["source": "s", "query": ""]),
        ]
    }

    @Test func randomPatchesMatchSetContentOfTheContentComputedApart() throws {
        var rng = SplitMix64(seed: 3232)
        var applied = 0, failed = 0
        for round in 0..<600 {
            let contents: [JSON] = (0..<4).map { _ in
                ["text": .string(JSONGenerator.string(&rng) + "a"), "v": JSONGenerator.value(&rng, depth: 2)]
            }
            let items: [JSON] = contents.enumerated().map { ["id": .string("i\($0.offset)"), "content": $0.element] }
            let patched = Self.server(), reference = Self.server()
            for server in [patched, reference] {
                _ = Self.request(server, "apply", ["source": "s", "sections": [["id": "main", "selection": "multiple", "items": .array(items)]]])
                _ = Self.request(server, "select", ["source": "s", "ids": ["i1", "i2"]])
            }
            let k = Int.random(in: 0..<4, using: &rng)
            let patch = JSONPatchGenerator.patch(for: contents[k], count: Int.random(in: 1...3, using: &rng), &rng)
            let viewport: JSON = round.isMultiple(of: 3) ? ["start": 0, "count": 3] : .null
            let before = Self.state(patched)
            let answer = Self.request(patched, "edit", ["source": "s", "viewport": viewport, "ops": [
                ["op": "reloadItems", "ids": ["i3"]],
                ["op": "patchContent", "id": .string("i\(k)"), "patch": patch],
            ]])
            if let expected = ReferencePatch.apply(patch, to: contents[k]) {
                applied += 1
                let setAnswer = Self.request(reference, "edit", ["source": "s", "viewport": viewport, "ops": [
                    ["op": "reloadItems", "ids": ["i3"]],
                    ["op": "setContent", "items": [["id": .string("i\(k)"), "content": expected]]],
                ]])
                #expect(answer == setAnswer)
                #expect(Self.state(patched) == Self.state(reference))
            } else {
                failed += 1
                #expect(answer.contains(#""code":1004"#) && answer.contains(#""reason":"patchFailed""#)
                    && answer.contains(#""ids":["i\#(k)"]"#) && answer.contains(#""patchOp":"#), "\(answer)")
                #expect(Self.state(patched) == before)
            }
        }
        #expect(applied > 100 && failed > 100, "\(applied) applied, \(failed) failed")
    }

    @Test func aFailingPatchRejectsTheWholeEdit() {
        let server = Self.server()
        Self.send(server, #"{"jsonrpc":"2.0","id":1,"method":"apply","params":{"source":"s","sections":[{"id":"m","items":[{"id":"a","content":{"price":1}},{"id":"b","content":[1,2]}]}]}}"#)
        let before = Self.state(server)
        let answer = Self.send(server, #"{"jsonrpc":"2.0","id":2,"method":"edit","params":{"source":"s","ops":[{"op":"setContent","items":[{"id":"b","content":3}]},{"op":"patchContent","id":"a","patch":[{"op":"replace","path":"/price","value":2},{"op":"test","path":"/price","value":3}]}]}}"#)
        #expect(answer == #"{"jsonrpc":"2.0","id":2,"error":{"code":1004,"message":"Edit rejected: op 1 (patchContent): \"a\": patch op 1 (test): \"/price\": test failed, the value differs. Nothing was changed.","data":{"op":1,"reason":"patchFailed","ids":["a"],"patchOp":1}}}"#)
        #expect(Self.state(server) == before)
        // Array indices: no leading zero, `-` only for add.
        for path in ["/01", "/-", "/2", "/x"] {
            let refused = Self.send(server, #"{"jsonrpc":"2.0","id":3,"method":"edit","params":{"source":"s","ops":[{"op":"patchContent","id":"b","patch":[{"op":"replace","path":"\#(path)","value":0}]}]}}"#)
            #expect(refused.contains(#""reason":"patchFailed""#), "\(path): \(refused)")
        }
        #expect(Self.state(server) == before)
    }

    @Test func aPatchSeesTheContentEarlierOpsLeft() {
        let server = Self.server()
        Self.send(server, #"{"jsonrpc":"2.0","id":1,"method":"apply","params":{"source":"s","sections":[{"id":"m","items":[{"id":"a","content":{"n":1}}]}]}}"#)
        let answer = Self.send(server, #"{"jsonrpc":"2.0","id":2,"method":"edit","params":{"source":"s","ops":[{"op":"appendItems","items":[{"id":"b","content":{"n":1}}]},{"op":"patchContent","id":"b","patch":[{"op":"test","path":"/n","value":1.0},{"op":"add","path":"/m","value":[1]},{"op":"add","path":"/m/-","value":2},{"op":"copy","from":"/m","path":"/c~1d"},{"op":"move","from":"/n","path":"/m/0"}]},{"op":"patchContent","id":"a","patch":[{"op":"add","path":"","value":"whole"}]}]}}"#)
        #expect(answer == #"{"jsonrpc":"2.0","id":2,"result":{"source":"s","version":2,"batch":{"items":{"insert":[{"section":0,"at":1,"items":[{"id":"b","content":{"m":[1,1,2],"c/d":[1,2]}}]}],"reload":[{"section":0,"at":0,"items":[{"id":"a","content":"whole"}]}]}}}}"#)
    }

    @Test func malformedPatchesAreInvalidParams() {
        let server = Self.server()
        Self.send(server, #"{"jsonrpc":"2.0","id":1,"method":"apply","params":{"source":"s","sections":[{"id":"m","items":[{"id":"a","content":{}}]}]}}"#)
        let cases: [(String, String)] = [
            (#"{"p":1}"#, "params.ops[0].patch"),
            (#"[{"op":"replace","path":"a","value":1}]"#, "params.ops[0].patch[0].path"),
            (#"[{"op":"replace","path":"/~2","value":1}]"#, "params.ops[0].patch[0].path"),
            (#"[{"op":"replace","path":"/a"}]"#, "params.ops[0].patch[0].value"),
            (#"[{"op":"move","path":"/a"}]"#, "params.ops[0].patch[0].from"),
            (#"[{"op":"frobnicate","path":"/a"}]"#, "params.ops[0].patch[0].op"),
            (#"[{"op":"remove","path":"/a","value":1}]"#, "params.ops[0].patch[0].value"),
        ]
        for (patch, path) in cases {
            let answer = Self.send(server, #"{"jsonrpc":"2.0","id":2,"method":"edit","params":{"source":"s","ops":[{"op":"patchContent","id":"a","patch":\#(patch)}]}}"#)
            #expect(answer.contains(#""code":-32602"#) && answer.contains(#""path":"\#(path)""#), "\(patch): \(answer)")
        }
        let missing = Self.send(server, #"{"jsonrpc":"2.0","id":2,"method":"edit","params":{"source":"s","ops":[{"op":"patchContent","id":"zz","patch":[]}]}}"#)
        #expect(missing.contains(#""reason":"unknownItem""#))
    }
}
