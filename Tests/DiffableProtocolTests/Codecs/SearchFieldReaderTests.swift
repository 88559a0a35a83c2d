import Testing
import DiffableTestSupport
@testable import DiffableProtocol

/// `search`'s `fields` read from stored content: member names and JSON
/// pointers, read from the canonical bytes without a tree, agree with the
/// pointer read on the parsed value (`JSONPatch.value`), escapes,
/// duplicates and arrays included.
@Suite struct SearchFieldReaderTests {
    static func reader(_ names: [String]) -> SearchFieldReader? {
        if case .success(let reader) = SearchFieldReader.make(names) { return reader }
        return nil
    }

    static func texts(_ names: [String], _ content: JSON) -> [String?] {
        let bytes = JSONWriter.bytes(content)
        return bytes.withUnsafeBufferPointer { reader(names)?.texts($0) ?? [] }
    }

    @Test func membersAndPointers() throws {
        let content: JSON = .object(JSONObject([
            ("name", .string("Main.swift")),
            ("path", .string("Sources/app/Main.swift")),
            ("meta", .object(JSONObject([("kind", .string("swift")), ("a/b", .string("slash")), ("m~n", .string("tilde"))]))),
            ("tags", .array([.string("x"), .string("y")])),
            ("size", .number("12")),
            ("name", .string("Last.swift")),  // a duplicate: the last counts
            ("q\"k", .string("quoted key")),
        ]))
        #expect(Self.texts(["name", "path", "/meta/kind", "/meta/a~1b", "/meta/m~0n", "/tags/1", "/tags/2", "size",
                            "missing", "/meta", "q\"k", "/q\"k"], content)
                == ["Last.swift", "Sources/app/Main.swift", "swift", "slash", "tilde", "y", nil, nil,
                    nil, nil, "quoted key", "quoted key"])
        // A string content has no members.
        #expect(Self.texts(["name"], .string("Main.swift")) == [nil])
        #expect(Self.texts(["name"], .object(JSONObject([("name", .string("a\u{0B}b\\\"c"))]))) == ["a\u{0B}b\\\"c"])
    }

    @Test func invalidPointersAreRefused() {
        if case .failure(let invalid) = SearchFieldReader.make(["name", "/a~2b"]) {
            #expect(invalid.index == 1)
        } else {
            Issue.record("\"/a~2b\" was accepted")
        }
        // Without a leading slash it is a member name, whatever it holds.
        #expect(Self.reader(["a~2b"]) != nil)
    }

    /// Random contents and pointers to what they hold (and beyond): the
    /// byte scan answers what the parsed value says.
    @Test func scanAgreesWithTheParsedValue() throws {
        var rng = SplitMix64(seed: 30)
        for _ in 0..<2000 {
            let content = JSONGenerator.value(&rng)
            // A pointer along the value, sometimes one token too far.
            var tokens: [String] = []
            var current = content
            walk: for _ in 0..<Int.random(in: 0...4, using: &rng) {
                switch current {
                case .object(let object) where !object.members.isEmpty:
                    let member = object.members[Int.random(in: 0..<object.members.count, using: &rng)]
                    tokens.append(member.key)
                    current = object[member.key] ?? .null
                case .array(let array) where !array.isEmpty:
                    let k = Int.random(in: 0..<array.count + 1, using: &rng)
                    tokens.append(String(k))
                    current = k < array.count ? array[k] : .null
                default:
                    tokens.append(JSONGenerator.string(&rng))
                    break walk
                }
            }
            guard !tokens.isEmpty else { continue }
            let pointer = JSONPointer(tokens: tokens)
            var expected: String?
            if case .string(let s)? = try? JSONPatch.value(at: pointer, in: content) { expected = s }
            #expect(Self.texts([pointer.description], content) == [expected], "\(pointer) in \(JSONWriter.string(content))")
        }
    }
}
