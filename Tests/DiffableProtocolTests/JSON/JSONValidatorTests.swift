import Testing
import DiffableTestSupport
@testable import DiffableProtocol

/// The validator (which lets a large request's params stay bytes) accepts
/// exactly what the parser accepts.
@Suite struct JSONValidatorTests {
    @Test func validatorAgreesWithParser() {
        var texts = JSONParserTests.invalid + JSONParserTests.valid.map(\.0)
        texts += ["[" + String(repeating: "[", count: 9_999) + String(repeating: "]", count: 10_000),
                  "[" + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_001)]
        var inputs = texts.map(utf8) + JSONParserTests.invalidUTF8
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300 { inputs.append(utf8(NoisyJSON.write(JSONGenerator.value(&rng), &rng))) }
        for bytes in inputs {
            let parses = (try? JSONParser.parse(bytes)) != nil
            let validates = bytes.withUnsafeBufferPointer { buffer in
                var v = JSONValidator(buffer)
                guard v.skipValue(depth: 0) else { return false }
                v.skipWhitespace()
                return v.pos == v.end
            }
            #expect(parses == validates, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    /// Items in the compact shapes the validator reads without its general
    /// loop (`skipCompactItem`), each byte replaced or dropped in turn, and
    /// nested up to the depth limit: the validator accepts exactly what the
    /// parser does.
    @Test func compactItemsValidateLikeTheParser() {
        let items = #"[{"id":"a-1","content":{"text":"x y"}},{"id":"b","content":"s"},{"id":"c"},"#
            + #"{"id":"é\n","content":{"text":"a\"\u00e9"}},{"id":"d","content":{"text":"t"},"more":1}]"#
        func validates(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { buffer in
                var v = JSONValidator(buffer)
                guard v.skipValue(depth: 0) else { return false }
                v.skipWhitespace()
                return v.pos == v.end
            }
        }
        var inputs: [[UInt8]] = []
        let base = utf8(items)
        let replacements: [UInt8] = [0x22, 0x5C, 0x7D, 0x7B, 0x2C, 0x3A, 0x20, 0x01, 0x78, 0xC3, 0x80, 0x5D]
        for i in base.indices {
            var dropped = base
            dropped.remove(at: i)
            inputs.append(dropped)
            for r in replacements where r != base[i] {
                var replaced = base
                replaced[i] = r
                inputs.append(replaced)
            }
        }
        // An invalid string whose rest spells a valid item's tail.
        inputs.append(utf8(#"[{"id":"a","content":"\q{"text":"b"}}]"#))
        inputs.append(utf8(#"[{"id":"\q{"id":"b"}]"#))
        inputs.append(utf8(#"[{"id":"\q}]"#))
        inputs.append(utf8(#"[{"id":"a","content":"\q}]"#))
        // The item's `{` at the last allowed levels, and one past them.
        let limit = JSONParser.defaultMaxDepth
        for outer in (limit - 6)...(limit + 1) {
            for nested in [items, #"[{"id":"a","content":{"text":"x"}},{"id":"b"}]"#] {
                inputs.append(utf8(String(repeating: "[", count: outer) + nested + String(repeating: "]", count: outer)))
            }
        }
        var accepted = 0
        for bytes in inputs {
            let parses = (try? JSONParser.parse(bytes)) != nil
            if parses { accepted += 1 }
            #expect(parses == validates(bytes), "\(String(decoding: bytes, as: UTF8.self))")
        }
        // Both answers occur (the mutations are not all rejected).
        #expect(accepted > 20 && accepted < inputs.count - 20)
        #expect(validates(base))
    }
}
