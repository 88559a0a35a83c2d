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

/// The state of one thread's scan, carried across the pieces it scans.
struct ChunkResult {
    /// Every match (index-wide), when kept and not compacted.
    var matches: [Int] = []
    /// `.firstInSource` and `.all`: the kept keys; `.best`: the heap, once done.
    var keys: [RankKey] = []
    var top = TopK(capacity: 0)
    /// When set, matches are selected (or copied, when `copying`) here
    /// instead of listed in `matches`.
    var selection: SegmentBuilder?
    var copying = false
    /// The chunk's compacted matches, in index order (built by `run`).
    var built: [CompactSegment] = []
    let keepMatches: Bool
    let ranking: ScanRanking
    /// `.firstInSource` without `keepMatches`: the first k are found.
    var stopped = false

    init(keepMatches: Bool = false, ranking: ScanRanking = .none) {
        self.keepMatches = keepMatches
        self.ranking = ranking
        if case .best(let k) = ranking { top = TopK(capacity: k) }
        if case .firstInSource(let k) = ranking, k <= 0, !keepMatches { stopped = true }
    }

    /// Moves the heap into `keys` (call once, after the last piece).
    mutating func finish() {
        if case .best = ranking { keys = top.heap }
    }
}
