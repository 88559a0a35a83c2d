import Dispatch
import Synchronization

/// A growable buffer of trivial values with a stable base address once
/// built (no copy-on-write, no bounds checks in the hot append path).
/// Owned by one `SegmentStorage`, which frees it.
struct RawBuffer<T: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<T>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 8)
        base = .allocate(capacity: self.capacity)
    }

    @inline(__always) mutating func append(_ value: T) {
        if count == capacity { grow(to: count + 1) }
        base[count] = value
        count &+= 1
    }

    @inline(__always) mutating func append(_ values: UnsafeBufferPointer<T>) {
        let n = values.count
        if count &+ n > capacity { grow(to: count + n) }
        if let source = values.baseAddress, n > 0 { (base + count).update(from: source, count: n) }
        count &+= n
    }

    /// Appends the integers of `range`, ascending.
    /// - Complexity: O(range.count)
    mutating func append(consecutive range: Range<Int>) where T == Int {
        let n = range.count
        guard n > 0 else { return }
        if count &+ n > capacity { grow(to: count + n) }
        var value = range.lowerBound
        for k in 0..<n {
            base[count &+ k] = value
            value &+= 1
        }
        count &+= n
    }

    /// Appends `n` copies of `value`.
    /// - Complexity: O(n)
    mutating func append(repeating value: T, count n: Int) {
        guard n > 0 else { return }
        if count &+ n > capacity { grow(to: count + n) }
        (base + count).update(repeating: value, count: n)
        count &+= n
    }

    /// Appends `n` bytes from `source`, where `limit` bytes are readable
    /// from `source` on: short runs are copied as two 16-byte words when
    /// both sides have room (bytes past `n` are overwritten later).
    /// - Complexity: O(n)
    @inline(__always) mutating func appendBytes(_ source: UnsafePointer<UInt8>, count n: Int, readable limit: Int)
    where T == UInt8 {
        if count &+ max(n, 32) > capacity { grow(to: count + max(n, 32)) }
        if n <= 32 && limit >= 32 {
            let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(base + count)
            to.storeBytes(of: from.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self),
                          toByteOffset: 16, as: SIMD16<UInt8>.self)
        } else if n > 0 {
            (base + count).update(from: source, count: n)
        }
        count &+= n
    }

    /// - Complexity: O(count) (amortized O(1) per appended value).
    private mutating func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<T>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Empties the buffer and makes room for `capacity` values (contents are
    /// dropped, so growing does not copy).
    /// - Complexity: O(1)
    mutating func reset(capacity needed: Int) {
        count = 0
        if needed > capacity {
            base.deallocate()
            capacity = needed
            base = .allocate(capacity: needed)
        }
    }

    var buffer: UnsafeBufferPointer<T> { UnsafeBufferPointer(start: base, count: count) }

    func free() { base.deallocate() }
}

/// The buffers of one compacted segment.
struct SegmentStorage {
    var bytes: RawBuffer<UInt8>
    var folded: RawBuffer<UInt8>
    var offsets: RawBuffer<Int>
    var foldedOffsets: RawBuffer<Int>
    var flags: RawBuffer<UInt8>
    /// Each copied text's bonus masks (read in order by a narrowing scan,
    /// rather than at scattered index positions).
    var masks: RawBuffer<BonusMasks>
    var wordPairs: RawBuffer<UInt64>
    var ids: RawBuffer<Int>
    /// Per text: where a query extending the segment's query resumes
    /// matching (see `ChunkResult.resume`).
    var resume: RawBuffer<Int32>

    init(texts: Int, bytes byteCount: Int) {
        isSelection = byteCount == 0
        bytes = RawBuffer(capacity: byteCount)
        folded = RawBuffer(capacity: byteCount)
        offsets = RawBuffer(capacity: texts + 1)
        foldedOffsets = RawBuffer(capacity: texts + 1)
        flags = RawBuffer(capacity: texts)
        masks = RawBuffer(capacity: byteCount == 0 ? 0 : texts)
        wordPairs = RawBuffer(capacity: byteCount == 0 ? 0 : texts)
        ids = RawBuffer(capacity: texts)
        resume = RawBuffer(capacity: texts)
        reset(texts: texts, bytes: byteCount)
    }

    /// Empties the buffers, with room for `texts` texts of `bytes` bytes.
    /// - Complexity: O(1)
    mutating func reset(texts: Int, bytes byteCount: Int) {
        bytes.reset(capacity: byteCount)
        folded.reset(capacity: byteCount)
        offsets.reset(capacity: texts + 1)
        foldedOffsets.reset(capacity: texts + 1)
        flags.reset(capacity: texts)
        masks.reset(capacity: isSelection ? 0 : texts)
        wordPairs.reset(capacity: isSelection ? 0 : texts)
        ids.reset(capacity: texts)
        resume.reset(capacity: texts)
        offsets.append(0)
        foldedOffsets.append(0)
    }

