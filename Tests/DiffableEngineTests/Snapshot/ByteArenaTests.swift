import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// Contents and texts kept in shared arenas (`ByteArena`) behave exactly
/// like contents and texts of their own: what an item holds, how it
/// compares and hashes, and what its setters do.
@Suite struct ByteArenaTests {
    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// Contents written one after the other into a builder read back
    /// their own bytes, across arena boundaries and for a content larger
    /// than an arena; views of equal bytes are equal and hash alike
    /// whichever arena holds them.
    @Test func builderContentsReadBackTheirBytes() {
        var rng = SplitMix64(seed: 7)
        var builder = ByteArena.Builder()
        var written: [(Content, [UInt8])] = []
        for k in 0..<3000 {
            let length = k == 1500 ? ByteArena.chunkSize + 17 : Int.random(in: 0...900, using: &rng)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            written.append((bytes.withUnsafeBufferPointer { builder.content($0) }, bytes))
        }
        for (content, bytes) in written {
            #expect(content.bytes == bytes)
            #expect(content.byteCount == bytes.count)
            let own = Content(bytes: bytes)
            #expect(own == content)
            #expect(own.hashValue == content.hashValue)
            #expect(!own.sharesStorage(with: content))
        }
        #expect(written[3].0 != written[4].0 || written[3].1 == written[4].1)
        #expect(Content(bytes: []) == Content(bytes: []))
        #expect(Content(bytes: [1, 2]) != Content(bytes: [1, 3]))
        #expect(Content(bytes: [1, 2]) != Content(bytes: [1, 2, 3]))
    }

