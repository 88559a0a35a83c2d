import DiffableEngine
import Testing
@testable import DiffableServer
@testable import DiffableProtocol
import DiffableTestSupport

/// Every `edit` is read by one reader (`EditRequest.decode`): the items of
/// flat `appendItems` ops and the usual `patchContent` ops from the bytes,
/// any other op (or one of those in another shape: escapes, whitespace,
/// repeated members) parsed alone and decoded by the codec. Both ways must
/// give the same answers, results and errors, and leave the same state:
/// an edit as written (noisy) is compared with the same edit written
/// compactly, which the byte reader takes from the bytes. What those
/// answers are is pinned by `protocol/transcripts/edit-decoding*.transcript`.
@Suite struct LazyEditTests {
    static func body(_ params: String, id: Int) -> [UInt8] {
        utf8(#"{"jsonrpc":"2.0","id":\#(id),"method":"edit","params":\#(params)}"#)
    }

    /// Two daemons fed the same edits, one as written and one written
    /// compactly (`JSONWriter`), both read from their bytes; every answer
    /// and the final snapshots are compared.
    static func expectSameSessions(_ bodies: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) {
        let written = Server(), compact = Server()
        let start = [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"apply","params":{"source":"s","sections":[{"id":"a","items":["x",{"id":"y","content":{"text":"why"}}]},{"id":"b","items":[]}]}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"search","params":{"source":"s","query":"e","mode":"fuzzy","viewport":{"start":0,"count":5}}}"#,
        ]
        for server in [written, compact] { for body in start { _ = server.handle(body: utf8(body)) } }
        func text(_ bytes: [UInt8]?) -> String { bytes.map { String(decoding: $0, as: UTF8.self) } ?? "nil" }
        for body in bodies + [utf8(#"{"jsonrpc":"2.0","id":99,"method":"snapshot","params":{"source":"s","full":true}}"#)] {
            let rewritten = (try? JSONParser.parse(body)).map(JSONWriter.bytes) ?? body
            let expected = compact.handle(body: rewritten, lazyFrom: 0)
            let actual = written.handle(body: body, lazyFrom: 0)
            #expect(expected == actual, "body: \(text(body))\nexpected: \(text(expected))\nactual: \(text(actual))",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func adversarialEdits() {
        let params = [
            #"{"source":"s","ops":[{"op":"appendItems","items":["n1",{"id":"n2","content":{"text":"new"}}]}]}"#,
            #"{"ops":[{"items":[{"id":"n3","content":"t\u0041b"}],"section":"b","op":"appendItems"}],"source":"s"}"#,
            #"{"source":"s","ops":[{"op":"appendItems","items":[{"id":"\u006e4","content":{ "text" : "sp aced" }}]}]}"#,
            #"{"source":"s","ops":[{"op":"appendItems","items":["x"]}]}"#,  // already there: 1004
            #"{"source":"s","ops":[{"op":"appendItems","items":["d","d"]}]}"#,  // twice: 1004
            #"{"source":"s","ops":[{"op":"appendItems","items":[{"id":5}]}]}"#,  // -32602
            #"{"source":"s","ops":[{"op":"appendItems","items":["e1"],"section":"zz"}]}"#,  // unknown section
            #"{"source":"s","ops":[{"op":"appendItems","items":["e2"],"section":null}]}"#,
            #"{"source":"s","ops":[{"op":"appendItems","items":["e3"],"extra":1}]}"#,
            #"{"source":"s","ops":[{"op":"appendItems","items":["e4"]}],"extra":1}"#,
            #"{"source":"s","ops":[{"op":"appendItems","items":["e5"]}],"ops":[{"op":"appendItems","items":["e6"]}]}"#,
            #"{"source":"s","ops":[{"op":"append\u0049tems","items":["e7"]}]}"#,
            #"{"source":"s","ops":[{"op":"appendItems","items":[{"id":"t1","children":["t2"]}]}]}"#,  // a tree op
            #"{"source":"s","ops":[{"op":"appendItems","items":[{"id":"t3","expanded":true}]}]}"#,
            #"{"source":"s","ops":[{"op":"appendItems","items":["e8"],"op":"appendItems"}]}"#,
            #"{"source":"s","ops":[{"op":"deleteItems","ids":["n1"]},{"op":"appendItems","items":["n1"]},{"op":"moveItem","id":"y","before":"x"}]}"#,
            #"{"source":"s","ops":[{"op":"appendItems","items":["f1"]},{"op":"nope"}]}"#,
            #"{"source":"s","ops":[{"op":"appendItems","items":["f2"]}],"baseVersion":1}"#,
            #"{"source":"t","ops":[{"op":"appendItems","items":["f3"]}]}"#,
            #"{"source":"s","ops":[{"op":"appendItems","items":[{"id":"f4","content":{"text":1,"text":"late"}}]}],"echo":"ids","form":"steps"}"#,
            #"{"source":"s","ops":[{"op":"appendItems","items":[]}],"viewport":null}"#,
            #"{"source":"s","ops":{"op":"appendItems"}}"#,
            #"{"source":"s","ops":[]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[{"op":"replace","path":"/text","value":"whey"}]}]}"#,
            #"{"source":"s","ops":[{"id":"y","patch":[{"value":{"a":[1,2]},"op":"add","path":"/n"},{"op":"test","path":"/n/a/1","value":2}],"op":"patchContent"}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[{"op":"move","from":"/n","path":"/m"},{"op":"copy","from":"/m","path":"/k"},{"op":"remove","path":"/m"}]}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[{"op":"test","path":"/text","value":"nope"}]}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[{"op":"replace","path":"/nope/x","value":1}]}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"zz","patch":[{"op":"add","path":"/a","value":1}]}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[{"op":"add","path":"/a"}]}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[{"op":"remove","path":"/a","value":1}]}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[{"op":"remove","path":"/a","value":null}]}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[{"op":"add","path":"/a","value":null}]}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[{"op":"move","path":"/a"}]}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[{"op":"add","path":"a","value":1}]}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[{"op":"add","path":"/a","value":1,"value":2}]}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[{"op":"frob","path":"/a"}]}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":{"op":"add"}}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"\u0079","patch":[{"op":"add","path":"/~1b~0","value":"\u00e9"}]}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[],"extra":1}]}"#,
            #"{"source":"s","ops":[{"op":"patchContent","id":"y","patch":[{"op":"add","path":"","value":{"text":"whole"}}]}]}"#,
        ]
        Self.expectSameSessions(params.enumerated().map { Self.body($0.element, id: 10 + $0.offset) })
    }

    /// Seeded random streams of appends (with other ops mixed in, and
    /// now and then an invalid one), the items written in many byte forms.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomStreams(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var bodies: [[UInt8]] = []
        var next = 0
        for id in 10..<70 {
            var ops: [JSON] = []
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                switch Int.random(in: 0..<11, using: &rng) {
                case 10:
                    ops.append(.object(JSONObject([("op", .string("patchContent")),
                                                   ("id", .string("i\(Int.random(in: 0..<max(1, next), using: &rng))")),
                                                   ("patch", .array([.object(JSONObject([("op", .string("add")), ("path", .string("/n")),
                                                                                         ("value", JSONGenerator.value(&rng))]))]))])))
                case 0:
                    ops.append(.object(JSONObject([("op", .string("deleteItems")),
                                                   ("ids", .array([.string("i\(Int.random(in: 0..<max(1, next), using: &rng))")]))])))
                case 1:
                    ops.append(.object(JSONObject([("op", .string("setContent")), ("items", .array([.object(JSONObject([
                        ("id", .string("i\(Int.random(in: 0..<max(1, next), using: &rng))")), ("content", JSONGenerator.value(&rng)),
                    ]))]))])))
                default:
                    var items: [JSON] = []
                    for _ in 0..<Int.random(in: 0...40, using: &rng) {
                        // Now and then an id used before (a conflict), else a new one.
                        let id = Int.random(in: 0..<20, using: &rng) == 0 ? "i\(Int.random(in: 0..<max(1, next), using: &rng))" : "i\(next)"
                        next += 1
                        switch Int.random(in: 0..<4, using: &rng) {
                        case 0: items.append(.string(id))
                        case 1: items.append(.object(JSONObject([("id", .string(id)), ("content", .string(JSONGenerator.string(&rng)))])))
                        case 2: items.append(.object(JSONObject([("id", .string(id)), ("content", JSONGenerator.value(&rng))])))
                        default:
                            items.append(.object(JSONObject([("id", .string(id)),
                                                             ("content", .object(JSONObject([("text", .string(JSONGenerator.string(&rng)))])))])))
                        }
                    }
                    var members: [(String, JSON)] = [("op", .string("appendItems")), ("items", .array(items))]
                    if Bool.random(using: &rng) { members.append(("section", .string(Bool.random(using: &rng) ? "a" : "b"))) }
                    ops.append(.object(JSONObject(members)))
                }
            }
            let params = JSON.object(JSONObject([("source", .string("s")), ("ops", .array(ops))]))
            bodies.append(Self.body(NoisyJSON.write(params, &rng), id: id))
        }
        Self.expectSameSessions(bodies)
    }

