import Dispatch

/// What a scan keeps besides the matches.
enum ScanRanking: Sendable {
    /// No scores (match set only).
    case none
    /// The first `k` hits in index order.
    case firstInSource(Int)
    /// The best `k` hits by score (bounded heap).
    case best(Int)
    /// Every hit, sorted afterwards.
    case all
}

/// The result of scanning one contiguous chunk of candidates.
struct ChunkResult {
    var matches: [Int] = []
    var keys: [RankKey] = []
}

/// Matches and scores texts of one table for one prepared query.
struct Scanner {
    let table: TextTable
    let query: PreparedQuery
    let workspace = FuzzyWorkspace()

    /// The score of text `i`, or `nil` when it does not match.
    /// - Complexity: O(L) substring, O(L × query length) fuzzy.
    func score(_ i: Int) -> Int? {
        if query.isEmpty { return 0 }
        switch query.mode {
        case .substring:
            return query.bytes.withUnsafeBufferPointer { SubstringMatcher.score(table, i, needle: $0) }
        case .fuzzy:
            return FuzzyMatcher.score(table, i, query: query, workspace: workspace)
        }
    }

    /// Scans `candidates` (ascending, in range).
    /// - Complexity: O(Σ L) matching + scoring of the kept matches.
    func scan<C: Collection>(_ candidates: C, keepMatches: Bool, ranking: ScanRanking) -> ChunkResult
    where C.Element == Int {
        var result = ChunkResult()
        if keepMatches { result.matches.reserveCapacity(candidates.count / 4) }
        var top = TopK(capacity: 0)
        var firstK = Int.max
        switch ranking {
        case .best(let k): top = TopK(capacity: k)
        case .firstInSource(let k): firstK = max(k, 0)
        case .none, .all: break
        }
        if !keepMatches, case .firstInSource = ranking, firstK == 0 { return result }
        let bound = FuzzyMatcher.maxScore(queryLength: query.scalars.count)
        query.bytes.withUnsafeBufferPointer { needle in
            for i in candidates {
                // 1. Match (and the score when it is free).
                var known: Int?
                if query.isEmpty {
                    known = 0
                } else if query.mode == .substring {
                    guard let s = SubstringMatcher.score(table, i, needle: needle) else { continue }
                    known = s
                } else {
                    guard FuzzyMatcher.matches(table, i, query: query, needle: needle) else { continue }
                }
                if keepMatches { result.matches.append(i) }
                // 2. Rank.
                switch ranking {
                case .none:
                    continue
                case .firstInSource:
                    if result.keys.count < firstK, let s = known ?? score(i) {
                        result.keys.append(RankKey(score: s, length: table.scalarLength(i), index: i))
                    } else if !keepMatches {
                        return
                    }
                case .all:
                    if let s = known ?? score(i) {
                        result.keys.append(RankKey(score: s, length: table.scalarLength(i), index: i))
                    }
                case .best:
                    let length = table.scalarLength(i)
                    // Skip the DP when even the best possible score cannot enter.
                    if known == nil && top.isFull {
                        if !top.admits(RankKey(score: bound, length: length, index: i)) { continue }
                        let tight = FuzzyMatcher.maxScore(table, i, query: query, needle: needle)
                        if !top.admits(RankKey(score: tight, length: length, index: i)) { continue }
                    }
                    if let s = known ?? score(i) {
                        top.insert(RankKey(score: s, length: length, index: i))
                    }
                }
            }
        }
        if case .best = ranking { result.keys = top.heap }
        return result
    }
}

/// Per-chunk results written by worker threads (one slot each).
private final class ChunkSlots: @unchecked Sendable {
    let slots: UnsafeMutablePointer<ChunkResult>
    let count: Int
    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: ChunkResult(), count: count)
    }
    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }
}

extension SearchIndex {
    /// Candidate counts from which a scan is split across `parallelism` threads.
    static let parallelThreshold = 16_384
    /// Number of threads a large scan uses (the daemon's machine has 2 cores).
    static let parallelism = 2

    /// Normalizes candidates: in range, ascending, no duplicates.
    /// - Complexity: O(c), or O(c log c) when not already ascending.
    func normalized(_ candidates: [Int]) -> [Int] {
        var ascending = true
        var previous = -1
        for i in candidates {
            if i <= previous || i < 0 || i >= count { ascending = false; break }
            previous = i
        }
        if ascending { return candidates }
        var out = candidates.filter { $0 >= 0 && $0 < count }
        out.sort()
        var unique: [Int] = []
        unique.reserveCapacity(out.count)
        for i in out where unique.last != i { unique.append(i) }
        out = unique
        return out
    }

    /// The shared engine of `search`, `matchingIndices`, `rank`, `evaluate`.
    func run(_ query: SearchQuery, among candidates: [Int]?, keepMatches: Bool,
             scoring: Bool = true) -> SearchResult {
        let prepared = PreparedQuery(query)
        let limit = query.limit.map { max($0, 0) }
        let ranking: ScanRanking
        if !scoring {
            ranking = .none
        } else if query.order == .source {
            ranking = .firstInSource(limit ?? Int.max)
        } else if let limit {
            ranking = .best(limit)
        } else {
            ranking = .all
        }
        let list = candidates.map(normalized)
        let total = list?.count ?? count
        let chunks = total >= Self.parallelThreshold ? Self.parallelism : 1

        let results: [ChunkResult] = withTable { table in
            @Sendable func scanChunk(_ c: Int) -> ChunkResult {
                let lo = total * c / chunks, hi = total * (c + 1) / chunks
                let scanner = Scanner(table: table, query: prepared)
                if let list {
                    return list.withUnsafeBufferPointer {
                        scanner.scan($0[lo..<hi], keepMatches: keepMatches, ranking: ranking)
                    }
                }
                return scanner.scan(lo..<hi, keepMatches: keepMatches, ranking: ranking)
            }
            if chunks == 1 { return [scanChunk(0)] }
            let slots = ChunkSlots(count: chunks)
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                slots.slots[c] = scanChunk(c)
            }
            return (0..<chunks).map { slots.slots[$0] }
        }

        var matches: [Int] = []
        if keepMatches {
            if results.count == 1 {
                matches = results[0].matches
            } else {
                matches.reserveCapacity(results.reduce(0) { $0 + $1.matches.count })
                for r in results { matches.append(contentsOf: r.matches) }
            }
        }
        var keys = results.count == 1 ? results[0].keys : results.flatMap(\.keys)
        switch ranking {
        case .none:
            keys = []
        case .firstInSource(let k):
            if keys.count > k { keys.removeSubrange(k...) }
        case .best(let k):
            keys.sort { $0.precedes($1) }
            if keys.count > k { keys.removeSubrange(k...) }
        case .all:
            keys.sort { $0.precedes($1) }
        }
        return SearchResult(matches: matches, hits: keys.map(\.hit))
    }
}
