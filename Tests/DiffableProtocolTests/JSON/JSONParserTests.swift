import Testing
import DiffableTestSupport
@testable import DiffableProtocol

@Suite struct JSONParserTests {
    static let valid: [(String, JSON)] = [
        ("null", .null), ("true", true), ("false", false),
        ("0", .number("0")), ("-0", .number("-0")), ("12", .number("12")), ("-1.50", .number("-1.50")),
        ("1e5", .number("1e5")), ("1E+05", .number("1E+05")), ("0.0e-0", .number("0.0e-0")),
        ("123456789012345678901234567890", .number("123456789012345678901234567890")),
        ("\"\"", ""), ("\"abc\"", "abc"), (" \t\r\n\"x\" \n", "x"),
        ("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\u{08}\u{0C}\n\r\t"),
        ("\"\\u0041\\u00e9\\u65E5\"", "Aé日"),
        ("\"\\ud83d\\ude00\"", "😀"), ("\"\\uDBFF\\uDFFF\"", "\u{10FFFF}"),
        ("\"\\u0000\"", "\u{0}"),
        ("\"é日😀\u{7F}\"", "é日😀\u{7F}"),
        ("\"a\\nb😀c\"", "a\nb😀c"),
        ("[]", []), ("{}", .object(JSONObject())), ("[ ]", []), ("{ }", .object(JSONObject())),
        ("[1,\"a\",null,[true]]", [1, "a", nil, [true]]),
        ("{\"a\":1,\"b\":{\"c\":[]}}", ["a": 1, "b": ["c": []]]),
        (" { \"k\" : [ 1 , 2 ] , \"\" : { } } ", ["k": [1, 2], "": .object(JSONObject())]),
        ("{\"a\":1,\"a\":2}", .object(JSONObject([("a", 1), ("a", 2)]))),
    ]

    @Test(arguments: valid)
    func parsesValid(text: String, expected: JSON) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    static let invalid: [String] = [
        "", " ", "nul", "nulll", "True", "tru", "falsey", "NaN", "Infinity", "-Infinity",
        "01", "-01", "00", "+1", ".5", "1.", "1.e3", "1e", "1e+", "-", "--1", "0x10", "1 2",
        "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\", "\"\\u\"", "\"a\u{1}b\"", "\"\t\"", "\"\n\"",
        "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\ud800\\ud800\"", "\"\\ud800x\"",
        "[", "]", "[1", "[1,", "[1,]", "[,1]", "[1 2]", "{", "}", "{\"a\"}", "{\"a\":}", "{\"a\":1,}",
        "{a:1}", "{'a':1}", "{\"a\" 1}", "{\"a\":1 \"b\":2}", "{,}", "[}", "{]", "{\"a\":1]",
        "[1]]", "{} x", "null,", "\u{0}", "// c\n1", "[1]\u{0}",
    ]

    @Test(arguments: invalid)
    func rejectsInvalid(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    static let invalidUTF8: [[UInt8]] = [
        [0x22, 0x80, 0x22],                 // lone continuation
        [0x22, 0xC0, 0xAF, 0x22],           // overlong '/'
        [0x22, 0xC1, 0xBF, 0x22],           // overlong
        [0x22, 0xE0, 0x80, 0xAF, 0x22],     // overlong 3-byte
        [0x22, 0xED, 0xA0, 0x80, 0x22],     // encoded surrogate U+D800
        [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], // overlong 4-byte
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], // > U+10FFFF
        [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],
        [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xE6, 0x97, 0x22], [0x22, 0xF0, 0x9F, 0x98],
        [0xEF, 0xBB, 0xBF, 0x31],           // BOM is not whitespace
        [0x5B, 0xC3, 0xA9, 0x5D],           // non-ASCII outside a string
    ]

    @Test(arguments: invalidUTF8)
    func rejectsInvalidUTF8(bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
    }