    /// Flat appends (with other ops beside them) are read, escaped names
    /// and nested appends through the codec; a wrong op or member is the
    /// codec's or `Params`' error, with its path, and other members are
    /// checked before the ops.
    @Test func theReaderDecodesEveryEdit() throws {
        func decoded(_ params: String) throws -> Result<EditRequest, RPCError> {
            let (_, lazy) = try #require(LazyRequest.split(Self.body(params, id: 1), methods: Server.lazyParamsMethods))
            do throws(RPCError) {
                return .success(try EditRequest.decode(lazy, context: NoHeldState()))
            } catch {
                return .failure(error)
            }
        }
        func path(_ result: Result<EditRequest, RPCError>) -> String? {
            guard case .failure(let error) = result, case .object(let data)? = error.data,
                  case .string(let path)? = data["path"] else { return nil }
            return path
        }
        guard case .success(let flat) = try decoded(#"{"source":"s","ops":[{"op":"appendItems","items":["n1",{"id":"n2","content":{"text":"new"}}]}]}"#),
              case .op(.appendItems(let items, toSection: nil))? = flat.ops.first else {
            Issue.record("a flat append")
            return
        }
        #expect(items.map(\.id) == ["n1", "n2"])
        guard case .success(let mixed) = try decoded(#"{"ops":[{"items":[{"id":"n3","content":"t\u0041b"}],"section":"b","op":"appendItems"},{"op":"deleteItems","ids":["x"]}],"source":"s","form":"steps"}"#) else {
            Issue.record("an append and a delete")
            return
        }
        #expect(mixed.ops.count == 2 && mixed.form == .steps)
        guard case .success(let nested) = try decoded(#"{"source":"s","ops":[{"op":"appendItems","items":[{"id":"t1","children":["t2"]}]}]}"#),
              case .appendNodes? = nested.ops.first else {
            Issue.record("a nested append is a tree op")
            return
        }
        guard case .success(let escaped) = try decoded(#"{"sour\u0063e":"s","ops":[{"op":"append\u0049tems","items":["e7"]}]}"#) else {
            Issue.record("escaped names")
            return
        }
        #expect(escaped.source == "s" && escaped.ops.count == 1)
        #expect(try path(decoded(#"{"source":"s","ops":[{"op":"appendItems","items":[{"id":5}]}]}"#)) == "params.ops[0].items[0].id")
        #expect(try path(decoded(#"{"source":"s","ops":[{"op":"appendItems","items":["e4"]}],"extra":1}"#)) == "params")
        #expect(try path(decoded(#"{"source":"s","ops":[{"op":"appendItems","items":["f1"]},{"op":"nope"}]}"#)) == "params.ops[1].op")
        // The source is checked before the ops, as the members are read in order.
        #expect(try path(decoded(#"{"source":5,"ops":[{"op":"nope"}]}"#)) == "params.source")
        #expect(try path(decoded(#"{"source":"s","ops":{"op":"appendItems"}}"#)) == "params.ops")
    }

    /// `patchContent` ops in their usual shapes are read from bytes; any
    /// other shape is left to the tree decoder (which names the problem).
    @Test func patchContentOpsReadFromBytes() {
        func read(_ op: String) -> Bool {
            utf8(op).withUnsafeBufferPointer { buffer in
                var s = ByteScanner(buffer, range: 0..<buffer.count)
                return EditRequest.readPatchContent(&s) != nil
            }
        }
        #expect(read(#"{"op":"patchContent","id":"y","patch":[{"op":"replace","path":"/price","value":101.5}]}"#))
        #expect(read(#"{"id":"y","patch":[{"value":{"a":[1]},"op":"add","path":"/n"},{"op":"move","from":"/n","path":"/m"}],"op":"patchContent"}"#))
        #expect(read(#"{"op":"patchContent","id":"\u0079","patch":[{"op":"remove","path":"/~1b"}]}"#))
        #expect(!read(#"{"op":"patchContent","id":"y","patch":[{"op":"add","path":"/a"}]}"#))
        #expect(!read(#"{"op":"patchContent","id":"y","patch":[{"op":"remove","path":"/a","value":1}]}"#))
        #expect(!read(#"{"op":"patchContent","id":"y","patch":[{"op":"remove","path":"/a","value":null}]}"#))
        #expect(read(#"{"op":"patchContent","id":"y","patch":[{"op":"add","path":"/a","value":null}]}"#))
        #expect(!read(#"{"op":"patchContent","id":"y","patch":[{"op":"copy","path":"/a"}]}"#))
        #expect(!read(#"{"op":"patchContent","id":"y","patch":[{"op":"add","path":"a","value":1}]}"#))
        #expect(!read(#"{"op":"patchContent","id":"y","patch":[{"op":"add","path":"/a","value":1,"value":2}]}"#))
        #expect(!read(#"{"op":"patchContent","id":"y","patch":[],"extra":1}"#))
        #expect(!read(#"{"op":"patch\u0043ontent","id":"y","patch":[]}"#))
        #expect(!read(#"{"op":"setContent","items":[]}"#))
    }
}
