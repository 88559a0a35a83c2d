#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DiffableEngine

/// Giving a large request's memory back while its items are read, and
/// writing it again, exactly, when the reader reads some of it again.
///
/// Re-sending a large source holds, for a moment, the source's items,
/// the request (about as large as those items) and the new items: about
/// twice the steady state. But once an item is read the decoder never looks at its
/// bytes again, and most items arrive in the one shape the daemon writes,
/// `{"id":"…","content":…}` with canonical content, separated by bare
/// commas. For such a run of elements the decoded items *are* the bytes:
/// writing the items out again gives the run back byte for byte. So the
/// decoder gives back (`madvise(MADV_DONTNEED)`) the whole pages inside
/// each run of at least `chunk` bytes as soon as it has read it, and the
/// request shrinks while the new items grow.
///
/// The reader may still read some bytes again after that: a part that
/// disagrees with a sequential read is read again sequentially, and an
/// item the fast steps do not take is parsed alone (its children may have
/// been read, and released, first). Before it does, it restores the runs
/// it released from the items it read (`restore(from:)`), so it reads the
/// very bytes the client sent. A run's first byte is never released (a
/// part's reader may peek at the next part's first element).
///
/// Debug builds check each run against its items before releasing it.
///
/// - Complexity: O(1) per item read; each released page costs one page
///   fault's worth of kernel work; `restore` is O(bytes of the runs).
package struct ReleasedRuns {
    /// How the pages of finished runs are given back.
    package enum Mode: Sendable, Equatable {
        /// Nothing is released (small requests, tests of other things).
        case keep
        /// The whole pages inside each run of at least `chunk` bytes.
        case pages(chunk: Int)
        /// Each run of at least `chunk` bytes is overwritten with zeros
        /// (all but its first byte), so that tests see any read of a
        /// released byte, and any restore that is not exact.
        case zeros(chunk: Int)

        /// Runs of at least this many bytes are released (1 MiB: one
        /// `madvise` per ~10k items, and at most a page kept per run).
        package static let daemonChunk = 1 << 20
    }

    /// Elements `bytes` of the request (first byte to last, commas between)
    /// are exactly the written form of `items` (indices of the array read).
    package struct Run: Equatable {
        package var bytes: Range<Int>
        package var items: Range<Int>
    }

    private let input: UnsafeMutableBufferPointer<UInt8>
    private let mode: Mode
    /// Runs released and not restored, in reading order.
    private(set) var runs: [Run] = []
    /// Bytes given back (whole pages, or zeroed bytes) since the start.
    private(set) var releasedByteCount = 0
    /// The run being read: its bytes and items so far (`start` < 0: none).
    private var start = -1, end = -1, firstItem = 0, nextItem = 0
    private let chunk: Int

    package init(_ input: UnsafeMutableBufferPointer<UInt8>, mode: Mode) {
        self.input = input
        self.mode = mode
        switch mode {
        case .keep: chunk = Int.max
        case .pages(let size), .zeros(let size): chunk = max(1, size)
        }
    }

    /// Releases nothing (for readers of bytes they do not own).
    package static var keeping: ReleasedRuns { ReleasedRuns(UnsafeMutableBufferPointer(start: nil, count: 0), mode: .keep) }

    /// Notes that `items[index]` was just read from `bytes`, which are its
    /// written form (`consumeCanonical` or `decodeCanonicalItem` matched
    /// them); releases the run it ends when that run is long enough.
    /// - Complexity: O(1), or O(bytes of the run) when it is released.
    @inline(__always)
    package mutating func note(_ bytes: Range<Int>, item index: Int, of items: [Item]) {
        guard chunk != Int.max else { return }
        // The run goes on only with the next item, across one byte (a
        // comma in valid JSON; checked, since the run is written back so).
        if start < 0 || bytes.lowerBound != end + 1 || index != nextItem || input[end] != UInt8(ascii: ",") {
            start = bytes.lowerBound
            firstItem = index
        }
        end = bytes.upperBound
        nextItem = index + 1
        if end - start >= chunk { release(items) }
    }

    /// Appends the runs `other` released, its items being `offset` further
    /// in this reader's items (a part's runs, once the parts are joined).
    package mutating func append(_ other: ReleasedRuns, itemOffset offset: Int) {
        runs += other.runs.map { Run(bytes: $0.bytes, items: $0.items.lowerBound + offset ..< $0.items.upperBound + offset) }
        releasedByteCount += other.releasedByteCount
        start = -1
    }

    /// Writes every released run again from `items` (the items read with
    /// them, or a list holding them at the same indices).
    /// - Complexity: O(bytes of the runs).
    package mutating func restore<C: RandomAccessCollection<Item>>(from items: C) where C.Index == Int {
        for run in runs where run.items.lowerBound >= items.startIndex && run.items.upperBound <= items.endIndex {
            write(run, from: items)
        }
        runs = []
        start = -1
    }

    /// Writes again the runs of `items[first...]` (the rows an element
    /// read so far before it is read again alone), and forgets them.
    /// - Complexity: O(runs + bytes of those runs).
    package mutating func restore(from items: [Item], rowsFrom first: Int) {
        for run in runs where run.items.lowerBound >= first && run.items.upperBound <= items.count {
            write(run, from: items)
        }
        runs.removeAll { $0.items.lowerBound >= first }
        start = -1
    }

    private func write<C: RandomAccessCollection<Item>>(_ run: Run, from items: C) where C.Index == Int {
        let bytes = Self.written(items, run.items)
        // Unreachable (each run was checked to have this length): a
        // mismatch is never written past its run.
        guard bytes.count == run.bytes.count, let base = input.baseAddress else { return }
        (base + run.bytes.lowerBound).update(from: bytes, count: bytes.count)
    }

    /// Ends the run being read at the last item noted, and gives its bytes back.
    private mutating func release(_ items: [Item]) {
        let run = Run(bytes: start ..< end, items: firstItem ..< nextItem)
        assert(Self.written(items, run.items).elementsEqual(input[run.bytes]), "a released run must be its items' written form")
        runs.append(run)
        start = -1
        guard let base = input.baseAddress else { return }
        let kept = run.bytes.lowerBound + 1 ..< run.bytes.upperBound
        switch mode {
        case .keep:
            break
        case .zeros:
            memset(base + kept.lowerBound, 0, kept.count)
            releasedByteCount += kept.count
        case .pages:
            let page = Self.pageSize
            let first = (Int(bitPattern: base + kept.lowerBound) + page - 1) / page * page
            let last = Int(bitPattern: base + kept.upperBound) / page * page
            guard last > first, let pages = UnsafeMutableRawPointer(bitPattern: first) else { return }
            if madvise(pages, last - first, Self.dontNeed) == 0 { releasedByteCount += last - first }
        }
    }

    private static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
    #if canImport(Glibc)
    private static let dontNeed = Int32(MADV_DONTNEED)
    #else
    private static let dontNeed = MADV_DONTNEED
    #endif

    /// `items[range]` in the daemon's written form, joined by commas:
    /// `{"id":"<id>","content":<content>}`, or `{"id":"<id>"}`.
    package static func written<C: RandomAccessCollection<Item>>(_ items: C, _ range: Range<Int>) -> [UInt8] where C.Index == Int {
        var bytes: [UInt8] = []
        for index in range {
            let item = items[index]
            if index > range.lowerBound { bytes.append(UInt8(ascii: ",")) }
            bytes += #"{"id":""#.utf8
            item.withIDBytes { bytes += $0 }
            if let content = item.content {
                bytes += #"","content":"#.utf8
                content.withUnsafeBytes { bytes += $0 }
                bytes.append(UInt8(ascii: "}"))
            } else {
                bytes += #""}"#.utf8
            }
        }
        return bytes
    }
}