    /// A text stored after the content (not a run of it) survives a change
    /// of content; a text that is a run of the content reads the new
    /// content; setting either leaves the other as it was.
    @Test func settersKeepWhatTheyDoNotSet() {
        let content = Content(bytes: Self.bytes(#"{"text":"Ada Lovelace"}"#))
        var inside = Item(id: "a", content: content, textRange: 9 ..< 21)
        #expect(inside.text == "Ada Lovelace")
        inside.content = Content(bytes: Self.bytes(#"{"text":"Bob Dylan   "}"#))
        #expect(inside.text == "Bob Dylan   ")
        inside.content = Content(bytes: Self.bytes("1"))
        #expect(inside.text == nil, "a range past the new content is no text")

        var outside = Item(id: "b", content: content, text: "Grace")
        #expect(outside.text == "Grace")
        #expect(outside.content == content)
        outside.content = Content(bytes: Self.bytes("[1,2,3]"))
        #expect(outside.text == "Grace")
        #expect(outside.content?.bytes == Self.bytes("[1,2,3]"))
        outside.content = nil
        #expect(outside.content == nil)
        #expect(outside.text == "Grace")
        outside.text = nil
        #expect(outside.text == nil)
        outside.text = "é ü"
        #expect(outside.text == "é ü")
        #expect(outside.content == nil)
        outside.id = "renamed"
        #expect(outside.id == "renamed" && outside.text == "é ü")
    }

    /// Items are equal by id, content and text, wherever their bytes are.
    @Test func itemEqualityIsByValue() {
        let json = #"{"text":"x"}"#
        var builder = ByteArena.Builder()
        let shared = Self.bytes(json).withUnsafeBufferPointer { builder.content($0) }
        let a = Item(id: "i", content: shared, textRange: 9 ..< 10)
        let b = Item(id: "i", content: Content(bytes: Self.bytes(json)), textRange: 9 ..< 10)
        let c = Item(id: "i", content: Content(bytes: Self.bytes(json)), text: "x")
        #expect(a == b)
        #expect(a == c, "the same text, stored another way")
        #expect(a != Item(id: "i", content: shared))
        #expect(a != Item(id: "i", content: shared, textRange: 8 ..< 10))
        #expect(a != Item(id: "j", content: shared, textRange: 9 ..< 10))
        #expect(Item(id: "i") == Item(id: "i"))
        #expect(Item(id: "i") != Item(id: "i", content: Content(bytes: [])))
        #expect(Item(id: "i", text: "") != Item(id: "i"))
    }

    /// A kept item is copied out of a sparse arena and left in a well-used
    /// one; arenas of one item's own are never counted.
    @Test func writerCopiesOnlyFromSparseArenas() {
        var first = ByteArena.Writer()
        let items = (0..<100).map { k in
            Self.bytes("\(k)").withUnsafeBytes { first.item(id: $0, content: $0) }
        }
        #expect(items[42].id == "42" && items[42].content?.bytes == Self.bytes("42"))
        var use = ArenaUse()
        for item in items.prefix(60) { use.add(item) }
        use.record()  // 60% used: not sparse
        var second = ByteArena.Writer()
        let kept = items.prefix(60).map { second.keep($0) }
        #expect(zip(kept, items).allSatisfy { $0.content!.sharesStorage(with: $1.content!) })
        second.use.record()
        var use2 = ArenaUse()
        for item in items.prefix(40) { use2.add(item) }
        use2.record()  // 40%: sparse
        var third = ByteArena.Writer()
        let copied = items.prefix(40).map { third.keep($0) }
        #expect(copied == Array(items.prefix(40)))
        #expect(zip(copied, items).allSatisfy { !$0.content!.sharesStorage(with: $1.content!) })
        let own = Item(id: "own", content: Content(bytes: [1]))
        #expect(third.keep(own).content!.sharesStorage(with: own.content!))
    }
}

/// Ids are their UTF-8 bytes, wherever they are stored.
@Suite struct ItemIDTests {
    @Test func idsAreComparedByTheirBytes() {
        var builder = ByteArena.Builder()
        let made = Array("item-42".utf8).withUnsafeBytes { builder.item(id: $0, content: nil) }
        #expect(made.id == "item-42" && made.content == nil && made.text == nil)
        #expect(made.itemID == ItemID("item-42"))
        #expect(made.itemID.hashValue == ItemID("item-42").hashValue)
        #expect(made == Item(id: "item-42"))
        #expect(made.hasID("item-42") && !made.hasID("item-4") && !made.hasID("item-420"))
        #expect(Set([ItemID("a"), ItemID("a"), ItemID("b"), ItemID("")]).count == 3)
        #expect(Item(id: "").itemID == ItemID(""))
        // Two spellings of "é" are two ids (as in JSON clients), not one.
        #expect(Item(id: "é").itemID != Item(id: "e\u{301}").itemID)
        let both = Snapshot(sections: [Section(id: "s", items: [Item(id: "é"), Item(id: "e\u{301}")])])
        #expect(both.validationIssues().isEmpty)
        let twice = Snapshot(sections: [Section(id: "s", items: [Item(id: "é"), Item(id: "é")])])
        #expect(twice.validationIssues() == [.duplicateItemID(id: "é", paths: [ItemPath(section: 0, row: 0),
                                                                             ItemPath(section: 0, row: 1)])])
    }

    /// Items whose stored hashes agree are still told apart by their
    /// bytes (two ids of a million share a 32-bit hash now and then).
    @Test func equalHashesStillCompareBytes() {
        let a = Item(id: "ab"), other = Item(id: "cd")
        let b = Item(storage: other.storage, base: other.base, idCount: other.idCount, contentCount: other.contentCount,
                     textStart: other.textStart, textEnd: other.textEnd, idHash: a.idHash)
        withUnsafePointer(to: a) { x in withUnsafePointer(to: b) { y in #expect(!Item.sameID(x, y)) } }
        let old = Snapshot(sections: [Section(id: "s", items: [a])])
        let new = Snapshot(sections: [Section(id: "s", items: [b])])
        let changes = old.difference(to: new)
        #expect(changes.itemDeletes.count == 1 && changes.itemInserts.count == 1)
    }

    /// What a million items cost besides their bytes (the memory budget of
    /// issue 13 counts on it).
    @Test func anItemIs32Bytes() {
        #expect(MemoryLayout<Item>.stride == 32)
        #expect(MemoryLayout<Item>.offset(of: \Item.storage) == 0, "Item.storageBits reads it there")
        #expect(MemoryLayout<Content?>.stride == 16)
        #expect(MemoryLayout<ItemID>.stride == 16)
    }
}
