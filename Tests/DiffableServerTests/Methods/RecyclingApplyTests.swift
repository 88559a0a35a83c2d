import DiffableEngine
import Testing
@testable import DiffableServer
import DiffableTestSupport
@testable import DiffableProtocol

/// An `apply` that re-sends items the source holds reuses them
/// (`ItemRecycler`, `ApplyScanner.consumeCanonical`): the answers and the
/// state must be exactly those of the same request written compactly
/// without recycling, whatever the bytes look like, and unchanged items
/// must really be shared with the previous snapshot.
@Suite struct RecyclingApplyTests {
    static func element(_ id: String, _ content: String?) -> String {
        content.map { #"{"id":"\#(id)","content":\#($0)}"# } ?? #"{"id":"\#(id)"}"#
    }

    static func body(_ elements: [String], id: Int, source: String = "t") -> [UInt8] {
        LazyApplyTests.request(#"{"source":"\#(source)","sections":[{"id":"s","items":[\#(elements.joined(separator: ","))]}]}"#, id: id)
    }

    static func snapshotRequest(id: Int) -> [UInt8] {
        utf8(#"{"jsonrpc":"2.0","id":\#(id),"method":"snapshot","params":{"source":"t","full":true}}"#)
    }

    /// Bodies that re-send a list with every kind of change, each followed
    /// by a `snapshot` of the state: same responses on every path.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func resentListsGiveTheTreePathsAnswers(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var list: [(id: String, content: String?)] = (0..<300).map { ("id-\($0)-0123456789abcdef", #"{"text":"t\#($0)"}"#) }
        var bodies: [[UInt8]] = []
        var fresh = 1000
        for round in 1...12 {
            var elements: [String] = []
            var next: [(id: String, content: String?)] = []
            var i = 0
            while i < list.count {
                let (id, content) = list[i]
                switch Int.random(in: 0..<40, using: &rng) {
                case 0: i += Int.random(in: 1...60, using: &rng)  // deleted run
                case 1:
                    let n = "id-\(fresh)-new"; fresh += 1
                    next.append((n, "\"\(n)\"")); elements.append(Self.element(n, "\"\(n)\""))
                case 2:  // content changed
                    let c = #"{"text":"changed \#(round)"}"#
                    next.append((id, c)); elements.append(Self.element(id, c)); i += 1
                case 3:  // same item, other spellings
                    next.append((id, content))
                    let c = content ?? "null"
                    elements.append(RandomApply.pick([#"{"content":\#(c),"id":"\#(id)"}"#,
                                                      #"{ "id":"\#(id)","content":\#(c)}"#,
                                                      #"{"id":"\#(id)","content":\#(c),"x":1}"#,
                                                      #"{"id":"\#(id)","content":null}"#,
                                                      #"{"id":"\#(id)"}"#, "\"\(id)\""], &rng))
                    if elements.last!.contains("null") || !elements.last!.contains("content") {
                        next[next.count - 1].content = nil
                    }
                    i += 1
                case 4:  // content dropped
                    next.append((id, nil)); elements.append(Self.element(id, nil)); i += 1
                case 5:  // duplicate id: the request is refused, the state kept
                    elements.append(Self.element(id, content)); elements.append(Self.element(id, content)); i += 1
                    next.append((id, content)); next.append((id, content))
                default:
                    next.append((id, content)); elements.append(Self.element(id, content)); i += 1
                }
            }
            bodies.append(Self.body(elements, id: round))
            bodies.append(Self.snapshotRequest(id: 100 + round))
            if Set(next.map(\.id)).count == next.count { list = next }
        }
        LazyApplyTests.expectSameResponses(bodies)
    }

    /// An id holding quotes could line its bytes up with a different
    /// element (`{"id":"x","content":1,"id":"y",…}` is an item `y`): such
    /// ids are never matched by their bytes.
    @Test func idsWithQuotesAreNotMatchedByTheirBytes() {
        let tricky = #"x\",\"content\":1,\"id\":\"y"#  // the id x","content":1,"id":"y
        LazyApplyTests.expectSameResponses([
            Self.body([Self.element(tricky, #"{"text":"a"}"#)], id: 1),
            Self.body([#"{"id":"x","content":1,"id":"y","content":{"text":"a"}}"#], id: 2),
            Self.snapshotRequest(id: 3),
            Self.body([Self.element(#"a\\b"#, "1"), Self.element(#"a\"b"#, "2")], id: 4),
            Self.body([Self.element(#"a\\b"#, "1"), Self.element(#"a\"b"#, "2")], id: 5),
            Self.snapshotRequest(id: 6),
        ])
    }

    /// Unchanged items of a re-sent list share their storage with the
    /// previous snapshot, read whole or in parts; changed ones do not.
    @Test(arguments: [false, true])
    func unchangedItemsShareStorage(inParts: Bool) throws {
        let server = Server()
        _ = server.handle(body: utf8(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#))
        let ids = (0..<2000).map { "item-\($0)-0123456789abcdef" }
        let first = ids.map { Self.element($0, #"{"text":"\#($0)"}"#) }
        _ = server.handle(body: Self.body(first, id: 1), lazyFrom: 0, hintSpacing: inParts ? 1 : nil)
        let before = try #require(server.sources["t"]?.snapshot.sections[0].items)
        var second = first
        second[7] = Self.element(ids[7], #"{"text":"changed"}"#)
        second.remove(at: 1000)
        _ = server.handle(body: Self.body(second, id: 2), lazyFrom: 0, hintSpacing: inParts ? 1 : nil)
        let after = try #require(server.sources["t"]?.snapshot.sections[0].items)
        #expect(after.count == 1999)
        func shares(_ a: Item?, _ b: Item) -> Bool {
            guard let x = a?.content, let y = b.content else { return false }
            return x.sharesStorage(with: y)
        }
        let held = Dictionary(uniqueKeysWithValues: before.map { ($0.id, $0) })
        let shared = after.filter { shares(held[$0.id], $0) }.count
        #expect(shared == 1998, "unchanged items reused: \(shared) of 1998")
        #expect(!shares(held[ids[7]], after[7]))
        #expect(after[7].content == Content(bytes: Array(#"{"text":"changed"}"#.utf8)))
    }

    /// Contents of an `apply` are written into shared arenas; an item kept
    /// from an arena that the source now uses less than half of is copied
    /// out at the next `apply`, so that arena can go; items kept from a
    /// well-used arena stay shared.
    @Test(arguments: [false, true])
    func keptItemsLeaveSparseArenas(inParts: Bool) throws {
        let server = Server()
        _ = server.handle(body: utf8(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#))
        let ids = (0..<3000).map { "item-\($0)-0123456789abcdef" }
        func send(_ version: (Int) -> Int, id: Int) throws -> ItemList {
            let elements = ids.indices.map { Self.element(ids[$0], #"{"text":"v\#(version($0)) \#(ids[$0])"}"#) }
            _ = server.handle(body: Self.body(elements, id: id), lazyFrom: 0, hintSpacing: inParts ? 1 : nil)
            return try #require(server.sources["t"]?.snapshot.sections[0].items)
        }
        func shared(_ a: Item, _ b: Item) -> Bool {
            guard let x = a.content, let y = b.content else { return false }
            return x.sharesStorage(with: y)
        }
        let first = try send({ _ in 1 }, id: 1)
        // 70% change: the first apply's arenas keep 30% of their bytes.
        let second = try send({ $0 % 10 < 7 ? 2 : 1 }, id: 2)
        #expect(second.count == 3000)
        for k in [0, 1500, 2999] { #expect(second[k].content?.bytes == Array(#"{"text":"v\#(k % 10 < 7 ? 2 : 1) \#(ids[k])"}"#.utf8)) }
        #expect(zip(first, second).filter { shared($0, $1) }.count == 900, "the unchanged 30% are shared")
        // Re-sent unchanged: the 30% leave their sparse arenas (equal
        // bytes, new storage); the 70% stay where the second apply put them.
        let third = try send({ $0 % 10 < 7 ? 2 : 1 }, id: 3)
        #expect(third == second)
        let stayed = zip(second, third).enumerated().filter { shared($0.element.0, $0.element.1) }.map(\.offset)
        #expect(stayed.count == 2100)
        #expect(stayed.allSatisfy { $0 % 10 < 7 })
        // And then they stay: nothing is sparse any more.
        let fourth = try send({ $0 % 10 < 7 ? 2 : 1 }, id: 4)
        #expect(zip(third, fourth).allSatisfy { shared($0, $1) })
    }

    /// Elements that start like the held item but differ after its content
    /// (a longer number, another member) are read by the member loop, not
    /// parsed alone.
    @Test func nearMatchesAreStillReadByTheScanner() throws {
        let held = [Section(id: "s", items: [Item(id: "a", content: Content(bytes: Array("1".utf8))),
                                             Item(id: "b", content: Content(bytes: Array("[2]".utf8)))])]
        let body = Self.body([#"{"id":"a","content":12}"#, #"{"id":"b","content":[2] }"#,
                              #"{"id":"c","content":{"text":"x" }}"#], id: 1)
        let (_, params) = try #require(LazyRequest.split(body, methods: Server.lazyParamsMethods))
        let decoded = try #require(ApplyScanner.decode(params, previous: { _ in held }))
        #expect(decoded.sections[0].items.map(\.content) == [Content(bytes: Array("12".utf8)), Content(bytes: Array("[2]".utf8)),
                                                             Content(bytes: Array(#"{"text":"x"}"#.utf8))])
    }

    /// Items in the daemon's own shape are read without the member loop
    /// (`decodeCanonicalItem`); every near variant takes the member loop.
    /// Contents, search texts and highlights must be the same either way.
    @Test func itemsInTheDaemonsShapeReadLikeTheTreePath() {
        let elements = [
            #"{"id":"a","content":{"text":"hello"}}"#, #"{"id":"b","content":{"text":""}}"#,
            #"{"id":"c","content":"plain hello"}"#, #"{"id":"d","content":[1,2]}"#, #"{"id":"e","content":12.50}"#,
            #"{"id":"f","content":true}"#, #"{"id":"g","content":null}"#, #"{"id":"h","content":{"text":"a\"b hello"}}"#,
            #"{"id":"i","content":{"text":"hello","n":1}}"#, #"{"id":"j","content":{"n":1,"text":"hello"}}"#,
            #"{"id":"é","content":{"text":"hello"}}"#, #"{"id":"k","content":{"text":"naïve hello"}}"#,
            #"{"id":"l","content":[ 1 ]}"#, #"{"id":"m","content":{"text":"hello"} }"#,
            #"{"id":"n","content":{"text":"x"},"id":"o"}"#, #"{"id":"p","content":{"text":"hel"},"content":{"text":"lo"}}"#,
            #"{"id":"q","content":"e\u0301 hello"}"#, #"{"id":"r"}"#,
        ]
        let search = utf8(#"{"jsonrpc":"2.0","id":9,"method":"search","params":{"source":"t","query":"hel"}}"#)
        LazyApplyTests.expectSameResponses([
            Self.body(elements, id: 1), Self.snapshotRequest(id: 2), search,
            Self.body(elements.reversed(), id: 3), Self.snapshotRequest(id: 4),
        ])
    }

    /// A section added before another one does not stop the other's items
    /// from being reused: they are looked for in the held section of the
    /// same id.
    @Test func aSectionAddedInFrontKeepsTheOthersItems() throws {
        let server = Server()
        _ = server.handle(body: utf8(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#))
        let items = (0..<500).map { Self.element("item-\($0)-0123456789abcdef", #"{"text":"t\#($0)"}"#) }.joined(separator: ",")
        let first = LazyApplyTests.request(#"{"source":"t","sections":[{"id":"b","items":[\#(items)]}]}"#, id: 1)
        let second = LazyApplyTests.request(#"{"source":"t","sections":[{"id":"a","items":[{"id":"new","content":1}]},{"id":"b","items":[\#(items)]}]}"#, id: 2)
        _ = server.handle(body: first, lazyFrom: 0)
        let before = try #require(server.sources["t"]?.snapshot.sections[0].items)
        _ = server.handle(body: second, lazyFrom: 0)
        let after = try #require(server.sources["t"]?.snapshot.sections[1].items)
        // The same bytes in memory, not a copy (`Content.bytes` would be one).
        #expect(before.count == after.count)
        #expect(zip(before, after).allSatisfy { old, new in
            guard let a = old.content, let b = new.content else { return false }
            return a.sharesStorage(with: b)
        })
        LazyApplyTests.expectSameResponses([first, second, Self.snapshotRequest(id: 3),
                                            LazyApplyTests.request(#"{"source":"t","sections":[{"items":[\#(items)],"id":"b"}]}"#, id: 4),
                                            Self.snapshotRequest(id: 5)])
    }
}
