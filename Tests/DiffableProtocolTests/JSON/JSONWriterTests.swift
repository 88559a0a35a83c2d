import Testing
import DiffableTestSupport
@testable import DiffableProtocol

@Suite struct JSONWriterTests {
    @Test func compactOutput() {
        let value: JSON = ["id": "item-1", "content": ["text": "Some Name", "n": 5, "tags": [], "x": nil, "b": false]]
        #expect(JSONWriter.string(value) == #"{"id":"item-1","content":{"text":"Some Name","n":5,"tags":[],"x":null,"b":false}}"#)
        #expect(JSONWriter.string(.object(JSONObject())) == "{}")
        #expect(JSONWriter.string(.number("-1.50E+3")) == "-1.50E+3")
    }

    @Test func escaping() {
        let s = "q\"b\\s/\u{08}\u{0C}\n\r\t\u{0}\u{1}\u{1F}\u{7F}é😀\u{2028}"
        #expect(JSONWriter.string(.string(s)) == #""q\"b\\s/\b\f\n\r\t\u0000\u0001\u001f"# + "\u{7F}é😀\u{2028}\"")
    }

    /// A response streamed in pieces (as the session writes a large one)
    /// is, joined, exactly the response serialized whole, whatever the
    /// piece size and wherever raw fragments (echoed items) sit.
    @Test func streamedPiecesJoinToTheWholeSerialization() {
        var rng = SplitMix64(seed: 11)
        for round in 0..<400 {
            var value = JSONGenerator.value(&rng)
            if round % 2 == 0 {
                // Large and small raw fragments among ordinary values.
                let raw = JSONWriter.bytes(JSONGenerator.value(&rng))
                value = ["result": ["items": .raw(raw), "small": .raw(Array("[1,2]".utf8)), "v": value], "id": 3]
            }
            let whole = JSONWriter.bytes(value)
            for chunk in [1, 2, 7, 64, 1 << 20] {
                var joined: [UInt8] = []
                var pieces = 0
                JSONWriter.stream(value, chunk: chunk) { joined.append(contentsOf: $0); pieces += 1 }
                #expect(joined == whole, "round \(round), chunk \(chunk)")
                if chunk == 1 << 20 { #expect(pieces <= 1 || whole.count >= chunk) }
            }
        }
    }

    @Test func neverEmitsRawNewlines() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let bytes = JSONWriter.bytes(JSONGenerator.value(&rng))
            #expect(!bytes.contains(0x0A))
            #expect(!bytes.contains(0x0D))
        }
    }

    @Test func roundTripGeneratedValues() throws {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            let value = JSONGenerator.value(&rng)
            let bytes = JSONWriter.bytes(value)
            let parsed = try JSONParser.parse(bytes)
            #expect(parsed == value)
            #expect(JSONWriter.bytes(parsed) == bytes)
        }
    }

    /// The depth-limited writer (item contents) writes what the plain one
    /// does, for flat objects and arrays (written without the walk) and
    /// nested values alike, and refuses exactly the values nested deeper
    /// than its limit.
    @Test func depthLimitedBytesEqualThePlainWriter() {
        var rng = SplitMix64(seed: 99)
        func depth(_ value: JSON) -> Int {
            switch value {
            case .array(let elements): 1 + (elements.map(depth).max() ?? 0)
            case .object(let object): 1 + (object.members.map { depth($0.value) }.max() ?? 0)
            default: 0
            }
        }
        for k in 0..<2_000 {
            var value = JSONGenerator.value(&rng)
            if k % 3 == 0 {
                // A row's fields: an object of scalars (or an array of them).
                let scalars = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                    var leaf = JSONGenerator.value(&rng)
                    while leaf.isContainer { leaf = JSONGenerator.value(&rng) }
                    return leaf
                }
                value = k % 2 == 0 ? .array(scalars)
                    : .object(JSONObject(scalars.enumerated().map { ("f\($0.offset)", $0.element) }))
            }
            for limit in 0...3 {
                let limited = JSONWriter.bytes(value, maxDepth: limit)
                #expect(limited == (depth(value) <= limit ? JSONWriter.bytes(value) : nil), "value \(k) limit \(limit)")
            }
        }
    }

    @Test func canonicalFormIgnoresWhitespaceAndEscapeSpelling() throws {
        let variants = [
            #"{"a":[1,2,{"b":"x/é"}],"c":null}"#,
            " {\n  \"a\" : [ 1,\t2 , { \"b\" : \"x\\/\\u00e9\" } ] ,\r\n \"c\" : null }\n",
            #"{"\u0061":[1,2,{"b":"\u0078/é"}],"c":null}"#,
        ]
        let canonical = try variants.map { JSONWriter.bytes(try JSONParser.parse($0)) }
        #expect(canonical.allSatisfy { $0 == canonical[0] })
        #expect(String(decoding: canonical[0], as: UTF8.self) == #"{"a":[1,2,{"b":"x/é"}],"c":null}"#)
        // Member order and number spelling are significant.
        #expect(JSONWriter.bytes(try JSONParser.parse(#"{"a":1,"b":2}"#))
            != JSONWriter.bytes(try JSONParser.parse(#"{"b":2,"a":1}"#)))
        #expect(JSONWriter.bytes(try JSONParser.parse("1.0")) != JSONWriter.bytes(try JSONParser.parse("1")))
    }

    @Test func writeIntoAppends() {
        var out = utf8("prefix:")
        JSONWriter.write(["a": [true]], into: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"prefix:{"a":[true]}"#)
    }

    @Test func streamingAPIMatchesTreeWriter() {
        let content = JSONWriter.bytes(["text": "Some \"Name\"", "n": 5])
        var w = JSONWriter(reservingCapacity: 256)
        w.beginObject()
        w.key(raw: "jsonrpc"); w.appendString("2.0")
        w.key("id"); w.appendNumber("7")
        w.key("result")
        w.beginObject()
        w.key("items")
        w.beginArray()
        for i in 0..<3 {
            w.beginObject()
            w.key("id"); w.appendString("item-\(i)")
            w.key("index"); w.appendInt(i)
            w.key("content"); w.appendRaw(content)
            w.endObject()
        }
        w.endArray()
        w.key("empty"); w.beginArray(); w.endArray()
        w.key("flags"); w.beginArray(); w.appendBool(true); w.appendBool(false); w.appendNull(); w.endArray()
        w.endObject()
        w.endObject()

        let items: [JSON] = (0..<3).map { i in
            ["id": .string("item-\(i)"), "index": .int(i), "content": ["text": "Some \"Name\"", "n": 5]]
        }
        let expected: JSON = ["jsonrpc": "2.0", "id": 7, "result": [
            "items": .array(items), "empty": [], "flags": [true, false, nil],
        ]]
        #expect(w.bytes == JSONWriter.bytes(expected))
    }

    @Test(arguments: [0, 1, 9, 10, -1, -9, -10, 1234567890, Int.max, Int.min])
    func appendIntMatchesDescription(n: Int) {
        var w = JSONWriter()
        w.appendInt(n)
        #expect(String(decoding: w.bytes, as: UTF8.self) == String(n))
    }
}
