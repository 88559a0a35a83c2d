@testable import DiffableEngine
import Testing
@testable import DiffableServer
import DiffableTestSupport
@testable import DiffableProtocol

/// Reading a large items array in parts (`ApplyScanner+Parts`): the
/// validator's split hints are element starts of their array, and the parts
/// read exactly what one sequential read does. (`LazyApplyTests` also
/// sends every request through a server that reads in parts.)
@Suite struct PartDecodingTests {
    /// With a hint at every element: every hint is the first byte of a value
    /// that follows a comma inside the array whose `[` it names.
    @Test func hintsAreElementStartsOfTheirArray() {
        var rng = SplitMix64(seed: 21)
        var noted = 0
        for _ in 0..<300 {
            let bytes = utf8(NoisyJSON.write(JSONGenerator.value(&rng), &rng))
            bytes.withUnsafeBufferPointer { buffer in
                var v = JSONValidator(buffer)
                v.hintSpacing = 1
                guard v.skipValue(depth: 0) else { return }
                var previous = -1
                for hint in v.splitHints {
                    noted += 1
                    #expect(buffer[hint.array] == UInt8(ascii: "["))
                    #expect(hint.array < hint.element && previous < hint.element)
                    previous = hint.element
                    var before = hint.element - 1
                    while [0x20, 0x0A, 0x0D, 0x09].contains(buffer[before]) { before -= 1 }
                    #expect(buffer[before] == UInt8(ascii: ","))
                    var element = JSONValidator(buffer, at: hint.element)
                    let skipped = element.skipValue(depth: 0)
                    #expect(skipped)
                    element.skipWhitespace()
                    #expect([UInt8(ascii: ","), UInt8(ascii: "]")].contains(element.byte(element.pos)))
                    // The element belongs to that array: skipping the array
                    // from its `[` passes over it.
                    var array = JSONValidator(buffer, at: hint.array)
                    let skippedArray = array.skipValue(depth: 0)
                    #expect(skippedArray && array.pos > element.pos)
                }
            }
        }
        #expect(noted > 100)
    }

