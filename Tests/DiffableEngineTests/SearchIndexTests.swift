import Testing
@testable import DiffableEngine

@Suite struct SearchIndexTests {
    @Test func storesTextsAndNil() {
        let index = SearchIndex(texts: ["Alice", nil, "", "José Álvarez", "👍 ok"])
        #expect(index.count == 5)
        #expect(index.text(at: 0) == "Alice")
        #expect(index.text(at: 1) == nil)
        #expect(index.text(at: 2) == "")
        #expect(index.text(at: 3) == "José Álvarez")
        #expect(index.text(at: 4) == "👍 ok")
        #expect(index.text(at: 5) == nil)
        #expect(index.text(at: -1) == nil)
    }

    @Test func foldedCopyIsLowercasedAndAccentFolded() {
        let index = SearchIndex(texts: ["ABC", "José ÀÉÎÕÜ Ñ ß Ωμέγα"])
        #expect(index.folded == Array("abcjose aeiou n ß ωμέγα".utf8))
        #expect(index.flags[0] & SearchIndex.Flag.isASCII != 0)
        #expect(index.flags[1] & SearchIndex.Flag.isASCII == 0)
        let humps = SearchIndex(texts: ["fooBar", "Foo Bar", "FOO", "a1B"]).flags
        #expect(humps.map { $0 & SearchIndex.Flag.hasHump != 0 } == [true, false, false, false])
    }

    @Test func snapshotInitFlattensSections() {
        let snapshot = Snapshot(sections: [
            Section(id: "s1", items: [Item(id: "a", text: "Ann"), Item(id: "b")]),
            Section(id: "s2", items: [Item(id: "c", text: "Bob")]),
        ])
        let index = SearchIndex(snapshot: snapshot)
        #expect(index.count == 3)
        #expect(index.text(at: 2) == "Bob")
        #expect(index.matchingIndices(SearchQuery(text: "b", mode: .substring), among: nil) == [2])
    }

    @Test func updatesMatchARebuild() {
        var rng = SearchTestRNG(seed: 7)
        var texts = SearchFixtures.texts(count: 200, rng: &rng)
        var index = SearchIndex(texts: texts)
        for step in 0..<300 {
            let replacement = SearchFixtures.texts(count: Int.random(in: 0...3, using: &rng), rng: &rng)
            let lower = Int.random(in: 0...texts.count, using: &rng)
            let upper = Int.random(in: lower...min(texts.count, lower + 3), using: &rng)
            switch step % 4 {
            case 0: index.replaceSubrange(lower..<upper, with: replacement)
                texts.replaceSubrange(lower..<upper, with: replacement)
            case 1: index.append(replacement.first ?? nil); texts.append(replacement.first ?? nil)
            case 2: if lower < texts.count { index.remove(at: lower); texts.remove(at: lower) }
            default: index.insert(replacement.first ?? "x", at: lower); texts.insert(replacement.first ?? "x", at: lower)
            }
        }
        let rebuilt = SearchIndex(texts: texts)
        #expect(index.bytes == rebuilt.bytes)
        #expect(index.folded == rebuilt.folded)
        #expect(index.offsets == rebuilt.offsets)
        #expect(index.foldedOffsets == rebuilt.foldedOffsets)
        #expect(index.flags == rebuilt.flags)
        #expect((0..<texts.count).map { index.text(at: $0) } == texts)
    }

    @Test func outOfRangeUpdatesAreIgnored() {
        var index = SearchIndex(texts: ["a"])
        index.remove(at: 3)
        index.replace(at: -1, with: "z")
        index.replaceSubrange(5..<9, with: ["b"])
        #expect((0..<index.count).map { index.text(at: $0) } == ["a", "b"])
    }
}
