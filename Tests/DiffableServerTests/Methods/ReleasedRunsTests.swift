import DiffableEngine
import Testing
@testable import DiffableServer
@testable import DiffableProtocol
import DiffableTestSupport

/// Giving a request's bytes back while reading them (`ReleasedRuns`): only
/// what its items can write again is given back, and whatever reads the
/// request afterwards reads it as it was sent.
@Suite struct ReleasedRunsTests {
    /// `count` items in the daemon's written form, ids 40 bytes long, with
    /// text, string, number and no content in turn.
    static func canonicalItems(_ count: Int, prefix: String = "item") -> [String] {
        (0..<count).map { k in
            let id = "\(prefix)-\(k)-0123456789abcdef-0123456789abcdef".prefix(40)
            switch k % 4 {
            case 0: return #"{"id":"\#(id)","content":{"text":"Name \#(k)"}}"#
            case 1: return #"{"id":"\#(id)","content":"plain \#(k)"}"#
            case 2: return #"{"id":"\#(id)","content":\#(k)}"#
            default: return #"{"id":"\#(id)"}"#
            }
        }
    }

    static func request(_ sections: String, id: Int = 1, rest: String = "") -> [UInt8] {
        LazyApplyTests.request(#"{"source":"r","sections":\#(sections)\#(rest)}"#, id: id)
    }

    /// Runs are elements read in the written form, across bare commas only,
    /// each released once it is `chunk` bytes long; restoring writes back
    /// exactly the bytes that were there.
    @Test func runsAreWrittenElementsAcrossBareCommas() {
        let elements = [#"{"id":"a","content":{"text":"x"}}"#, #"{"id":"b"}"#, #"{"id":"c","content":12}"#,
                        #"{"id":"d","content":"s"}"#, #"{"id":"e"}"#, #"{"id":"f","content":[1,2]}"#]
        // Written with one space after the third element: no run spans it.
        var text = ""
        var ranges: [Range<Int>] = []
        for (k, element) in elements.enumerated() {
            if k > 0 { text += k == 3 ? ", " : "," }
            ranges.append(text.utf8.count ..< text.utf8.count + element.utf8.count)
            text += element
        }
        let sent = utf8("[" + text + "]")
        func content(_ json: String) -> Content { Content(bytes: utf8(json)) }
        let items = [Item(id: "a", content: content(#"{"text":"x"}"#)), Item(id: "b"), Item(id: "c", content: content("12")),
                     Item(id: "d", content: content(#""s""#)), Item(id: "e"), Item(id: "f", content: content("[1,2]"))]
        var bytes = sent
        bytes.withUnsafeMutableBufferPointer { buffer in
            var runs = ReleasedRuns(buffer, mode: .zeros(chunk: 30))
            for (k, range) in ranges.enumerated() {
                runs.note(range.lowerBound + 1 ..< range.upperBound + 1, item: k, of: items)
            }
            // a (33 bytes) closes a run alone; b+c (34 bytes with the comma)
            // make one; the space starts a new run at d: d+e (35) make one;
            // f (26) is still being read.
            #expect(runs.runs == [
                ReleasedRuns.Run(bytes: ranges[0].lowerBound + 1 ..< ranges[0].upperBound + 1, items: 0..<1),
                ReleasedRuns.Run(bytes: ranges[1].lowerBound + 1 ..< ranges[2].upperBound + 1, items: 1..<3),
                ReleasedRuns.Run(bytes: ranges[3].lowerBound + 1 ..< ranges[4].upperBound + 1, items: 3..<5),
            ])
            #expect(runs.releasedByteCount == runs.runs.reduce(0) { $0 + $1.bytes.count - 1 })
            // All but each run's first byte are zeros now.
            for run in runs.runs {
                #expect(buffer[run.bytes.lowerBound] == UInt8(ascii: "{"))
                #expect(buffer[run.bytes.dropFirst()].allSatisfy { $0 == 0 })
            }
            runs.restore(from: items)
            #expect(runs.runs.isEmpty)
        }
        #expect(bytes == sent)
    }

    /// An item that does not follow the previous one in the items read
    /// (a parent's row held between) starts a run of its own.
    @Test func aRunFollowsTheItemsRead() {
        let a = #"{"id":"a"}"#, b = #"{"id":"b"}"#
        var bytes = utf8(a + "," + b)
        let items = [Item(id: "a"), Item(id: "held"), Item(id: "b")]
        bytes.withUnsafeMutableBufferPointer { buffer in
            var runs = ReleasedRuns(buffer, mode: .zeros(chunk: 15))
            runs.note(0 ..< 10, item: 0, of: items)
            runs.note(11 ..< 21, item: 2, of: items)
            #expect(runs.runs.isEmpty)
        }
    }

    /// A large request read with whole pages given back decodes to the same
    /// sections as one read keeping every byte, and gives back most of its
    /// bytes; in parts too.
    @Test(arguments: [false, true])
    func pagesGoBackAndTheSectionsAreTheSame(inParts: Bool) throws {
        let body = Self.request(#"[{"id":"s","items":[\#(Self.canonicalItems(20_000).joined(separator: ","))]},"#
                                + #"{"id":"t","items":["x",\#(Self.canonicalItems(5_000, prefix: "t").joined(separator: ","))]}]"#)
        let spacing = inParts ? 64 * 1024 : nil
        let (_, kept) = try #require(LazyRequest.split(body, methods: Server.lazyParamsMethods, hintSpacing: spacing, release: .keep))
        let (_, released) = try #require(LazyRequest.split(body, methods: Server.lazyParamsMethods, hintSpacing: spacing, release: .pages(chunk: 64 * 1024)))
        let expected = try #require(ApplyScanner.decode(kept))
        let decoded = try #require(ApplyScanner.decode(released))
        #expect(decoded.sections == expected.sections)
        #expect(expected.releasedByteCount == 0)
        // 1.7 MB of items in the written form: all but the pages at the
        // edges of each 64 KiB run go back.
        #expect(decoded.releasedByteCount > body.count * 4 / 5, "\(decoded.releasedByteCount) of \(body.count)")
    }

    /// Requests whose items are read (and given back) before something
    /// sends them to the tree path, or makes them an error, answer exactly
    /// as the tree path does: the bytes it reads are the ones sent.
    @Test func whatTheTreePathReadsIsWhatWasSent() {
        let many = Self.canonicalItems(400).joined(separator: ",")
        let first = Self.canonicalItems(1)[0]
        let few = Self.canonicalItems(3, prefix: "f").joined(separator: ",")
        let bodies = [
            // An item the scanner refuses, after 400 it read.
            Self.request(#"[{"id":"s","items":[\#(many),{"id":7}]}]"#),
            // The section's items given twice: the last counts.
            Self.request(#"[{"id":"s","items":[\#(many)],"items":["x"]}]"#),
            Self.request(#"[{"id":"s","items":[\#(many)],"items":[\#(many)]}]"#),
            Self.request(#"[{"id":"s","items":[\#(many)],"items":[\#(few)],"selection":"bogus"}]"#),
            Self.request(#"[{"id":"s","items":[\#(many)],"items":[{"id":7}]}]"#),
            // Sections given twice.
            Self.request(#"[{"id":"s","items":[\#(many)]}]"#, rest: #","sections":[{"id":"t","items":["y"]}]"#),
            // A nested request, valid, and with an id repeated in a child.
            Self.request(#"[{"id":"s","items":[\#(many),{"id":"p","expanded":true,"children":["c"]}]}]"#),
            Self.request(#"[{"id":"s","items":[\#(many),{"id":"p","children":[\#(first)]}]}]"#),
            // A section member after its items that is not valid.
            Self.request(#"[{"id":"s","items":[\#(many)],"selection":"bogus"}]"#),
            Self.request(#"[{"id":"s","items":[\#(many)],"header":{"title":1},"id":5}]"#),
            // A later section the scanner refuses, or that is not an object.
            Self.request(#"[{"id":"s","items":[\#(many)]},{"id":"t","items":[{"content":1}]}]"#),
            Self.request(#"[{"id":"s","items":[\#(many)]},7]"#),
            // Flat and read, then refused on its values: ids repeated, an
            // unknown member.
            Self.request(#"[{"id":"s","items":[\#(many)]},{"id":"t","items":[\#(many)]}]"#),
            Self.request(#"[{"id":"s","items":[\#(many)]}]"#, rest: #","bogus":1"#),
            // And a valid one, last, that the next apply changes.
            Self.request(#"[{"id":"s","items":[\#(many)]}]"#),
            Self.request(#"[{"id":"s","items":[\#(Self.canonicalItems(400).reversed().joined(separator: ","))]}]"#),
        ]
        LazyApplyTests.expectSameResponses(bodies.enumerated().map { k, body in
            // Distinct request ids.
            var body = body
            if let at = (0..<body.count).first(where: { body[$0...].starts(with: utf8(#""id":1,"#)) }) {
                body.replaceSubrange(at ..< at + 7, with: utf8(#""id":\#(k + 1),"#))
            }
            return body
        })
    }
}
