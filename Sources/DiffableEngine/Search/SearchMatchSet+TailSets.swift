import Dispatch
import Synchronization

/// Finding a fuzzy match set's tail sets (`TailSets`) after the reply.
///
/// The task starts with the set's other background work (copies, pending
/// resume positions: `SearchMatchSet+Copying`), waits for it, then reads
/// each matched text from its resume position to its end, on two threads
/// for a large set (`CompactSegment.findTails(of:unless:)`): it is meant
/// to end within the time between two typed keys, which one thread does
/// not do for a set of a million texts, and a key that comes first reads
/// every text again. A keystroke stops the task within 4,096 texts, so it
/// never holds a core the keystroke needs.
///
/// A keystroke typed later narrows with the sets; one sent before they are
/// all found (keys sent back to back) does without them, as if the set
/// kept none: waiting would make every such key pay for reading the texts
/// twice. A keystroke stops every tail task of its chain still running
/// (`SegmentPool.keystrokeBegins`), and a set nobody holds any more stops
/// its own, so that work nobody will read never competes with a keystroke
/// for the cores.
extension SearchMatchSet {
    /// Starts finding the tail sets of `segments` (as `copying` leaves
    /// them), or nil when none keeps tail sets.
    static func tailing(_ segments: [CompactSegment], after copying: BackgroundBuild<[CompactSegment]>?) -> TailWork? {
        guard let pool = segments.first?.pool, segments.contains(where: { $0.tailStore != nil }) else { return nil }
        return TailWork(pool: pool) { stop in
            CompactSegment.findTails(of: copying?.value() ?? segments, unless: stop)
        }
    }

    /// Whether this set's tail sets are all found and may be read; when
    /// they are still being found, stops that (a keystroke does not wait).
    /// - Complexity: O(1)
    func tailSetsIfFound() -> Bool {
        guard let tailing else { return false }
        return tailing.resultIfReadyElseStop()
    }

    /// Waits for this set's tail sets (tests: what a keystroke typed a
    /// moment later sees); whether they were all found.
    func waitForTailSets() -> Bool { tailing?.build.value() ?? false }
}

/// The background task finding a match set's tail sets, and its stop flag.
final class TailWork: Sendable {
    let stop: StopFlag
    let build: BackgroundBuild<Bool>

    /// Starts `body` (see `BackgroundBuild`), which returns whether it
    /// found every set before `stop` was raised.
    /// `pool`: the chain of keystrokes whose next one stops the task
    /// (none: only `stop` does).
    init(pool: SegmentPool? = nil, _ body: @escaping @Sendable (StopFlag) -> Bool) {
        let stop = StopFlag(pool: pool)
        self.stop = stop
        build = BackgroundBuild { body(stop) }
    }

    /// Nobody holds the match set any more: its sets would never be read.
    deinit { stop.raise() }

    /// The task's result when it has finished, else false after asking
    /// it to stop.
    func resultIfReadyElseStop() -> Bool {
        guard build.isReady else {
            stop.raise()
            return false
        }
        return build.value() ?? false
    }
}

/// A flag a background task polls to stop early: raised, or a keystroke
/// of `pool`'s chain began since the flag was made.
final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    private let pool: SegmentPool?
    private let keystroke: Int

    init(pool: SegmentPool? = nil) {
        self.pool = pool
        keystroke = pool?.keystroke ?? 0
    }

    func raise() { raised.store(true, ordering: .relaxed) }
    var isRaised: Bool { raised.load(ordering: .relaxed) || (pool.map { $0.keystroke != keystroke } ?? false) }
}

extension CompactSegment {
    /// Sets of at least this many entries in all are found on two threads.
    static let twoThreadTails = 1 << 16

    /// Writes the pending tail sets of `segments` in place, their entries
    /// split in two halves found on two threads when there are
    /// `twoThreadTails` or more; false when `stop` was raised first (the
    /// sets are then never read).
    /// - Complexity: O(entries + bytes of the texts after their resume
    ///   positions), over two threads.
    static func findTails(of segments: [CompactSegment], unless stop: StopFlag) -> Bool {
        // Allocated here, once: two threads may write one segment's sets.
        var pending: [(segment: CompactSegment, count: Int)] = []
        for segment in segments {
            guard let store = segment.tailStore else { continue }
            _ = store.allocate()
            pending.append((segment, store.count))
        }
        let total = pending.reduce(0) { $0 + $1.count }
        let parts = total >= twoThreadTails ? 2 : 1
        // Each part: (segment, its entries) in order; the first ends at
        // entry `total / parts` of them all.
        let cut = total / parts
        var jobs = Array(repeating: [(segment: CompactSegment, entries: Range<Int>)](), count: parts)
        var start = 0
        for (segment, count) in pending {
            let split = min(max(cut - start, 0), count)
            if split > 0 { jobs[0].append((segment, 0..<split)) }
            if split < count { jobs[parts - 1].append((segment, split..<count)) }
            start += count
        }
        let found = Parallel.map(parts, placeholder: false) { [jobs] part in
            jobs[part].allSatisfy { $0.segment.findTails($0.entries, unless: stop) }
        }
        return found.allSatisfy { $0 }
    }

    /// Writes the tail sets of this segment's entries `entries` in place
    /// (allocated by `findTails(of:unless:)`); false when `stop` was raised
    /// first.
    /// - Complexity: O(entries + bytes of their texts after their resume
    ///   positions)
    private func findTails(_ entries: Range<Int>, unless stop: StopFlag) -> Bool {
        guard let store = tailStore, !entries.isEmpty else { return true }
        let writable = store.allocate()
        let last = tailLast
        return withTable { table in
            BytePresence.bits.withUnsafeBufferPointer { bits in
                for k in entries {
                    if k & 4095 == 0 && stop.isRaised { return false }
                    let p = positions.map { $0[k] } ?? k
                    writable[k] = TailSets.tail(table, p, from: resume[k], last: last, bits: bits)
                }
                return true
            }
        }
    }
}

/// A segment's tail sets: allocated and written by its match set's tail
/// task, so that a keystroke neither allocates them nor frees the previous
/// ones (unmapping a set of a million texts is a keystroke's noticeable
/// share); a large buffer is freed on another thread.
final class TailStore: @unchecked Sendable {
    let count: Int
    /// Written by the tail task only, read once it has finished.
    private var base: UnsafeMutablePointer<TailSet>?

    init(count: Int) { self.count = count }

    /// What the sets take once allocated (counted from the start, so that
    /// what a kept match set holds does not depend on its task's progress).
    var byteCount: Int { count * MemoryLayout<TailSet>.stride }

    /// The sets (nil until the tail task has allocated them).
    var sets: UnsafeBufferPointer<TailSet>? { base.map { UnsafeBufferPointer(start: $0, count: count) } }

    /// Allocates the sets (the tail task, once, before it splits: not
    /// safe to call from two threads at once).
    func allocate() -> UnsafeMutablePointer<TailSet> {
        if let base { return base }
        let made = UnsafeMutablePointer<TailSet>.allocate(capacity: max(count, 1))
        base = made
        return made
    }

    deinit {
        guard let base else { return }
        guard count >= Self.freedElsewhere else { return base.deallocate() }
        let buffer = Freed(base)
        DispatchQueue.global(qos: .utility).async { buffer.free() }
    }

    /// Sets from which freeing goes to another thread (1 MB).
    static let freedElsewhere = 65_536

    private final class Freed: @unchecked Sendable {
        let base: UnsafeMutablePointer<TailSet>
        init(_ base: UnsafeMutablePointer<TailSet>) { self.base = base }
        func free() { base.deallocate() }
    }
}
