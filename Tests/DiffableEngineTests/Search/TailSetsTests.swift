import Dispatch
import Testing
@testable import DiffableEngine

/// Tail sets (`TailSets`): what each entry of a fuzzy match set holds after
/// its match, and narrowing keystrokes that decide candidates from them
/// find exactly what a full search finds.
@Suite struct TailSetsTests {
    /// 80k names and paths (two scan threads), with accents, uppercase and
    /// path punctuation.
    static let texts: [String] = (0..<80_000).map { i in
        let first = ["Sarah", "Linda", "Grace", "José", "Mark", "Ana", "Søren", "Irma"][i % 8]
        let last = ["Rodriguez", "Smith", "Brown", "Nuñez", "Lee", "Ortiz", "Stark"][(i / 8) % 7]
        let part = ["view", "model", "grid", "render", "search", "store", "router", "sheet"][(i / 3) % 8]
        return i % 2 == 0 ? "\(first) \(last) \(i)" : "src/\(part)/\(part)_cell\(i % 97).swift"
    }
    static let index = SearchIndex(texts: texts.map(Optional.some))

    static func fuzzy(_ text: String) -> SearchQuery { SearchQuery(text: text, mode: .fuzzy, order: .score, limit: nil) }

    /// The entry's text folded, as the index holds it.
    static func folded(_ segment: CompactSegment, _ k: Int) -> [UInt8] {
        segment.withTable { table in Array(table.foldedText(segment.positions.map { $0[k] } ?? k)) }
    }

