import Testing
@testable import DiffableEngine
import DiffableTestSupport

@Suite struct SearchIndexTests {
    /// The from-scratch scan's candidates: exactly the texts of the range
    /// whose folded (or original) bytes contain the byte, ascending, over
    /// empty, nil and non-ASCII texts and every subrange boundary.
    @Test(arguments: 0..<20) func textsContainingAByteAreExactlyThoseTexts(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 77)
        let texts = SearchFixtures.texts(count: Int.random(in: 0...60, using: &rng), rng: &rng)
        let index = SearchIndex(texts: texts)
        let bytes: [UInt8] = Array("abcABC -/1x".utf8) + [0xC3, 0xA9, 0x89, 0xF0, 0x00]
        index.withTable { table in
            for _ in 0..<30 {
                let lo = Int.random(in: 0...texts.count, using: &rng)
                let hi = Int.random(in: lo...texts.count, using: &rng)
                let byte = bytes.randomElement(using: &rng) ?? 0x61
                for original in [false, true] {
                    let found = Array(TextsContainingByte(table, lo..<hi, byte: byte, original: original))
                    let expected = (lo..<hi).filter { (original ? table.original($0) : table.foldedText($0)).contains(byte) }
                    #expect(found == expected, "seed \(seed) \(lo)..<\(hi) byte \(byte) original \(original)")
                }
                #expect(Array(TextsContainingByte(everyTextIn: lo..<hi)) == Array(lo..<hi))
            }
        }
    }

    /// Each text's byte set holds exactly its folded letters and digits,
    /// and at least the bits of its other bytes; the blocks of a first-byte
    /// scan list exactly the texts holding an exact byte, in order, over
    /// every subrange and across block boundaries.
    @Test(arguments: 0..<12) func byteSetsListTheTextsHoldingAByte(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 991)
        let count = seed % 3 == 0 ? Int.random(in: 4000...9000, using: &rng) : Int.random(in: 0...60, using: &rng)
        let texts = SearchFixtures.texts(count: count, rng: &rng)
        let index = SearchIndex(texts: texts)
        #expect(index.presence.count == index.count)
        // Exactly the ASCII lowercase letters and digits have bits of their own.
        let own = (0...255).filter { BytePresence.isExact(UInt8($0)) }
        #expect(own == Array(0x30...0x39) + Array(0x61...0x7A))
        #expect(Set(own.map { BytePresence.bucket(UInt8($0)) }).count == own.count)
        index.withTable { table in
            for i in 0..<table.count {
                let folded = Set(table.foldedText(i))
                for b in 0...255 {
                    let byte = UInt8(b)
                    let held = index.presence[i] & (UInt64(1) << UInt64(BytePresence.bucket(byte))) != 0
                    if BytePresence.isExact(byte) {
                        #expect(held == folded.contains(byte), "text \(i) byte \(b)")
                    } else if folded.contains(byte) {
                        #expect(held, "text \(i) byte \(b)")
                    }
                }
            }
            for _ in 0..<20 {
                let lo = Int.random(in: 0...count, using: &rng)
                let hi = Int.random(in: lo...count, using: &rng)
                let byte = Array("abcxyz019".utf8).randomElement(using: &rng) ?? 0x61
                var listed: [Int] = []
                BytePresence.forEachBlock(of: table.presence, lo..<hi, holding: byte) { listed += Array($0) }
                #expect(listed == (lo..<hi).filter { table.foldedText($0).contains(byte) }, "\(lo)..<\(hi) \(byte)")
            }
        }
    }

    /// A one-letter query from scratch (which takes the byte sets' blocks
    /// whole when unranked) finds exactly the texts holding the letter.
    @Test(arguments: [SearchMode.substring, .fuzzy]) func oneLetterScansFindEveryTextHoldingIt(mode: SearchMode) {
        var rng = SplitMix64(seed: 4242)
        let texts = SearchFixtures.texts(count: 30_000, rng: &rng)
        let index = SearchIndex(texts: texts)
        for letter in ["a", "E", "z", "7", "é", " "] {
            let query = SearchQuery(text: letter, mode: mode, order: .source, limit: nil)
            // A lone space is no term at all for fuzzy search: everything.
            let everything = mode == .fuzzy && letter == " "
            let expected = index.withTable { table in
                (0..<table.count).filter { everything || !table.isNil($0) && (mode == .fuzzy
                    ? FzfModel.matches(String(decoding: table.original($0), as: UTF8.self), letter)
                    : String(decoding: table.foldedText($0), as: UTF8.self).contains(String(decoding: PreparedQuery(query).bytes, as: UTF8.self))) }
            }
            let unscored = index.evaluate(query, narrowing: nil, among: nil, scoring: false)
            #expect(unscored.matches.indices == expected, "\(letter) \(mode)")
            #expect(index.evaluate(query, among: nil).matches == expected, "\(letter) \(mode)")
        }
    }

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
        #expect(Array(index.folded) == Array("abcjose aeiou n s ωμέγα".utf8))
        #expect(index.flags[0] & SearchIndex.Flag.isASCII != 0)
        #expect(index.flags[1] & SearchIndex.Flag.isASCII == 0)
        let humps = SearchIndex(texts: ["fooBar", "Foo Bar", "FOO", "a1B"]).flags
        #expect(humps.map { $0 & SearchIndex.Flag.hasHump != 0 } == [true, false, false, false])
    }

    /// Texts are folded eight bytes at a time: every byte below 0x80 in
    /// every position of a word and of the tail, humps across words
    /// included, folds and flags as the byte-by-byte rules say (ASCII
    /// capitals lowered; a lowercase letter directly before a capital is a
    /// hump; a byte of 0x80 or more makes the text non-ASCII).
    @Test(arguments: 0..<8 as Range<UInt64>) func wordAtATimeFoldingFollowsTheByteRules(seed: UInt64) {
        var rng = SplitMix64(seed: seed &+ 40)
        let alphabet = Array("aZbYzA09_/.-@[`{ \t~".utf8) + [0x01, 0x7F, 0x41, 0x5A, 0x61, 0x7A, 0x40, 0x5B, 0x60, 0x7B]
        var texts: [String?] = []
        for _ in 0..<400 {
            let n = Int.random(in: 0...40, using: &rng)
            var bytes = (0..<n).map { _ in Bool.random(using: &rng) ? alphabet.randomElement(using: &rng) ?? 0x61
                                                                     : UInt8.random(in: 1...0x7F, using: &rng) }
            if n > 0 && Int.random(in: 0..<10, using: &rng) == 0 {
                bytes[Int.random(in: 0..<n, using: &rng)] = 0xC3  // starts "é": the text is not ASCII
                bytes.append(0xA9)
            }
            texts.append(String(decoding: bytes, as: UTF8.self))
        }
        let index = SearchIndex(texts: texts)
        for (i, text) in texts.enumerated() {
            let bytes = Array((text ?? "").utf8)
            let ascii = bytes.allSatisfy { $0 < 0x80 }
            let isUpper = { (b: UInt8) in b >= 0x41 && b <= 0x5A }, isLower = { (b: UInt8) in b >= 0x61 && b <= 0x7A }
            let hump = zip(bytes, bytes.dropFirst()).contains { isLower($0) && isUpper($1) }
            let flags = index.flags[i]
            #expect((flags & SearchIndex.Flag.isASCII != 0) == ascii, "text \(i): \(bytes)")
            guard ascii else { continue }
            #expect((flags & SearchIndex.Flag.hasHump != 0) == hump, "text \(i): \(bytes)")
            let folded = Array(index.folded[index.foldedOffsets[i]..<index.foldedOffsets[i + 1]])
            #expect(folded == bytes.map { isUpper($0) ? $0 + 0x20 : $0 }, "text \(i): \(bytes)")
        }
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
        var rng = SplitMix64(seed: 7)
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
        #expect(index.bonusMasks == rebuilt.bonusMasks)
        #expect(index.wordPairs == rebuilt.wordPairs)
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