    /// Room for bytes and for texts.
    var capacity: Int { bytes.capacity }
    var textCapacity: Int { ids.capacity }
    /// Allocated bytes, roughly (what a pool compares).
    var size: Int {
        2 * bytes.capacity + 29 * ids.capacity + (MemoryLayout<BonusMasks>.stride + 8) * masks.capacity
    }
    /// Made for selections (no text bytes).
    let isSelection: Bool

    func free() {
        bytes.free(); folded.free(); offsets.free(); foldedOffsets.free(); flags.free(); masks.free(); wordPairs.free(); ids.free(); resume.free()
    }
}

/// Recycles segment storage along a chain of keystrokes: the buffers of a
/// match set that is dropped are reused by a later one. A fresh large
/// allocation is page-faulted in on first touch, which would otherwise
/// cost more than copying the texts.
final class SegmentPool: @unchecked Sendable {
    private let queue = DispatchQueue(label: "diffable.search.segment-pool")
    private let keystrokes = Atomic<Int>(0)

    /// Keystrokes of the chain so far (`evaluate` calls).
    var keystroke: Int { keystrokes.load(ordering: .relaxed) }

    /// A keystroke of the chain begins: background work that only a
    /// keystroke coming after it would have read stops
    /// (`SearchMatchSet+TailSets`).
    func keystrokeBegins() {
        keystrokes.add(1, ordering: .relaxed)
    }
    private var spare: [SegmentStorage] = []
    /// Spare storages kept per kind (copies, selections): what a chain of
    /// keystrokes with two scan threads cycles through. Each copy storage
    /// of a 1M-text index is tens of MB, so no more.
    static let maxSpare = 3

    deinit { for storage in spare { storage.free() } }

    /// An empty storage for about `texts` texts of `bytes` bytes (`bytes`
    /// = 0: a selection, which uses only ids and resume positions): the
    /// smallest spare one of the same kind that is large enough, else the
    /// largest of that kind (grown), else a new one.
    /// - Complexity: O(spare storages)
    func take(texts: Int, bytes: Int) -> SegmentStorage {
        let selection = bytes == 0
        var taken: SegmentStorage? = queue.sync {
            var fit: Int?
            var largest: Int?
            for k in spare.indices where spare[k].isSelection == selection {
                let size = spare[k].size
                if spare[k].capacity >= bytes && spare[k].textCapacity >= texts
                    && fit.map({ size < spare[$0].size }) ?? true { fit = k }
                if largest.map({ size > spare[$0].size }) ?? true { largest = k }
            }
            return (fit ?? largest).map { spare.remove(at: $0) }
        }
        if taken == nil { return SegmentStorage(texts: texts, bytes: bytes) }
        taken?.reset(texts: texts, bytes: bytes)
        return taken ?? SegmentStorage(texts: texts, bytes: bytes)
    }

    /// Takes `storage` back (frees the smallest storage of its kind when
    /// more than `maxSpare` of that kind are kept).
    /// - Complexity: O(spare storages)
    func give(_ storage: SegmentStorage) {
        let dropped: SegmentStorage? = queue.sync {
            spare.append(storage)
            let kind = spare.indices.filter { spare[$0].isSelection == storage.isSelection }
            guard kind.count > Self.maxSpare, var smallest = kind.first else { return nil }
            for k in kind where spare[k].size < spare[smallest].size { smallest = k }
            return spare.remove(at: smallest)
        }
        dropped?.free()
    }
}

/// Fills the storage of one `CompactSegment` (one thread, appends only):
/// either a selection (`select`: positions in a table, with resume
/// positions) or copied texts (`append`). A value owned by the scanning
/// thread (appends need no dynamic exclusivity checks); `build` hands the
/// buffers over to a segment, `discard` back to the pool.
struct SegmentBuilder {
    fileprivate var storage: SegmentStorage
    fileprivate let pool: SegmentPool

    /// Room for about `texts` texts of `bytes` UTF-8 bytes in total (grows
    /// as needed), taken from `pool`.
    init(texts: Int, bytes: Int, pool: SegmentPool) {
        storage = pool.take(texts: texts, bytes: bytes)
        self.pool = pool
    }

    /// Number of entries.
    var count: Int { storage.ids.count }

    /// Selected positions (after `select`).
    var positions: UnsafeBufferPointer<Int> { storage.ids.buffer }
    /// Resume positions (after `select` or `append`).
    var resume: UnsafeBufferPointer<Int32> { storage.resume.buffer }

