import DiffableEngine
import Testing
@testable import DiffableServer
import DiffableTestSupport
@testable import DiffableProtocol

/// Every `apply` is read from its bytes by one reader (`ApplyScanner`);
/// what the answers are is pinned by
/// `protocol/transcripts/apply-decoding.transcript`. These tests check that
/// the reader's strategies are invisible: a request as written (whitespace,
/// escapes, any member order), read in parts, or with its bytes given back
/// as it is read, answers byte for byte as the same request written
/// compactly (a small request, or one in a batch, which `ApplyRequest`
/// writes back from its parsed params), errors included.
@Suite struct LazyApplyTests {
    /// Sends every body to a server that parses it and reads the params as
    /// written back, every item anew (no reuse of held items), a server
    /// that reads its bytes, one that reads every
    /// array it can in parts (a split hint at every element), and both
    /// again zeroing the bytes their reader gives back (each item on its
    /// own, or runs of ~100 bytes): a read of a released byte, or bytes
    /// read again other than they came, shows as a different response.
    static func expectSameResponses(_ bodies: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) {
        let tree = Server(), lazy = Server(), parts = Server(), zeroing = Server(), zeroingParts = Server()
        let initialize = utf8(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
        for server in [tree, lazy, parts, zeroing, zeroingParts] { _ = server.handle(body: initialize) }
        tree.recyclesItems = false
        func text(_ bytes: [UInt8]?) -> String { bytes.map { String(decoding: $0, as: UTF8.self) } ?? "nil" }
        for body in bodies {
            let expected = tree.handle(body: body, lazyFrom: .max)
            let answers = [
                ("lazy", lazy.handle(body: body, lazyFrom: 0)),
                ("in parts", parts.handle(body: body, lazyFrom: 0, hintSpacing: 1)),
                ("zeroing", zeroing.handle(body: body, lazyFrom: 0, release: .zeros(chunk: 1))),
                ("zeroing in parts", zeroingParts.handle(body: body, lazyFrom: 0, hintSpacing: 1, release: .zeros(chunk: 100))),
            ]
            for (name, actual) in answers {
                #expect(expected == actual, "body: \(text(body))\nexpected: \(text(expected))\n\(name): \(text(actual))",
                        sourceLocation: sourceLocation)
            }
        }
    }

