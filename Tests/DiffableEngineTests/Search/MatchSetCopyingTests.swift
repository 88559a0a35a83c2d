import Testing
@testable import DiffableEngine

/// A fuzzy first keystroke with sparse matches keeps them as a view of the
/// index and copies them in the background; the copy holds the same
/// entries, texts and resume positions, and the next keystroke narrowing it
/// finds what a full search finds.
@Suite struct MatchSetCopyingTests {
    /// 120k texts: "q" matches 40% of them (sparse: under half, and over
    /// `backgroundCopyMinimum` per scan thread).
    static let index = SearchIndex(texts: (0..<120_000).map { i in
        i % 10 < 3 ? "quiet \(i) zone" : (i % 7 == 0 ? "item \(i) zq" : "item \(i)")
    })

    static func fuzzy(_ text: String) -> SearchQuery { SearchQuery(text: text, mode: .fuzzy, order: .score, limit: nil) }

    @Test func sparseFirstKeysAreCopiedInTheBackground() throws {
        let first = Self.index.evaluate(Self.fuzzy("q"), narrowing: nil, among: nil, rankOnly: 50)
        let full = Self.index.evaluate(Self.fuzzy("q"), among: nil)
        #expect(first.matches.indices == full.matches)
        #expect(first.matches.segments.count == SearchIndex.parallelism)
        #expect(first.matches.segments.allSatisfy { $0.copyLater && $0.positions != nil }, "views, copied later")
        let copying = try #require(first.matches.copying)
        let copies = try #require(copying.value())
        #expect(copies.count == first.matches.segments.count)
        for (view, copy) in zip(first.matches.segments, copies) {
            #expect(copy.positions == nil && !copy.copyLater, "a segment of its own")
            var viewIndices: [Int] = [], copyIndices: [Int] = []
            view.forEachIndex { viewIndices.append($0) }
            copy.forEachIndex { copyIndices.append($0) }
            #expect(viewIndices == copyIndices)
            // The scan left the one-byte needle's resume positions to the
            // copy: where "q" first occurs, plus one.
            #expect(view.pendingResume != nil && view.resume.allSatisfy { $0 == -1 })
            #expect(Bool(Array(copy.resume) == copy.withTable { table in
                (0..<copy.count).map { Self.firstEnd(of: UInt8(ascii: "q"), in: table.foldedText($0)) }
            }), "resume positions")
            let positions = try #require(view.positions)
            let viewTexts = view.withTable { table in positions.map { Array(table.original($0)) + [0] + Array(table.foldedText($0)) } }
            let copyTexts = copy.withTable { table in (0..<copy.count).map { Array(table.original($0)) + [0] + Array(table.foldedText($0)) } }
            #expect(viewTexts == copyTexts, "texts")
        }
        // The next keystrokes narrow the copy (resuming), as a full search.
        for text in ["qu", "qz", "quiet 1", "q1", "qe"] {
            let next = Self.index.evaluate(Self.fuzzy(text), narrowing: first.matches, among: nil, rankOnly: 50)
            let fresh = Self.index.evaluate(Self.fuzzy(text), among: nil)
            #expect(Array(next.hits.prefix(50)) == Array(fresh.hits.prefix(50)), "\(text)")
            #expect(next.matches.indices == fresh.matches, "\(text)")
            #expect(next.matches.segments.allSatisfy { !$0.copyLater }, "a narrowed set is not copied again")
        }
    }

    /// Where greedy matching of one byte ends in `text` (-1: nowhere).
    static func firstEnd(of byte: UInt8, in text: UnsafeBufferPointer<UInt8>) -> Int32 {
        text.firstIndex(of: byte).map { Int32($0 + 1) } ?? -1
    }

    @Test func denseOrSmallScansCopyNothingLater() throws {
        // Dense: "i" matches every text. The views stay views; only their
        // resume positions are found in the background.
        let dense = Self.index.evaluate(Self.fuzzy("i"), narrowing: nil, among: nil, rankOnly: 50)
        let resumed = try #require(dense.matches.copying?.value())
        for (view, done) in zip(dense.matches.segments, resumed) {
            #expect(view.pendingResume != nil && done === view, "the same view, its resume positions found in place")
            let positions = try #require(done.positions)
            #expect(Bool(Array(done.resume) == done.withTable { table in
                positions.map { Self.firstEnd(of: UInt8(ascii: "i"), in: table.foldedText($0)) }
            }), "resume positions")
        }
        for text in ["it", "iz", "i1", "ii", "item 11"] {
            let next = Self.index.evaluate(Self.fuzzy(text), narrowing: dense.matches, among: nil, rankOnly: 50)
            let fresh = Self.index.evaluate(Self.fuzzy(text), among: nil)
            #expect(Array(next.hits.prefix(50)) == Array(fresh.hits.prefix(50)), "\(text)")
            #expect(next.matches.indices == fresh.matches, "\(text)")
        }
        // Case-sensitive (an uppercase letter): resume positions are in the
        // folded text too (they only prefilter; the original decides).
        let mixed = SearchIndex(texts: (0..<60_000).map { $0 % 2 == 0 ? "Item \($0) Ix" : "an item \($0) I" })
        let upper = mixed.evaluate(Self.fuzzy("I"), narrowing: nil, among: nil, rankOnly: 50)
        let upperDone = try #require(upper.matches.copying?.value())
        for segment in upperDone {
            let positions = try #require(segment.positions)
            #expect(Bool(Array(segment.resume) == segment.withTable { table in
                positions.map { Self.firstEnd(of: UInt8(ascii: "i"), in: table.foldedText($0)) }
            }))
        }
        for text in ["It", "II", "Ix", "I1"] {
            let next = mixed.evaluate(Self.fuzzy(text), narrowing: upper.matches, among: nil, rankOnly: 50)
            let fresh = mixed.evaluate(Self.fuzzy(text), among: nil)
            #expect(Array(next.hits.prefix(50)) == Array(fresh.hits.prefix(50)), "\(text)")
            #expect(next.matches.indices == fresh.matches, "\(text)")
        }
        // Small: fewer matches per thread than the minimum; copied on the
        // spot, resume positions included.
        let small = SearchIndex(texts: (0..<20_000).map { $0 % 3 == 0 ? "quiet \($0)" : "item \($0)" })
        let few = small.evaluate(Self.fuzzy("q"), narrowing: nil, among: nil, rankOnly: 50)
        #expect(few.matches.segments.allSatisfy { $0.positions == nil && !$0.copyLater && $0.pendingResume == nil })
        for segment in few.matches.segments {
            #expect(Bool(Array(segment.resume) == segment.withTable { table in
                (0..<segment.count).map { Self.firstEnd(of: UInt8(ascii: "q"), in: table.foldedText($0)) }
            }))
        }
    }
}
