import Testing
import DiffableTestSupport
@testable import DiffableProtocol

/// The daemon's patches (`updates: "patch"`) turn the old content into the
/// new one exactly, and patches applied by the daemon (`patchContent`)
/// agree with a plain second implementation.
@Suite struct JSONPatchPropertyTests {
    /// Applies patch bytes as a client would: parse, decode, apply.
    static func applied(_ patch: [UInt8], to old: JSON) throws -> JSON {
        let ops = try JSONPatch.decode(try JSONParser.parse(patch), path: "patch")
        return try JSONPatch.apply(ops, to: old)
    }

    @Test func diffOfRelatedPairsGivesTheNewContentExactly() throws {
        var rng = SplitMix64(seed: 32)
        var patched = 0
        for _ in 0..<4000 {
            let old = JSONGenerator.value(&rng)
            let new = Bool.random(using: &rng) ? JSONPatchGenerator.edited(old, &rng) : JSONGenerator.value(&rng)
            let newBytes = JSONWriter.bytes(new)
            guard let patch = JSONPatch.diff(from: JSONWriter.bytes(old), to: newBytes) else { continue }
            patched += 1
            #expect(patch.count <= newBytes.count)
            #expect(JSONWriter.bytes(try Self.applied(patch, to: old)) == newBytes)
            // The plain implementation agrees.
            #expect(ReferencePatch.apply(try JSONParser.parse(patch), to: old).map(JSONWriter.bytes) == newBytes)
            // A function of the two contents alone.
            #expect(JSONPatch.diff(from: JSONWriter.bytes(old), to: newBytes) == patch)
        }
        // Most related pairs are patched, not sent whole.
        #expect(patched > 800)
    }