    /// Selects text `i` of the scanned table (ascending), with its resume
    /// position.
    @inline(__always) mutating func select(_ i: Int, resume: Int32) {
        storage.ids.append(i)
        storage.resume.append(resume)
    }

    /// Selects the texts `positions` of the scanned table (ascending, after
    /// those already selected), all with resume position `resume`.
    /// - Complexity: O(positions.count)
    mutating func select(contentsOf positions: UnsafeBufferPointer<Int>, resume: Int32) {
        storage.ids.append(positions)
        storage.resume.append(repeating: resume, count: positions.count)
    }

    /// Selects the consecutive texts `positions` of the scanned table
    /// (ascending, after those already selected), all with resume position
    /// `resume`.
    /// - Complexity: O(positions.count)
    mutating func select(range positions: Range<Int>, resume: Int32) {
        storage.ids.append(consecutive: positions)
        storage.resume.append(repeating: resume, count: positions.count)
    }

    /// Copies text `i` of `table`, whose index in the `SearchIndex` is `id`
    /// (ids must be appended in ascending order), with its resume position.
    /// - Complexity: O(length of the text)
    @inline(__always) mutating func append(_ table: TextTable, _ i: Int, id: Int, resume: Int32) {
        let original = table.original(i), folded = table.foldedText(i)
        if let b = original.baseAddress, let start = table.bytes.baseAddress {
            storage.bytes.appendBytes(b, count: original.count, readable: table.bytes.count - (b - start))
        }
        if let f = folded.baseAddress, let start = table.folded.baseAddress {
            storage.folded.appendBytes(f, count: folded.count, readable: table.folded.count - (f - start))
        }
        storage.offsets.append(storage.bytes.count)
        storage.foldedOffsets.append(storage.folded.count)
        storage.flags.append(table.flags[i])
        storage.masks.append(i < table.masks.count ? table.masks[i] : .unknown)
        storage.wordPairs.append(table.wordPairsOf(i))
        storage.ids.append(id)
        storage.resume.append(resume)
    }

    /// The segment of the copied texts, or (with `base`) the view selecting
    /// texts of `base`; it now owns the buffers (given back to the pool when
    /// freed). The builder must not be used afterwards.
    /// `copyLater`: a sparse view a match set copies in the background
    /// (see `SearchMatchSet+Copying`).
    /// `pendingResume`: a view whose resume positions are still to be
    /// found (see `PendingResume`).
    /// `tailsAfter`: the segment keeps tail sets holding the followers of
    /// this needle byte, which its match set finds in the background (what
    /// a fuzzy, case-insensitive scan asks for: `TailSets.kept(for:)`).
    func build(base: CompactSegment? = nil, copyLater: Bool = false,
               pendingResume: PendingResume? = nil, tailsAfter: UInt8? = nil) -> CompactSegment {
        CompactSegment(storage, pool: pool, base: base, copyLater: copyLater, pendingResume: pendingResume,
                              tailsAfter: tailsAfter)
    }

    /// Gives the buffers back to the pool; the builder must not be used
    /// afterwards.
    func discard() { pool.give(storage) }
}

/// A compacted copy of some texts of a `SearchIndex` (fzf-style narrowing):
/// the same flat layout as the index (UTF-8, folded copy, offsets, flags)
/// for just those texts, back to back, plus each one's index in the
/// `SearchIndex` (ascending) and resume position. A narrowing keystroke
/// scans this dense buffer instead of texts scattered over the whole index.
///
/// A *view* selects texts of a root segment (`base`) instead: when most of
/// them still match, listing their positions is cheaper than copying, and
/// scanning them is still nearly sequential. The root is a copied segment,
/// or the `SearchIndex` itself: a first keystroke that matches half of the
/// texts or more (a common letter) lists them instead of copying them.
///
/// Immutable once built (but for `pendingResume`); shared read-only between
/// threads.
final class CompactSegment: @unchecked Sendable {
    /// The buffers this segment owns (none for the index root).
    private let storage: SegmentStorage?
    let pool: SegmentPool
    /// For a view: the segment whose texts it selects (never a view).
    let base: CompactSegment?
    /// The index whose texts this root segment is (kept alive by it).
    private let index: SearchIndex?
    /// The texts of a copied segment (its own, or `base`'s for a view);
    /// nil when the root is the index (read through `withTable`).
    private let copiedTable: TextTable?
    /// The index in the `SearchIndex` of each text of the table, ascending
    /// (nil: the same, for the index root and its views).
    let textIds: UnsafeBufferPointer<Int>?
    /// For a view: the selected positions in the root's table, ascending.
    let positions: UnsafeBufferPointer<Int>?
    /// Per entry: where matching a query that extends this one resumes.
    let resume: UnsafeBufferPointer<Int32>
    /// A sparse view that its match set copies in the background.
    let copyLater: Bool
    /// A view whose resume positions are -1 (from scratch) until its match
    /// set finds them in the background and writes them in place (the one
    /// exception to immutability: readers of `resume` wait for that,
    /// through `SearchMatchSet.scanSegments`).
    let pendingResume: PendingResume?
    /// Per entry, what its text holds after its match (`TailSet`: the
    /// folded bytes from its resume position on, and the followers of the
    /// query's last byte): a narrowing scan decides most candidates from
    /// them without reading their texts (`TailSets`). Nil when the segment
    /// has none (substring and case-sensitive queries, sets moved through
    /// an edit). Written in place by the match set's tail task, and read
    /// only once it has finished (`SearchMatchSet.tailSetsIfFound`).
    var tails: UnsafeBufferPointer<TailSet>? { tailStore?.sets }
    /// Where the tail task writes them (nil: the segment keeps none).
    let tailStore: TailStore?
    /// The needle byte whose followers `tails` hold.
    let tailLast: UInt8

