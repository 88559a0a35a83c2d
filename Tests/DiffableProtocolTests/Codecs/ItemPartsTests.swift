import Testing
import DiffableEngine
import DiffableTestSupport
@testable import DiffableProtocol

@Suite struct ItemPartsTests {
    /// Items written into one shared arena (an `edit`'s items) are the
    /// items `decodeItem` makes one by one: the same id, content, search
    /// text and equality, for random contents (strings with escapes and
    /// non-ASCII, objects with a `text` member, nested ones holding another
    /// `text`, other values), so nothing a frontend sees depends on the
    /// path an item was decoded by.
    @Test func itemsInOneArenaEqualItemsMadeOneByOne() throws {
        var rng = SplitMix64(seed: 5150)
        var values: [JSON] = []
        for k in 0..<3_000 {
            let text = JSONGenerator.string(&rng)
            switch k % 6 {
            case 0: values.append(.string(text))
            case 1: values.append(.object(JSONObject([("text", .string("src/view/file\(k).swift")), ("n", .number("1"))])))
            case 2: values.append(.object(JSONObject([("a", .object(JSONObject([("text", .string(text + "x"))]))),
                                                       ("text", .string(text))])))
            case 3: values.append(.object(JSONObject([("text", .string(text)), ("text2", .string(text))])))
            case 4: values.append(.object(JSONObject([("b", .string("\"text\":\"" + text)), ("text", .string(text))])))
            default: values.append(JSONGenerator.value(&rng))
            }
        }
        var parts: [SnapshotCodec.ItemParts] = []
        var expected: [Item] = []
        for (k, value) in values.enumerated() {
            let json = JSON.object(JSONObject([("id", .string("id\(k)")), ("content", value)]))
            parts.append(try SnapshotCodec.decodeItemParts(json, path: "items[\(k)]"))
            expected.append(try SnapshotCodec.decodeItem(json, path: "items[\(k)]"))
        }
        var builder = ByteArena.Builder(chunkSize: parts.reduce(0) { $0 + $1.byteCount })
        for (k, part) in parts.enumerated() {
            let item = part.item(in: &builder)
            #expect(item == expected[k], "item \(k)")
            #expect(item.id == expected[k].id && item.text == expected[k].text && item.content == expected[k].content,
                    "item \(k): \(values[k])")
            if k % 6 == 1, let text = part.text, let content = part.content {
                // A path needs no escaping: it is read in place.
                #expect(SnapshotCodec.ItemParts.range(of: text, in: content) != nil, "item \(k)")
            }
        }
    }

    /// The text's place is checked byte for byte: a text that needs
    /// escaping, or a `text` key that is not the item's text, is never
    /// taken for it.
    @Test func aTextIsFoundOnlyWhereItsBytesAre() {
        func range(_ text: String, _ content: String) -> Range<Int>? {
            SnapshotCodec.ItemParts.range(of: text, in: Array(content.utf8))
        }
        #expect(range("ab", #""ab""#) == 1..<3)
        #expect(range("a\"b", #""a\"b""#) == nil)
        #expect(range("ab", #"{"text":"ab","x":1}"#) == 9..<11)
        #expect(range("ab", #"{"text":"abc"}"#) == nil)
        #expect(range("", #"{"text":""}"#) == 9..<9)
        #expect(range("ab", #"{"x":"ab"}"#) == nil)
        #expect(range("ab", "7") == nil)
    }
}
