import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// `IndexSplice` against a list model: moving positions through a splice,
/// and composing the splices of several edits into one.
@Suite struct IndexSpliceTests {
    /// A random batch over `list` (unique tokens): some removed, some
    /// inserted (new tokens from `next`); returns the splice and the list
    /// after it.
    static func randomSplice(of list: [String], next: inout Int, rng: inout SplitMix64) -> (IndexSplice, [String]) {
        let removed = list.indices.filter { _ in Int.random(in: 0..<4, using: &rng) == 0 }
        var after = list.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        var insertedTokens: Set<String> = []
        for _ in 0..<Int.random(in: 0..<5, using: &rng) {
            next += 1
            let token = "t\(next)"
            after.insert(token, at: Int.random(in: 0...after.count, using: &rng))
            insertedTokens.insert(token)
        }
        let inserted = after.enumerated().filter { insertedTokens.contains($0.element) }.map { (at: $0.offset, text: SplicedText.string($0.element)) }
        return (IndexSplice(removed: removed, inserted: inserted), after)
    }

    /// The model of a splice: `list` less `removed`, then the texts put in.
    static func applying(_ splice: IndexSplice, to list: [String]) -> [String] {
        let removed = Set(splice.removed)
        var out = list.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        for (at, text) in splice.inserted { out.insert(text.string ?? "", at: at) }
        return out
    }

    @Test(arguments: 0..<300 as Range<UInt64>)
    func positionsMoveWhereTheirTextsGo(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var next = 0
        let list = (0..<Int.random(in: 0..<30, using: &rng)).map { _ -> String in next += 1; return "t\(next)" }
        let (splice, after) = Self.randomSplice(of: list, next: &next, rng: &rng)
        #expect(Self.applying(splice, to: list) == after, "seed \(seed): model")
        let positions = list.indices.filter { _ in Bool.random(using: &rng) }
        let moved = try #require(splice.translating(positions))
        let expected = positions.compactMap { after.firstIndex(of: list[$0]) }
        #expect(moved == expected, "seed \(seed)")
        if positions.count > 1 { #expect(splice.translating(positions.reversed()) == nil, "seed \(seed): not ascending") }
    }

    @Test(arguments: 0..<300 as Range<UInt64>)
    func composedSplicesMakeWhatTheEditsMade(seed: UInt64) {
        var rng = SplitMix64(seed: seed &+ 7000)
        var next = 0
        let list = (0..<Int.random(in: 0..<30, using: &rng)).map { _ -> String in next += 1; return "t\(next)" }
        var current = list
        var composed: IndexSplice?
        for round in 0..<Int.random(in: 1..<6, using: &rng) {
            let (splice, after) = Self.randomSplice(of: current, next: &next, rng: &rng)
            composed = composed.map { $0.followed(by: splice) } ?? splice
            current = after
            guard let composed else { continue }
            #expect(Self.applying(composed, to: list) == current, "seed \(seed) round \(round)")
            #expect(composed.removed == composed.removed.sorted() && Set(composed.removed).count == composed.removed.count)
            #expect(zip(composed.inserted, composed.inserted.dropFirst()).allSatisfy { $0.at < $1.at })
            // A text inserted then removed leaves no trace.
            #expect(composed.inserted.count == current.filter { !list.contains($0) }.count, "seed \(seed) round \(round)")
        }
    }
}
