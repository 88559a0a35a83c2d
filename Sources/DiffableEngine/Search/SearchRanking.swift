import Synchronization

/// A hit with its ranking keys. The ranking order is total (indices are
/// unique), so equal inputs always rank identically.
struct RankKey {
    var score: Int
    var length: Int
    var index: Int

    /// `score` as it ranks: clamped to `rankedScore`.
    @inline(__always)
    init(score: Int, length: Int, index: Int) {
        self.score = Self.rankedScore(score)
        self.length = length
        self.index = index
    }

    /// A score as fzf ranks it: its sort key holds the score in 16 bits,
    /// so a negative one (fzf's greedy v1 scoring of a long text keeps
    /// every gap's cost) ranks as 0, and ties there on the length.
    /// Bounds are compared clamped too (`TopK.admitsNext`,
    /// `SharedFloor.pack`), so that they stay at least the ranked score.
    /// - Complexity: O(1)
    @inline(__always)
    static func rankedScore(_ score: Int) -> Int { min(max(score, 0), Int(UInt16.max)) }

    /// Whether `self` ranks before `other`: higher score, then shorter text,
    /// then lower index.
    @inline(__always)
    func precedes(_ other: RankKey) -> Bool {
        if score != other.score { return score > other.score }
        if length != other.length { return length < other.length }
        return index < other.index
    }

    var hit: SearchHit { SearchHit(index: index, score: score) }
}

/// The best `capacity` keys seen so far: a binary heap whose root is the
/// worst kept key, so a new key is compared once against it.
struct TopK {
    let capacity: Int
    private(set) var heap: [RankKey] = []

    init(capacity: Int) {
        self.capacity = max(capacity, 0)
        heap.reserveCapacity(min(self.capacity, 1 << 16))
    }

    var isFull: Bool { heap.count >= capacity }

    /// The worst kept key (when full, a key must precede it to enter).
    var worst: RankKey? { heap.first }

    /// Whether `key` would enter the heap.
    @inline(__always)
    func admits(_ key: RankKey) -> Bool {
        guard capacity > 0 else { return false }
        guard isFull, let worst = heap.first else { return true }
        return key.precedes(worst)
    }

    /// Whether a key with this score and length, and an index above every
    /// kept one (scans offer indices in ascending order), would enter.
    @inline(__always)
    func admitsNext(score: Int, length: Int) -> Bool {
        guard capacity > 0 else { return false }
        guard isFull, let worst = heap.first else { return true }
        let score = RankKey.rankedScore(score)
        return score > worst.score || (score == worst.score && length < worst.length)
    }

    /// Offers `key`.
    /// - Complexity: O(log capacity)
    mutating func insert(_ key: RankKey) {
        guard capacity > 0 else { return }
        if heap.count < capacity {
            heap.append(key)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                // The parent must be worse than (ranked after) the child.
                guard heap[parent].precedes(heap[child]) else { break }
                heap.swapAt(parent, child)
                child = parent
            }
            return
        }
        guard key.precedes(heap[0]) else { return }
        heap[0] = key
        var parent = 0
        let n = heap.count
        while true {
            let left = 2 * parent + 1
            if left >= n { break }
            var worse = left
            let right = left + 1
            if right < n && heap[left].precedes(heap[right]) { worse = right }
            guard heap[parent].precedes(heap[worse]) else { break }
            heap.swapAt(parent, worse)
            parent = worse
        }
    }

    /// The kept keys in ranking order.
    /// - Complexity: O(k log k)
    func sorted() -> [RankKey] {
        heap.sorted { $0.precedes($1) }
    }
}

/// The worst kept key of any scan thread's full heap, packed so that a
/// greater value ranks first: a text strictly worse (lower score, or the
/// same score and longer) than a key another thread keeps with `k - 1`
/// better ones cannot be among the best `k`, so no thread scores it. Ties
/// are let through (the index decides those, and threads scan different
/// index ranges).
final class SharedFloor: Sendable {
    private let packed = Atomic<UInt64>(0)

    /// (score, length) packed: score ascending in the high half, length
    /// descending in the low half (both clamped, which only makes more ties).
    @inline(__always) static func pack(score: Int, length: Int) -> UInt64 {
        let s = UInt64(RankKey.rankedScore(score) &+ (1 << 31))
        let l = UInt64(min(max(length, 0), Int(UInt32.max)))
        return s << 32 | (UInt64(UInt32.max) &- l)
    }

    /// The best floor published so far (0: none).
    @inline(__always) var value: UInt64 { packed.load(ordering: .relaxed) }

    /// Publishes a full heap's worst key (kept when it is higher).
    func raise(to value: UInt64) {
        var current = packed.load(ordering: .relaxed)
        while value > current {
            let (exchanged, original) = packed.compareExchange(expected: current, desired: value, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}