    @Test func errorCarriesOffsetAndMessage() {
        do {
            _ = try JSONParser.parse("[1, 2, x]")
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 7)
            #expect(error.message.contains("'x'"))
            #expect(error.description.contains("byte 7"))
        }
        do {
            _ = try JSONParser.parse("{\"a\":1} 5")
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 8)
            #expect(error.message.contains("trailing"))
        }
        #expect(throws: JSONParseError(offset: 1, message: "leading zeros are not allowed")) {
            try JSONParser.parse("01")
        }
    }

    @Test func depthLimit() throws {
        // The documented limit: 10,000 levels (protocol/README.md).
        let ok = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        _ = try JSONParser.parse(ok)
        let tooDeep = String(repeating: "[", count: 10_001) + String(repeating: "]", count: 10_001)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(tooDeep) }
        let deepObjects = String(repeating: "{\"a\":", count: 10_001) + "1" + String(repeating: "}", count: 10_001)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deepObjects) }
        // Huge unclosed nesting must fail cleanly, never overflow the stack.
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(hostile) }
        #expect(try JSONParser.parse("[[1]]", maxDepth: 2) == [[1]])
        #expect(throws: JSONParseError.self) { try JSONParser.parse("[[[1]]]", maxDepth: 2) }
    }

    @Test func rawBufferEntryPoint() throws {
        let bytes = utf8("{\"id\":\"item-1\",\"n\":[1,2]}")
        let value = try bytes.withUnsafeBytes { raw in try JSONParser.parse(raw) }
        #expect(value == ["id": "item-1", "n": [1, 2]])
        let empty = try? [UInt8]().withUnsafeBytes { raw in try JSONParser.parse(raw) }
        #expect(empty == nil)
    }

    @Test func numbersKeepTheirSpelling() throws {
        let value = try JSONParser.parse("[1.0, 1, 1e0, -0, 10E-1]")
        #expect(value == [.number("1.0"), .number("1"), .number("1e0"), .number("-0"), .number("10E-1")])
    }

    @Test func largeArrayAndManySiblings() throws {
        let text = "[" + (0..<10_000).map { "{\"id\":\"item-\($0)\",\"n\":\($0)}" }.joined(separator: ",") + "]"
        let value = try JSONParser.parse(text)
        #expect(value.arrayValue?.count == 10_000)
        #expect(value.arrayValue?.last?["id"] == "item-9999")
        #expect(value.arrayValue?.last?["n"]?.intValue == 9999)
    }

    /// Random bytes and mutated valid documents: the parser may fail, never crash.
    @Test func fuzzNeverCrashes() {
        var rng = SplitMix64(seed: 0xF00D)
        let alphabet = utf8("{}[],:\"\\ \n0123456789-+.eEtrufalsn/bu") + [0x00, 0x1F, 0x80, 0xBF, 0xC3, 0xED, 0xF0, 0xFF]
        var accepted = 0
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in
                    alphabet[Int.random(in: 0..<alphabet.count, using: &rng)]
                }
            } else {
                bytes = JSONWriter.bytes(JSONGenerator.value(&rng))
                for _ in 0..<Int.random(in: 1...3, using: &rng) where !bytes.isEmpty {
                    let i = Int.random(in: 0..<bytes.count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: bytes[i] = UInt8.random(in: 0...255, using: &rng)
                    case 1: bytes.remove(at: i)
                    default: bytes.insert(alphabet[Int.random(in: 0..<alphabet.count, using: &rng)], at: i)
                    }
                }
            }
            if let value = try? JSONParser.parse(bytes) {
                accepted += 1
                // Anything accepted must survive a write/parse round trip.
                #expect((try? JSONParser.parse(JSONWriter.bytes(value))) == value)
            }
        }
        #expect(accepted > 0)
    }
}

/// The parser's memory budget (`JSONParser.maxFootprintPerByte`).
struct JSONParserBudgetTests {
    @Test func denseTextsOverTheBudgetAreRefusedAndOrdinaryOnesRead() throws {
        // Under the 4 MiB floor, anything goes.
        _ = try JSONParser.parse("[" + Array(repeating: "0", count: 10_000).joined(separator: ",") + "]")
        let dense = "[" + Array(repeating: "0", count: 500_000).joined(separator: ",") + "]"
        #expect(throws: JSONParseError.self) { try JSONParser.parse(dense) }
        let items = (0..<20_000).map { #"{"id":"row-\#($0)","content":{"text":"/usr/share/doc/package-\#($0)/changelog.gz"}}"# }
        let ordinary = "[" + items.joined(separator: ",") + "]"
        let parsed = try JSONParser.parse(ordinary)
        // What the budget counts is at least what the tree holds.
        #expect(parsed.footprint <= JSONParser.maxFootprintPerByte * ordinary.utf8.count)
    }
}

/// The nesting limits fit together (`NestingLimits`): the deepest reply the
/// daemon can write, `snapshot {full}` of the deepest tree with the
/// deepest content, is a message it reads.
struct NestingLimitTests {
    @Test func theDeepestReplyIsReadable() throws {
        #expect(NestingLimits.deepestReply <= NestingLimits.message)
        #expect(JSONParser.defaultMaxDepth == NestingLimits.message)
        let deepest = String(repeating: "[", count: NestingLimits.deepestReply) + String(repeating: "]", count: NestingLimits.deepestReply)
        _ = try JSONParser.parse(deepest)
    }
}
