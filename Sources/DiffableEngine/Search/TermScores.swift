import Synchronization

/// The exact scores of an extended query's one-term sets, per text, kept
/// along a chain of keystrokes.
///
/// Typing a query of several terms changes only the last one: `src swif`
/// then `src swift`. Every earlier term is a set the previous query had,
/// and its score on each text is the same as a keystroke ago. A ranked scan
/// needs those scores to decide which texts can enter the best k; their
/// bonus-mask bounds are loose on texts where the term's chars also stand
/// at better places apart (a path's `s` at its start, `swift` at its end),
/// so without them most matches are scored term by term at every key.
///
/// One table per term (its type, case, compared bytes, scheme and
/// direction), indexed by the text's index in the `SearchIndex`, holding
/// the score, a bound of it (`boundFlag`: the run bound, read where the
/// term's chars stand), a looser bound from the masks and word pairs alone
/// (`boundFlag | looseFlag`, so that a text the masks reject is not bounded
/// again at every key, yet is still run-bounded before it is scored), or
/// `unknown`; an entry is made only for a text the term matches. It is shared by the match sets of one chain
/// (like `ProbeTexts`) and valid for the index they were made from: a
/// spliced match set starts a new one. At most `maximumTerms` tables are
/// kept (the least recently used goes).
///
/// A scan claims the tables for its duration (`claim`); the two threads
/// of one scan write disjoint texts. A scan that cannot claim them (another
/// scan of the chain still running) scores without them.
final class TermScores: @unchecked Sendable {
    /// A score not computed yet (or too large for the table).
    static let unknown: Int16 = -1
    /// Marks an entry that holds a bound of the score, not the score.
    static let boundFlag: Int16 = 0x4000
    /// With `boundFlag`: the bound is the masks' and word pairs' (looser
    /// than the run bound).
    static let looseFlag: Int16 = 0x2000

    /// Whether an entry holds a loose bound.
    @inline(__always)
    static func isLoose(_ value: Int16) -> Bool {
        value & (boundFlag | looseFlag) == boundFlag | looseFlag
    }
    /// Tables kept at most.
    static let maximumTerms = 4

    struct Key: Equatable {
        let type: FzfTermType
        let caseSensitive: Bool
        let bytes: [UInt8]
        let scheme: SearchScheme
        let forward: Bool
    }

    private struct Table {
        let key: Key
        let scores: UnsafeMutableBufferPointer<Int16>
        var lastUse: Int
    }

    private var tables: [Table] = []
    private var uses = 0
    private let claimed = Atomic<Bool>(false)

    init() {}

    deinit {
        for table in tables { table.scores.deallocate() }
    }

    /// Claims the tables for one scan; false when another scan holds them.
    func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    }

    /// Ends the scan's claim.
    func release() {
        claimed.store(false, ordering: .releasing)
    }

    /// The table of each set of `query` that is one ASCII term of two
    /// chars or more, not inverse (nil for the others), for texts `0..<count`; tables are made
    /// for sets that have none. Call only while claimed.
    /// - Complexity: O(count) for each new table, O(sets × kept tables)
    ///   otherwise.
    func tables(for query: FzfQuery, scheme: SearchScheme, forward: Bool,
                count: Int) -> [UnsafeMutablePointer<Int16>?] {
        uses &+= 1
        return query.sets.map { set in
            // One char is scored in one pass: no table.
            guard set.count == 1, let term = set.first, !term.inverse, term.pattern.isASCII, term.bytes.count >= 2
            else { return nil }
            let key = Key(type: term.type, caseSensitive: term.pattern.caseSensitive, bytes: term.bytes,
                          scheme: scheme, forward: forward)
            if let k = tables.firstIndex(where: { $0.key == key && $0.scores.count == count }) {
                tables[k].lastUse = uses
                return tables[k].scores.baseAddress
            }
            if tables.count >= Self.maximumTerms,
               let oldest = tables.indices.min(by: { tables[$0].lastUse < tables[$1].lastUse }) {
                tables[oldest].scores.deallocate()
                tables.remove(at: oldest)
            }
            let scores = UnsafeMutableBufferPointer<Int16>.allocate(capacity: count)
            scores.initialize(repeating: Self.unknown)
            tables.append(Table(key: key, scores: scores, lastUse: uses))
            return scores.baseAddress
        }
    }
}

/// The tables of one query's sets during one scan (`TermScores.tables`),
/// read by both scan threads: set `s`'s table or nil.
struct SetScoreTables: @unchecked Sendable {
    let tables: UnsafeMutableBufferPointer<UnsafeMutablePointer<Int16>?>

    /// Allocates room for `tables`; `deallocate()` when the scan ends.
    init(_ tables: [UnsafeMutablePointer<Int16>?]) {
        self.tables = .allocate(capacity: tables.count)
        _ = self.tables.initialize(from: tables)
    }

    func deallocate() { tables.deallocate() }

    /// Set `s`'s known score of text `id`, or nil.
    @inline(__always)
    func score(set s: Int, id: Int) -> Int? {
        guard let table = tables[s] else { return nil }
        let value = table[id]
        return value >= 0 && value < TermScores.boundFlag ? Int(value) : nil
    }

    /// Set `s`'s known score of text `id`, or else a bound of it, or nil.
    @inline(__always)
    func bound(set s: Int, id: Int) -> Int? {
        guard let table = tables[s] else { return nil }
        let value = table[id]
        if value < 0 { return nil }
        return Int(TermScores.isLoose(value) ? value & ~(TermScores.boundFlag | TermScores.looseFlag)
                                             : value & ~TermScores.boundFlag)
    }

    /// Set `s`'s known score of text `id`, or else its run bound, or nil
    /// (also when only a loose bound is known).
    @inline(__always)
    func runBound(set s: Int, id: Int) -> Int? {
        guard let table = tables[s] else { return nil }
        let value = table[id]
        return value < 0 || TermScores.isLoose(value) ? nil : Int(value & ~TermScores.boundFlag)
    }

    /// Records set `s`'s score of text `id` (when the set has a table).
    @inline(__always)
    func record(set s: Int, id: Int, score: Int) {
        guard let table = tables[s], score >= 0, score < Int(TermScores.boundFlag) else { return }
        table[id] = Int16(score)
    }

    /// Records set `s`'s run bound of text `id` when nothing or only a
    /// loose bound is known of it.
    @inline(__always)
    func record(set s: Int, id: Int, bound: Int) {
        guard let table = tables[s], table[id] < 0 || TermScores.isLoose(table[id]),
              bound >= 0, bound < Int(TermScores.looseFlag) else { return }
        table[id] = Int16(bound) | TermScores.boundFlag
    }

    /// Records a loose bound (the masks' and word pairs') of set `s`'s
    /// score of text `id` when nothing is known of it.
    @inline(__always)
    func record(set s: Int, id: Int, looseBound bound: Int) {
        guard let table = tables[s], table[id] < 0, bound >= 0, bound < Int(TermScores.looseFlag) else { return }
        table[id] = Int16(bound) | TermScores.boundFlag | TermScores.looseFlag
    }
}