    fileprivate init(_ storage: SegmentStorage, pool: SegmentPool, base: CompactSegment?, copyLater: Bool,
                     pendingResume: PendingResume? = nil, tailsAfter: UInt8? = nil) {
        self.storage = storage
        self.pool = pool
        self.copyLater = copyLater && base != nil
        self.pendingResume = base != nil ? pendingResume : nil
        tailStore = tailsAfter.map { _ in TailStore(count: storage.ids.count) }
        tailLast = tailsAfter ?? 0
        let root = base.map { $0.base ?? $0 }
        self.base = root
        index = nil
        if let root {
            copiedTable = root.copiedTable
            textIds = root.textIds
            positions = storage.ids.buffer
        } else {
            copiedTable = TextTable(bytes: storage.bytes.buffer, folded: storage.folded.buffer,
                                    offsets: storage.offsets.buffer, foldedOffsets: storage.foldedOffsets.buffer,
                                    flags: storage.flags.buffer, masks: storage.masks.buffer,
                                    wordPairs: storage.wordPairs.buffer)
            textIds = storage.ids.buffer
            positions = nil
        }
        resume = storage.resume.buffer
    }

    /// The root segment whose texts are those of `index` (nothing copied).
    init(root index: SearchIndex, pool: SegmentPool) {
        storage = nil
        self.pool = pool
        copyLater = false
        pendingResume = nil
        tailStore = nil
        tailLast = 0
        base = nil
        self.index = index
        copiedTable = nil
        textIds = nil
        positions = nil
        resume = UnsafeBufferPointer(start: nil, count: 0)
    }

    deinit { if let storage { pool.give(storage) } }

    /// Number of entries (matches; all texts for the index root).
    var count: Int { storage?.ids.count ?? index?.count ?? 0 }

    /// Bytes of the buffers this segment owns, its tail sets included
    /// (0 for the index root).
    var storageBytes: Int { (storage?.size ?? 0) + (tailStore?.byteCount ?? 0) }

    /// The segment that owns the texts (itself unless a view).
    var root: CompactSegment { base ?? self }

    /// Runs `body` with the table this segment's entries live in (its
    /// root's), valid only inside `body`.
    func withTable<R>(_ body: (TextTable) -> R) -> R {
        if let copiedTable { return body(copiedTable) }
        if let index = root.index { return index.withTable(body) }
        return SearchIndex().withTable(body)
    }

    /// UTF-8 bytes per text of the root's table, rounded up (what sizes a
    /// copy).
    var averageTextBytes: Int {
        let root = root
        guard root.count > 0 else { return 0 }
        return root.withTable { ($0.bytes.count + root.count - 1) / root.count }
    }

    /// Calls `body` with the `SearchIndex` index of every entry, ascending.
    /// - Complexity: O(count)
    /// Calls `body` with each entry's index in the `SearchIndex` that is
    /// at least `first`, ascending.
    /// - Complexity: O(1) for a segment with none, else O(count)
    func forEachIndex(from first: Int, _ body: (Int) -> Void) {
        guard count > 0, indexOfEntry(count - 1) >= first else { return }
        forEachIndex { if $0 >= first { body($0) } }
    }

    /// The index in the `SearchIndex` of entry `k`.
    /// - Complexity: O(1)
    func indexOfEntry(_ k: Int) -> Int {
        let p = positions.map { $0[k] } ?? k
        return textIds.map { $0[p] } ?? p
    }

    @inline(__always) func forEachIndex(_ body: (Int) -> Void) {
        if let positions {
            if let textIds { for p in positions { body(textIds[p]) } } else { for p in positions { body(p) } }
        } else if let textIds {
            for id in textIds { body(id) }
        } else {
            for id in 0..<count { body(id) }
        }
    }
}