    /// Clean random requests with long sections, decoded with and without
    /// split hints: the same sections, ids and nesting; and flat sections
    /// long enough to split were read in parts (their list is chunked).
    @Test(arguments: [31, 32, 33, 34] as [UInt64])
    func partsReadWhatOneReadReads(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var split = 0
        for id in 1...30 {
            var sections: [String] = []
            for s in 0..<Int.random(in: 1...3, using: &rng) {
                let count = Int.random(in: 0...60, using: &rng)
                let nested = RandomApply.chance(5, &rng)
                let items = (0..<count).map { k -> String in
                    let itemID = #""i\#(s)-\#(k)\#(RandomApply.chance(9, &rng) ? "\\u00e9" : "")""#
                    switch Int.random(in: 0..<4, using: &rng) {
                    case 0: return itemID
                    case 1: return #"{"id":\#(itemID),"content":{"text":"t\#(k)","n":[1, 2]}}"#
                    case 2: return #"{ "content" : "a\"b" , "id" : \#(itemID) }"#
                    default:
                        return nested && k % 7 == 3 ? #"{"id":\#(itemID),"children":["c\#(s)-\#(k)"]}"#
                            : #"{"id":\#(itemID),"content":[{"text":"x"}, null]}"#
                    }
                }
                sections.append(#"{"id":"s\#(s)","items":[\#(items.joined(separator: ", "))]}"#)
            }
            let body = LazyApplyTests.request(#"{"source":"p","sections":[\#(sections.joined(separator: ","))]}"#, id: id)
            let (_, whole) = try #require(LazyRequest.split(body, methods: Server.lazyParamsMethods))
            let (_, hinted) = try #require(LazyRequest.split(body, methods: Server.lazyParamsMethods, hintSpacing: 1))
            #expect(whole.splitHints.isEmpty)
            let one = try #require(ApplyScanner.decode(whole))
            let parts = try #require(ApplyScanner.decode(hinted))
            #expect(one.sections == parts.sections)
            #expect(one.nesting.map { $0?.parentRow } == parts.nesting.map { $0?.parentRow })
            for (k, section) in parts.sections.enumerated() where one.nesting[k] == nil && section.items.count >= 3 {
                #expect(section.items.isChunked, "section \(k) of request \(id) was not read in parts")
                if section.items.isChunked { split += 1 }
            }
        }
        #expect(split > 10)
    }

    /// Parts that disagree with the array (a start that is not where an
    /// element starts) are refused, and the caller's sequential read stands.
    @Test func misplacedPartsAreRefused() throws {
        let body = LazyApplyTests.request(#"{"source":"p","sections":[{"id":"s","items":["a","b,c","d"]}]}"#)
        let marker = utf8(#""items":["#)
        let array = try #require((0..<body.count).first { body[$0...].starts(with: marker) }) + marker.count - 1
        body.withUnsafeBufferPointer { buffer in
            // Inside the string "b,c": not an element start.
            let inside = array + 7
            #expect(buffer[inside] == UInt8(ascii: ","))
            var s = ByteScanner(buffer, range: array + 1 ..< buffer.count)
            #expect(ApplyScanner.decodeItemsInParts(&s, starts: [inside + 1], checkpoint: { _ in true }) == nil)
            // At "d": three items in two parts.
            var t = ByteScanner(buffer, range: array + 1 ..< buffer.count)
            let d = array + 11
            #expect(buffer[d] == UInt8(ascii: "\""))
            let parts = ApplyScanner.decodeItemsInParts(&t, starts: [d], checkpoint: { _ in true })
            #expect(parts?.map { $0.map(\.id) } == [["a", "b,c"], ["d"]])
        }
        // At an element of an item's own content array: that part alone
        // reads (one item, "w"), but the first part runs past its start.
        let nested = LazyApplyTests.request(#"{"source":"p","sections":[{"id":"s","items":[{"id":"a","content":["z","w"]},"b"]}]}"#)
        let items = try #require((0..<nested.count).first { nested[$0...].starts(with: marker) }) + marker.count - 1
        let w = try #require((0..<nested.count).first { nested[$0...].starts(with: utf8(#""w""#)) })
        nested.withUnsafeBufferPointer { buffer in
            var s = ByteScanner(buffer, range: items + 1 ..< buffer.count)
            #expect(ApplyScanner.decodeItemsInParts(&s, starts: [w], checkpoint: { _ in true }) == nil)
        }
    }

    /// The ids' hashes `apply` takes from the items it made (on two
    /// threads past 100k items, across sections) are every id's hash, in
    /// order; and they find a duplicate in either half.
    @Test func idHashesFromItemsAreTheRequestsHashes() {
        var sections: [Section] = []
        var expected: [UInt64] = []
        for s in 0..<7 {
            let items = (0..<(s == 3 ? 90_000 : 9_000)).map { Item(id: "s\(s)-\($0)-0123456789abcdef") }
            for item in items { item.withIDBytes { expected.append(IDHash.of($0)) } }
            var list = ItemList(items)
            if s == 3 { list.chunkify() }
            sections.append(Section(id: "s\(s)", items: list))
        }
        let hashes = IDHashes(itemsOf: sections)
        #expect(hashes.hashes.count == 144_000)
        #expect(hashes.hashes == expected)
        #expect(hashes.provesDistinct())
        for (s, r) in [(0, 5), (6, 8_999)] {
            var repeated = sections
            var items = Array(repeated[s].items)
            items[r] = Item(id: "s3-77-0123456789abcdef")
            repeated[s].items = ItemList(items)
            #expect(!IDHashes(itemsOf: repeated).provesDistinct())
        }
    }
}

extension ApplyScanner {
    /// `decodeItemsInParts` with no previous items to reuse.
    static func decodeItemsInParts(_ s: inout ByteScanner, starts: [Int],
                                   checkpoint: (ByteScanner) -> Bool) -> [[Item]]? {
        var arenas = ByteArena.Writer()
        return ItemList().withRecycler { recycler in
            var released = ReleasedRuns.keeping
            return decodeItemsInParts(&s, starts: starts, arenas: &arenas, recycler: recycler,
                                      released: &released, checkpoint: checkpoint)
        }
    }
}