    @Test func diffOfWideRowsChangesOneField() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let fields = (0..<20).map { i in ("f\(i)", JSON.number(String(Int.random(in: 0..<100_000, using: &rng)) + ".25")) }
            var changed = fields
            let k = Int.random(in: 0..<20, using: &rng)
            changed[k].1 = .number(Bool.random(using: &rng) ? "1.250" : "99")
            let old = JSON.object(JSONObject(fields)), new = JSON.object(JSONObject(changed))
            let patch = try #require(JSONPatch.diff(from: old, to: new))
            #expect(String(decoding: patch, as: UTF8.self) == "[{\"op\":\"replace\",\"path\":\"/f\(k)\",\"value\":\(changed[k].1.numberLexeme ?? "")}]")
            #expect(JSONWriter.bytes(try Self.applied(patch, to: old)) == JSONWriter.bytes(new))
        }
    }

    @Test func numbersKeepTheirSpelling() throws {
        let pad: JSON = "a field long enough for a patch of two ops to be shorter than the content"
        let old: JSON = ["a": .number("1"), "b": [.number("2.50")], "pad": pad]
        let new: JSON = ["a": .number("1.0"), "b": [.number("2.5")], "pad": pad]
        let patch = try #require(JSONPatch.diff(from: old, to: new))
        #expect(String(decoding: patch, as: UTF8.self)
            == #"[{"op":"replace","path":"/a","value":1.0},{"op":"replace","path":"/b/0","value":2.5}]"#)
        #expect(JSONWriter.bytes(try Self.applied(patch, to: old)) == JSONWriter.bytes(new))
    }

    @Test func arrayRule() throws {
        func diff(_ a: JSON, _ b: JSON) -> String? { JSONPatch.diff(from: a, to: b).map { String(decoding: $0, as: UTF8.self) } }
        let x = String(repeating: "x", count: 40), y = String(repeating: "y", count: 40)
        let z = String(repeating: "z", count: 40), w = String(repeating: "w", count: 40)
        let long: JSON = [.string(x), .string(y), .string(z), .string(w)]
        #expect(diff(long, [.string(x), .string(y), "NEW", .string(z), .string(w)])
            == #"[{"op":"add","path":"/2","value":"NEW"}]"#)
        #expect(diff(long, [.string(x), .string(w)])
            == #"[{"op":"remove","path":"/1"},{"op":"remove","path":"/1"}]"#)
        #expect(diff(long, [.string(x), .string(y), .string(z), "v"])
            == #"[{"op":"replace","path":"/3","value":"v"}]"#)
        // Element-wise in the middle, then the extra elements added.
        #expect(diff(long, [.string(x), "a", "b", .string(w)])
            == #"[{"op":"replace","path":"/1","value":"a"},{"op":"replace","path":"/2","value":"b"}]"#)
        #expect(diff(long, [.string(x), .string(y), "a", .string(z), "b", .string(w)])
            == "[{\"op\":\"replace\",\"path\":\"/2\",\"value\":\"a\"},{\"op\":\"add\",\"path\":\"/3\",\"value\":\"\(z)\"},"
            + "{\"op\":\"add\",\"path\":\"/4\",\"value\":\"b\"}]")
        // Nothing in common: the content is shorter than any patch.
        #expect(diff(long, ["a", "b"]) == nil)
        #expect(diff(["k": long], ["k": long]) == "[]")
    }

    @Test func objectsWhoseOrderChangedAreReplacedWhole() throws {
        let old: JSON = ["a": "aaaaaaaaaaaaaaaaaaaa", "b": ["x": 1, "y": 2], "c": "cccccccccccccccccccccccccc"]
        let new: JSON = ["a": "aaaaaaaaaaaaaaaaaaaa", "b": ["y": 2, "x": 1], "c": "cccccccccccccccccccccccccc"]
        let patch = try #require(JSONPatch.diff(from: old, to: new))
        #expect(String(decoding: patch, as: UTF8.self) == #"[{"op":"replace","path":"/b","value":{"y":2,"x":1}}]"#)
        let dup = JSON.object(JSONObject([("a", 1), ("a", 2), ("cccccccccccccccccccccc", 3)]))
        let dupNew = JSON.object(JSONObject([("a", 1), ("a", 3), ("cccccccccccccccccccccc", 3)]))
        #expect(JSONPatch.diff(from: dup, to: dupNew) == nil)
    }

    @Test func escapedNamesAndUnicode() throws {
        let old: JSON = ["a/b": 1, "m~n": 2, "é": "日本", "e\u{301}": "x", "": 0, "long": .string(String(repeating: ".", count: 300))]
        let new: JSON = ["a/b": 2, "m~n": 3, "é": "日本😀", "e\u{301}": "y", "": 1, "long": .string(String(repeating: ".", count: 300))]
        let patch = try #require(JSONPatch.diff(from: old, to: new))
        let text = String(decoding: patch, as: UTF8.self)
        #expect(text.contains(#""path":"/a~1b""#) && text.contains(#""path":"/m~0n""#) && text.contains(#""path":"/""#))
        #expect(JSONWriter.bytes(try Self.applied(patch, to: old)) == JSONWriter.bytes(new))
    }

    @Test func deepContentIsDiffedAndPatchedWithoutRecursion() throws {
        var old = JSON.number("1"), new = JSON.number("2")
        for i in 0..<(NestingLimits.content - 1) {
            old = i.isMultiple(of: 2) ? ["k": old, "pad": "................"] : [old, "................"]
            new = i.isMultiple(of: 2) ? ["k": new, "pad": "................"] : [new, "................"]
        }
        let patch = try #require(JSONPatch.diff(from: JSONWriter.bytes(old), to: JSONWriter.bytes(new)))
        #expect(JSONWriter.bytes(try Self.applied(patch, to: old)) == JSONWriter.bytes(new))
    }

    @Test func randomPatchesAgreeWithThePlainImplementation() throws {
        var rng = SplitMix64(seed: 6902)
        var applied = 0, failed = 0
        for _ in 0..<8000 {
            let doc = JSONGenerator.value(&rng)
            let patch = JSONPatchGenerator.patch(for: doc, count: Int.random(in: 1...3, using: &rng), &rng)
            let ops = try JSONPatch.decode(patch, path: "patch")
            let expected = ReferencePatch.apply(patch, to: doc)
            do {
                let result = try JSONPatch.apply(ops, to: doc)
                applied += 1
                #expect(expected.map(JSONWriter.bytes) == JSONWriter.bytes(result))
            } catch {
                failed += 1
                #expect(expected == nil, "\(JSONWriter.string(doc)) \(JSONWriter.string(patch)) \(error)")
            }
        }
        #expect(applied > 1000 && failed > 1000, "\(applied) applied, \(failed) failed")
    }
}
