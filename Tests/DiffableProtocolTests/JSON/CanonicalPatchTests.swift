import Testing
import DiffableTestSupport
@testable import DiffableProtocol

/// The byte paths of field-level updates agree with the tree paths they
/// stand in for: `JSONPatch.diff` of two contents read in place
/// (`canonicalDiff`) gives the same bytes as parsing both and diffing the
/// trees, and `patchContent` spliced into the stored bytes (`spliced`)
/// gives the bytes and search text that parse, apply and write give.
@Suite struct CanonicalPatchTests {
    static func canonical(_ old: [UInt8], _ new: [UInt8]) -> JSONPatch.CanonicalDiff {
        old.withUnsafeBufferPointer { a in new.withUnsafeBufferPointer { b in JSONPatch.canonicalDiff(from: a, to: b) } }
    }

    /// The tree path's answer for a pair, as the byte walk states it.
    static func tree(_ old: JSON, _ new: JSON) -> JSONPatch.CanonicalDiff {
        JSONPatch.treeDiff(from: JSONWriter.bytes(old), to: JSONWriter.bytes(new)).map(JSONPatch.CanonicalDiff.patch) ?? .content
    }

    /// `contains` (whether a content has a `"text":` at all) finds a
    /// needle wherever it is, as a naive scan does.
    @Test func containsAgreesWithAScan() {
        var rng = SplitMix64(seed: 0xC0471)
        let alphabet = Array(#""text:{}"#.utf8)
        for _ in 0..<4000 {
            let bytes = (0..<Int.random(in: 0..<40, using: &rng)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
            let needle = Bool.random(using: &rng) ? Array(#""text":"#.utf8)
                : (0..<Int.random(in: 0..<4, using: &rng)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
            let scanned = !needle.isEmpty && needle.count <= bytes.count
                && (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<$0 + needle.count]) == needle }
            let found = bytes.withUnsafeBufferPointer { CanonicalJSON($0).contains(needle) }
            #expect(found == scanned, "\(bytes) \(needle)")
        }
    }

    @Test func byteDiffIsTheTreeDiff() throws {
        var rng = SplitMix64(seed: 0xB17E)
        var walked = 0
        for round in 0..<6000 {
            let old = round % 3 == 0 ? Self.wideRow(&rng) : JSONGenerator.value(&rng)
            let new = Bool.random(using: &rng) || round % 3 == 0 ? Self.edited(old, &rng) : JSONGenerator.value(&rng)
            let oldBytes = JSONWriter.bytes(old), newBytes = JSONWriter.bytes(new)
            let bytes = Self.canonical(oldBytes, newBytes)
            // The writer's bytes are always read in place (no value here is 32 deep).
            #expect(bytes != .unreadable, "\(JSONWriter.string(old)) → \(JSONWriter.string(new))")
            if bytes != .unreadable { walked += 1 }
            #expect(bytes == Self.tree(old, new), "\(JSONWriter.string(old)) → \(JSONWriter.string(new))")
            #expect(JSONPatch.diff(from: oldBytes, to: newBytes) == JSONPatch.treeDiff(from: oldBytes, to: newBytes))
            if case .patch(let patch) = bytes {
                #expect(JSONWriter.bytes(try JSONPatchPropertyTests.applied(patch, to: old)) == newBytes)
            }
        }
        #expect(walked == 6000)
    }

    /// Equal values give no op whatever they hold (objects that repeat a
    /// name included); objects that repeat a name and differ are replaced.
    @Test func equalValuesGiveNoOp() throws {
        let dup = JSON.object(JSONObject([("a", 1), ("a", 2), ("pad", .string(String(repeating: "p", count: 60)))]))
        let wrapped: JSON = ["x": dup, "y": 1, "pad": .string(String(repeating: "q", count: 80))]
        var changed = wrapped
        if case .object(var o) = changed { o["y"] = 2; changed = .object(o) }
        for (old, new) in [(dup, dup), (wrapped, changed)] {
            let a = JSONWriter.bytes(old), b = JSONWriter.bytes(new)
            #expect(Self.canonical(a, b) == Self.tree(old, new))
        }
        #expect(JSONPatch.diff(from: dup, to: dup) == Array("[]".utf8))
        #expect(JSONPatch.diff(from: wrapped, to: changed).map { String(decoding: $0, as: UTF8.self) }
            == #"[{"op":"replace","path":"/y","value":2}]"#)
    }

    @Test func bytesNotWrittenByTheDaemonAreLeftToTheTree() {
        let pad = String(repeating: "x", count: 60)
        for (old, new) in [
            (#"{"a": 1,"pad":"\#(pad)"}"#, #"{"a":2,"pad":"\#(pad)"}"#),
            (#"{"a":"\/","pad":"\#(pad)"}"#, #"{"a":"\/x","pad":"\#(pad)"}"#),
            (#"{"a":"\u0041","pad":"\#(pad)"}"#, #"{"a":"B","pad":"\#(pad)"}"#),
            (#"{"a":"\u000A","pad":"\#(pad)"}"#, #"{"a":"B","pad":"\#(pad)"}"#),
            (#"{"a":1,"pad":"\#(pad)"} "#, #"{"a":2,"pad":"\#(pad)"}"#),
        ] {
            let a = Array(old.utf8), b = Array(new.utf8)
            #expect(Self.canonical(a, b) == .unreadable, "\(old)")
            #expect(JSONPatch.diff(from: a, to: b) == JSONPatch.treeDiff(from: a, to: b))
        }
        // Deeper than the walk goes: the tree answers, the same way.
        var old = JSON.number("1"), new = JSON.number("2")
        for _ in 0..<40 {
            old = ["k": old, "pad": "................"]
            new = ["k": new, "pad": "................"]
        }
        let a = JSONWriter.bytes(old), b = JSONWriter.bytes(new)
        #expect(Self.canonical(a, b) == .unreadable)
        #expect(JSONPatch.diff(from: a, to: b) == JSONPatch.treeDiff(from: a, to: b))
        #expect(JSONPatch.diff(from: a, to: b) != nil)
    }

    @Test func splicedPatchesGiveTheGeneralPathsBytesAndText() throws {
        var rng = SplitMix64(seed: 0x5911CE)
        var spliced = 0, failed = 0
        for round in 0..<8000 {
            let doc: JSON = round % 2 == 0 ? Self.wideRow(&rng) : JSONGenerator.value(&rng)
            let patch = round % 4 == 0 ? Self.replaceOne(in: doc, &rng)
                : JSONPatchGenerator.patch(for: doc, count: Int.random(in: 1...3, using: &rng), &rng)
            let ops = try JSONPatch.decode(patch, path: "patch")
            let bytes = JSONWriter.bytes(doc)
            let fast = bytes.withUnsafeBufferPointer { JSONPatch.spliced(ops, into: $0) }
            guard let general = try? JSONPatch.apply(ops, to: doc) else {
                #expect(fast == nil, "\(JSONWriter.string(doc)) \(JSONWriter.string(patch)): spliced where the patch fails")
                failed += 1
                continue
            }
            guard let fast else { continue }
            spliced += 1
            #expect(fast.bytes == JSONWriter.bytes(general), "\(JSONWriter.string(doc)) \(JSONWriter.string(patch))")
            #expect(fast.text == SnapshotCodec.searchText(of: general), "\(JSONWriter.string(doc)) \(JSONWriter.string(patch))")
        }
        #expect(spliced > 2500 && failed > 1000, "\(spliced) spliced, \(failed) failed")
    }

    @Test func searchTextFollowsTheSplice() throws {
        let cases: [(JSON, String, String?)] = [
            (["text": "old", "n": 1], #"[{"op":"replace","path":"/text","value":"new \"quoted\""}]"#, "new \"quoted\""),
            (["text": "old", "n": 1], #"[{"op":"remove","path":"/text"}]"#, nil),
            (["n": 1], #"[{"op":"add","path":"/text","value":"é"}]"#, "é"),
            (["text": "a", "n": 1], #"[{"op":"add","path":"/text","value":2}]"#, nil),
            ("plain", #"[{"op":"replace","path":"","value":"line\nbreak"}]"#, "line\nbreak"),
        ]
        for (doc, patch, text) in cases {
            let ops = try JSONPatch.decode(try JSONParser.parse(Array(patch.utf8)), path: "patch")
            let fast = try #require(JSONWriter.bytes(doc).withUnsafeBufferPointer { JSONPatch.spliced(ops, into: $0) })
            #expect(fast.text == text, "\(patch)")
            #expect(fast.bytes == JSONWriter.bytes(try JSONPatch.apply(ops, to: doc)))
        }
        // A result of null (no content) is left to the general path.
        let ops = try JSONPatch.decode(try JSONParser.parse(Array(#"[{"op":"replace","path":"","value":null}]"#.utf8)), path: "patch")
        #expect(JSONWriter.bytes(JSON.object(JSONObject([("a", 1)]))).withUnsafeBufferPointer { JSONPatch.spliced(ops, into: $0) } == nil)
    }

    // MARK: generators

    /// A ticker-like row: 20 unique fields of numbers and strings, some
    /// names needing escapes, one nested object and one array.
    static func wideRow<R: RandomNumberGenerator>(_ rng: inout R) -> JSON {
        var members: [(String, JSON)] = (0..<16).map { i in
            ("f\(i)", Bool.random(using: &rng) ? .number("\(Int.random(in: 0..<100_000, using: &rng)).25") : .string(JSONGenerator.string(&rng)))
        }
        members += [("a/b", 1), ("m~n", "x"), ("q\"\u{1}", .number("2")), ("nested", ["x": 1, "y": [1, 2, 3]])]
        if Bool.random(using: &rng) { members.append(("text", .string(JSONGenerator.string(&rng)))) }
        return .object(JSONObject(members))
    }

    /// `value` with a few scalar members changed (wide rows), else a
    /// generated edit.
    static func edited<R: RandomNumberGenerator>(_ value: JSON, _ rng: inout R) -> JSON {
        guard case .object(let object) = value, object.count >= 20, Bool.random(using: &rng) else {
            return JSONPatchGenerator.edited(value, &rng)
        }
        var members = object.members.map { ($0.key, $0.value) }
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let i = Int.random(in: 0..<members.count, using: &rng)
            members[i].1 = Int.random(in: 0..<4, using: &rng) == 0 ? JSONGenerator.value(&rng, depth: 3) : .number("\(Int.random(in: 0..<999, using: &rng))")
        }
        return .object(JSONObject(members))
    }

    /// One `replace` (or `add`, or `test` then `replace`) of a top-level
    /// member: what a ticker sends.
    static func replaceOne<R: RandomNumberGenerator>(in doc: JSON, _ rng: inout R) -> JSON {
        guard case .object(let object) = doc, let member = object.members.randomElement(using: &rng) else {
            return [["op": "replace", "path": "", "value": JSONGenerator.value(&rng, depth: 3)]]
        }
        let path = JSON.string(JSONPointer(tokens: [member.key]).description)
        let value = JSONGenerator.value(&rng, depth: 3)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return [["op": "replace", "path": path, "value": value]]
        case 1: return [["op": "add", "path": path, "value": value]]
        default: return [["op": "test", "path": path, "value": member.value], ["op": "replace", "path": path, "value": value]]
        }
    }
}