    static func presence(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 | BytePresence.bits[Int($1)] }
    }

    @Test func tailSetsHoldWhatFollowsTheMatch() throws {
        for query in ["s", "r", "sr", "gr/"] {
            let result = Self.index.evaluate(Self.fuzzy(query), narrowing: nil, among: nil, rankOnly: 50)
            #expect(result.matches.waitForTailSets(), "\(query): tail sets are found in the background")
            let done = result.matches.scanSegments
            if query == "r" {
                // Enough entries for the task to split them over two threads.
                #expect(done.reduce(0) { $0 + $1.resume.count } >= CompactSegment.twoThreadTails)
            }
            let last = try #require(query.utf8.last)
            var checked = 0
            for segment in done {
                let tails = try #require(segment.tails, "\(query): a fuzzy set keeps tail sets")
                for k in stride(from: 0, to: segment.resume.count, by: 7) {
                    let text = Self.folded(segment, k)
                    let r = Int(segment.resume[k])
                    #expect(r > 0, "resume positions are found")
                    #expect(tails[k].bytes == Self.presence(text[r...]), "\(query) #\(k)")
                    var followers: UInt64 = 0
                    for j in (r - 1)..<(text.count - 1) where text[j] == last { followers |= BytePresence.bits[Int(text[j + 1])] }
                    #expect(tails[k].followers == followers, "\(query) #\(k)")
                    checked += 1
                }
            }
            #expect(checked > 100, "\(query)")
        }
    }

    /// Second and later keys, each narrowing the previous key's set, as a
    /// full search: typed (its tail sets found) or sent at once (whatever
    /// the background work has done by then).
    @Test(arguments: [["s", "sr", "srz", "srd", "srd1"], ["s", "s1"], ["s", "s/"], ["s", "sé"], ["s", "sR"],
                      ["s", "s r"], ["s", "srd"], ["g", "gr", "gri", "grid"], ["r", "ro", "rod"], ["n", "nu", "nuñ"],
                      ["j", "jo", "jos"]], [true, false])
    func narrowedKeysMatchFullSearches(_ keys: [String], typed: Bool) throws {
        var last: SearchMatchSet?
        for key in keys {
            if typed, let last { #expect(last.waitForTailSets() || last.tailing == nil) }
            let next = Self.index.evaluate(Self.fuzzy(key), narrowing: last, among: nil, rankOnly: 150)
            let full = Self.index.evaluate(Self.fuzzy(key), among: nil)
            #expect(Array(next.hits.prefix(150)) == Array(full.hits.prefix(150)), "\(keys) \(key)")
            #expect(next.matches.indices == full.matches, "\(keys) \(key)")
            last = next.matches
        }
    }

    /// A key adding one letter to a dense set keeps its matches as views
    /// and takes ASCII texts on their bit: their resume positions are found
    /// after the reply, where a full greedy match ends.
    @Test func aDenseSecondKeyTakesTextsOnTheirBit() throws {
        let first = Self.index.evaluate(Self.fuzzy("s"), narrowing: nil, among: nil, rankOnly: 50)
        #expect(first.matches.waitForTailSets())
        let second = Self.index.evaluate(Self.fuzzy("sr"), narrowing: first.matches, among: nil, rankOnly: 50)
        #expect(second.matches.segments.allSatisfy { $0.positions != nil }, "views")
        #expect(second.matches.segments.contains { $0.pendingResume != nil && $0.resume.contains(-1) },
                "texts taken on their bit")
        let done = try #require(second.matches.copying?.value())
        for segment in done {
            for k in 0..<segment.resume.count {
                let text = Self.folded(segment, k)
                let end = Array("sr".utf8).withUnsafeBufferPointer { needle in
                    text.withUnsafeBufferPointer { ByteScan.greedyEnd(needle, from: 0, in: $0, start: 0) }
                }
                #expect(end.map(Int32.init) == segment.resume[k], "#\(k)")
            }
        }
    }

    /// A gap the followers prove lowers the bound without reading the
    /// text, and never below the text's score.
    @Test func followersBoundTheScore() throws {
        let first = Self.index.evaluate(Self.fuzzy("s"), narrowing: nil, among: nil, rankOnly: 50)
        #expect(first.matches.waitForTailSets())
        let done = first.matches.scanSegments
        let filter = try #require(TailFilter(PreparedQuery(Self.fuzzy("sr")), skip: 1))
        var split = 0
        for segment in done {
            let tails = try #require(segment.tails)
            for k in stride(from: 0, to: tails.count, by: 5) where tails[k].followers & filter.lastBit == 0 {
                let text = String(decoding: Self.folded(segment, k), as: UTF8.self)
                #expect(!text.contains("sr"), "\(text): \"s\" is never followed by \"r\"")
                split += 1
            }
        }
        #expect(split > 1000, "names split \"s\" and \"r\"")
    }

    /// With two bytes or more left to match there is no last pair whose gap
    /// the followers could prove: a key that jumps ahead of its set (`s`
    /// then `sra`, typed before the reply) marks no candidate split, or its
    /// bounds would take a gap from texts that hold the query as one run.
    @Test func noPairIsSplitWithTwoBytesLeft() throws {
        let first = Self.index.evaluate(Self.fuzzy("s"), narrowing: nil, among: nil, rankOnly: 50)
        #expect(first.matches.waitForTailSets())
        let query = PreparedQuery(Self.fuzzy("sra"))
        let filter = try #require(TailFilter(query, skip: 1))
        var matched = 0
        for segment in first.matches.scanSegments {
            let tails = try #require(segment.tails)
            let range = 0..<segment.resume.count
            segment.withTable { table in
                TailSets.forEachBlock(of: segment.positions.map { UnsafeBufferPointer(rebasing: $0[range]) }, range,
                                      tails: tails, resume: segment.resume, skip: 1, filter: filter, takesOnBit: false,
                                      scanner: Scanner(table: table, query: query)) { block, found in
                    matched += block.count
                    #expect(!found.split.contains(true))
                }
            }
        }
        #expect(matched > 100)
    }
}

extension TailSetsTests {
    /// A key sent before the previous key's tail sets are found does not
    /// wait for them: it stops their task and narrows without them.
    @Test func aKeySentAtOnceStopsTheTailTask() throws {
        let gate = DispatchSemaphore(value: 0)
        let running = TailWork { stop in
            gate.wait()
            return !stop.isRaised
        }
        #expect(running.resultIfReadyElseStop() == false, "not found yet: not read")
        gate.signal()
        #expect(running.build.value() == false, "the task saw the stop")
        #expect(running.resultIfReadyElseStop() == false, "and its sets are never read")

        // The chain's next keystroke stops it too.
        let pool = SegmentPool()
        let chained = TailWork(pool: pool) { stop in
            gate.wait()
            return !stop.isRaised
        }
        pool.keystrokeBegins()
        gate.signal()
        #expect(chained.build.value() == false, "a keystroke of its chain began")

        // A dropped match set stops its task.
        var dropped: TailWork? = TailWork { stop in
            gate.wait()
            return !stop.isRaised
        }
        let build = try #require(dropped?.build)
        dropped = nil
        gate.signal()
        #expect(build.value() == false, "nobody holds the set")

        let finished = TailWork { _ in true }
        #expect(finished.build.value() == true)
        #expect(finished.resultIfReadyElseStop() == true, "found: read")
    }
}