    static func request(_ params: String, id: Int = 1) -> [UInt8] {
        utf8(#"{"jsonrpc":"2.0","id":\#(id),"method":"apply","params":\#(params)}"#)
    }

    static let adversarial: [String] = [
        #"{"source":"s","sections":[{"id":"a","items":["x",{"id":"y","content":{"text":"hi","n":1}}]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"id":"y","content":{ "text" : "hi" }}]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"id":"y","content":"t\u0041b\/c\n"}]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"id":"\u0079","content":{"te\u0078t":"x"}}]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"id":"y","content":{"text":1,"text":"late"}}]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"id":"y","content":{"text":"early","text":null}}]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"id":"y","content":[1,{"text":"x"}]},{"id":"z","content":1.50}]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"id":"y","content":null},{"id":"z","content":true}]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"id":"y","id":"z"},{"id":"w","content":{},"content":"2nd"}]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"id":1}]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"id":"q","id":2}]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"content":"no id"}]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[3,"x",[]]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":{"id":"x"}}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":null}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[],"items":["late"]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":["x"],"items":null}]}"#,
        #"{"source":"s","sections":[{"items":["x"]}]}"#,
        #"{"source":"s","sections":[5,{"id":"b"}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":["x","x"]},{"id":"a","items":["y","x"]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":["é","e\u0301"]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":["日本","日本"]}]}"#,
        #"{"source":"s","sections":[{"id":"a","header":{ "title":"A" },"items":["x"]}]}"#,
        #"{"source":"s","sections":[{"id":"a","selection":"single","allowsEmptySelection":false,"items":["x"]}]}"#,
        #"{"source":"s","sections":[{"id":"a","selection":"none","allowsEmptySelection":false,"items":["x"]}]}"#,
        #"{"source":"s","sections":[{"id":"a","selection":"bogus","items":["x"]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":["x"]}],"sections":{"id":"a"}}"#,
        #"{"source":"s","sections":{}}"#,
        #"{"source":"s","sections":null}"#,
        #"{"source":"s"}"#,
        #"{"source":"","sections":[]}"#,
        #"{"source":7,"sections":[{"id":"a","items":[1]}]}"#,
        #"{"source":"s","form":"steps","sections":[{"id":"a","items":["x","y"]}]}"#,
        #"{"source":"s","form":"sideways","sections":[]}"#,
        #"{"source":"s","baseVersion":1.5,"sections":[]}"#,
        #"{"source":"s","baseVersion":999,"sections":[]}"#,
        #"{"sou\u0072ce":"s","sections":[]}"#,
        #" { "source" : "s" , "sections" : [ { "id" : "a" , "items" : [ "x" , { "id" : "y" } ] } ] } "#,
        #"{"source":"s","sections":[{"id":"a","items":["x"]}]"#,
        #"{"source":"s","sections":[{"id":"a","items":["x",]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":["\ud800"]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"id":"x","content":01}]}]}"#,
        #"[]"#,
        // Items parsed alone after their canonical children were read (and,
        // zeroing, given back): refused, or decoded by the codec.
        #"{"source":"s","sections":[{"id":"a","items":[{"id":"p","children":[{"id":"c1","content":{"text":"one"}},{"id":"c2","content":{"text":"two"}}],"bogus":1},"q"]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"id":"p","children":[{"id":"c1","content":{"text":"one"}},{"id":"c2","content":2}],"expand\u0065d":true},{"id":"q","content":3}]}]}"#,
        #"{"source":"s","sections":[{"id":"a","items":[{"id":"p","children":[{"id":"c1"},{"id":"c2"}],"children":[{"id":"c3"}]},{"id":"c1"}]}]}"#,
        #"{"source":"s","sections":[{"\u0069d":"a","items":[{"id":"x","content":1},{"id":7},{"id":"y","content":2},[]]},{"id":"b","items":[{"id":"z"},{"id":"y"}]}]}"#,
    ]

    /// A tree deeper than the byte reader's recursion, with canonical items
    /// on every level: its top item is parsed alone (any depth).
    @Test func deepTreesAnswerAlike() {
        func chain(_ depth: Int, _ prefix: String) -> String {
            var item = #"{"id":"\#(prefix)\#(depth)","content":{"text":"leaf"}}"#
            for level in stride(from: depth - 1, through: 0, by: -1) {
                item = #"{"id":"\#(prefix)\#(level)","content":1,"children":[{"id":"\#(prefix)\#(level)x","content":2},\#(item)],"expanded":true}"#
            }
            return item
        }
        let bodies = [63, 64, 65, 100].enumerated().map { index, depth in
            Self.request(#"{"source":"d","sections":[{"id":"a","items":[{"id":"top","content":0},\#(chain(depth, "n")),{"id":"end"}]}]}"#, id: index + 1)
        } + [utf8(#"{"jsonrpc":"2.0","id":9,"method":"snapshot","params":{"source":"d","full":true}}"#),
             Self.request(#"{"source":"d","sections":[{"id":"a","items":[\#(chain(80, "n")),\#(chain(3, "n"))]}]}"#, id: 10)]
        Self.expectSameResponses(bodies)
    }

    @Test func adversarialInputs() {
        Self.expectSameResponses(Self.adversarial.enumerated().map { Self.request($0.element, id: $0.offset + 1) })
    }

    @Test func envelopeVariants() {
        let bodies = [
            #"{"jsonrpc":"2.0","id":1,"method":"apply","params":{"source":"s","sections":[]},"params":[]}"#,
            #"{"jsonrpc":"2.0","id":2,"params":{"source":"s","sections":[]},"method":"apply"}"#,
            #"{"jsonrpc":"2.0","id":3,"m\u0065thod":"apply","params":{"source":"s","sections":[]}}"#,
            #"{"jsonrpc":"2.0","method":"apply","params":{"source":"s","sections":["x"]}}"#,
            #"{"jsonrpc":"1.0","id":4,"method":"apply","params":{"source":"s","sections":[]}}"#,
            #"{"jsonrpc":"2.0","id":[5],"method":"apply","params":{"source":"s","sections":[]}}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"apply","params":{"source":"s","sections":[]}} x"#,
            #"[{"jsonrpc":"2.0","id":7,"method":"apply","params":{"source":"s","sections":[]}}]"#,
            #"{"jsonrpc":"2.0","id":8,"method":"snapshot","params":{"source":"s"}}"#,
            "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"apply\",\"params\":{\"source\":\"s\",\"sections\":[\"\u{1}\"]}}",
            String(repeating: "[", count: 10_100) + String(repeating: "]", count: 10_100),
            #"{"jsonrpc":"2.0","id":10,"method":"apply","params":{"source":"s","sections":[],"deep":"#
                + String(repeating: "[", count: 9_999) + String(repeating: "]", count: 9_999) + "}}",
            #"{"jsonrpc":"2.0","id":11,"method":"apply","params":{"source":"s","sections":[],"deep":"#
                + String(repeating: "[", count: 9_998) + String(repeating: "]", count: 9_998) + "}}",
        ]
        Self.expectSameResponses(bodies.map(utf8))
    }


    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomApplies(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var bodies: [[UInt8]] = []
        for id in 1...40 {
            var body = utf8(RandomApply.body(id: id, &rng))
            if Int.random(in: 0..<8, using: &rng) == 0 { RandomApply.corrupt(&body, &rng) }
            bodies.append(body)
        }
        Self.expectSameResponses(bodies)
    }

    /// A random nested item over a small id pool: children and `expanded`
    /// in any member order, sometimes absent, null, empty, repeated or of
    /// the wrong type, ids sometimes repeated.
    static func nestedItem(_ rng: inout SplitMix64, depth: Int) -> String {
        // Mostly well formed, so that most requests take the byte path; a
        // few repeated ids and odd members send a request down the tree path.
        let id = "\"n\(Int.random(in: 0..<400, using: &rng))\""
        if Int.random(in: 0..<5, using: &rng) == 0 { return id }
        var members = [#""id":\#(id)"#, #""content":{"text":"t\#(Int.random(in: 0..<9, using: &rng))"}"#]
        if depth < 3, Bool.random(using: &rng) {
            let children = (0..<Int.random(in: 0...3, using: &rng)).map { _ in nestedItem(&rng, depth: depth + 1) }
            members.append(#""children":[\#(children.joined(separator: ","))]"#)
        }
        switch Int.random(in: 0..<60, using: &rng) {
        case 0..<15: members.append(#""expanded":true"#)
        case 15..<25: members.append(#""expanded":false"#)
        case 25: members.append(#""expanded":null"#)
        case 26: members.append(#""expanded":"yes""#)
        case 27: members.append(#""children":null"#)
        case 28: members.append(#""children":{}"#)
        case 29: members.append(#""children":[]"#)
        default: break
        }
        return "{" + members.shuffled(using: &rng).joined(separator: ",") + "}"
    }

    /// Nested items give the same responses however they are read, errors
    /// included, and the same state (expansion kept across applies,
    /// checked through `snapshot {full: true}`).
    @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func nestedApplies(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var bodies: [[UInt8]] = []
        var bytePath = 0
        for id in 1...30 {
            let sections = (0..<Int.random(in: 1...2, using: &rng)).map { s in
                let items = (0..<Int.random(in: 0...4, using: &rng)).map { _ in Self.nestedItem(&rng, depth: 0) }
                return #"{"id":"s\#(s)","items":[\#(items.joined(separator: ","))]}"#
            }
            let body = Self.request(#"{"source":"t","sections":[\#(sections.joined(separator: ","))]}"#, id: id)
            if let (_, params) = LazyRequest.split(body, methods: Server.lazyParamsMethods),
               let decoded = ApplyScanner.decode(params), decoded.isNested, decoded.error == nil {
                bytePath += 1
            }
            bodies.append(body)
            bodies.append(utf8(#"{"jsonrpc":"2.0","id":\#(1000 + id),"method":"snapshot","params":{"source":"t","full":true}}"#))
        }
        #expect(bytePath >= 10, "most nested requests are well formed (\(bytePath) of 30)")
        Self.expectSameResponses(bodies)
    }

    /// A large request's bytes are dropped once read, before the response
    /// is made, whether it is taken or refused.
    @Test func readRequestsFreeTheirBytes() throws {
        let server = Server()
        _ = server.handle(body: utf8(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#))
        let read = Self.request(#"{"source":"t","sections":[{"id":"s","items":["a",{"id":"b","content":1}]}]}"#)
        let (envelope, params) = try #require(LazyRequest.split(read, methods: Server.lazyParamsMethods))
        let response = try #require(server.handle(message: envelope, lazyParams: params))
        #expect(response["result"]?["version"]?.intValue == 1)
        #expect(params.body.isEmpty)
        // Repeated ids: refused, the source untouched.
        let refused = Self.request(#"{"source":"t","sections":[{"id":"s","items":["a","a"]}]}"#, id: 2)
        let (envelope2, params2) = try #require(LazyRequest.split(refused, methods: Server.lazyParamsMethods))
        let error = try #require(server.handle(message: envelope2, lazyParams: params2))
        #expect(params2.body.isEmpty)
        #expect(error["error"]?["code"]?.intValue == -32602)
        #expect(server.sources["t"]?.version == 1)
    }

    @Test func cleanNestedInputsTakeTheFastPath() throws {
        let body = Self.request(#"{"source":"t","sections":[{"id":"s","items":[{"children":[{"id":"a1","content":"x"},"a2"],"id":"a","expanded":true},{"id":"b","content":{"text":"b"},"children":[{"id":"b1","children":["b11"]}]},"c"]}]}"#)
        let (_, params) = try #require(LazyRequest.split(body, methods: Server.lazyParamsMethods))
        let decoded = try #require(ApplyScanner.decode(params))
        #expect(decoded.isNested)
        #expect(decoded.sections[0].items.map(\.id) == ["a", "a1", "a2", "b", "b1", "b11", "c"])
        #expect(decoded.nesting[0]?.parentRow == [-1, 0, 0, -1, 3, 4, -1])
        #expect(decoded.nesting[0]?.expanded == [0: true])
    }

    @Test func cleanInputsTakeTheFastPath() {
        var rng = SplitMix64(seed: 99)
        for id in 1...20 {
            let body = utf8(RandomApply.body(id: id, &rng, clean: true))
            guard let (_, params) = LazyRequest.split(body, methods: Server.lazyParamsMethods) else {
                Issue.record("not split: \(String(decoding: body, as: UTF8.self))")
                continue
            }
            guard let decoded = ApplyScanner.decode(params) else {
                Issue.record("not decoded: \(String(decoding: body, as: UTF8.self))")
                continue
            }
            // The codec, section by section, on the parsed request.
            let tree = (try? params.tree())?["sections"]?.arrayValue ?? []
            let expected = tree.map { try? SnapshotCodec.decodeSection($0, path: "params.sections") }
            #expect(decoded.error == nil)
            #expect(expected == decoded.sections.map { Optional($0) })
        }
    }

    /// Only the methods decoded from bytes are split; another method's large
    /// body is left to the parser whether `method` comes before or after its
    /// params (and, before, without its params being validated first).
    @Test func onlyLazyMethodsAreSplit() {
        let items = (0..<4000).map { #"{"id":"item-\#($0)","content":{"text":"row \#($0)"}}"# }.joined(separator: ",")
        let params = #"{"source":"s","sections":[{"id":"a","items":[\#(items)]}]}"#
        for method in ["apply", "edit", "snapshot"] {
            let before = utf8(#"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#)
            let after = utf8(#"{"jsonrpc":"2.0","id":1,"params":\#(params),"method":"\#(method)"}"#)
            #expect(before.count >= LazyRequest.minimumBodySize)
            #expect((LazyRequest.split(before, methods: Server.lazyParamsMethods) != nil) == (method != "snapshot"))
            #expect((LazyRequest.split(after, methods: Server.lazyParamsMethods) != nil) == (method != "snapshot"))
        }
    }
}
