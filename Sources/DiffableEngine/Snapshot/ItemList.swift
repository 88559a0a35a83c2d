/// The items of a section: an `Array`-like collection (indices `0..<count`)
/// stored in chunks, so that editing one row of a huge section copies and
/// shifts one chunk, not the whole section.
///
/// A list starts in *flat* form: one buffer, exactly an `[Item]` (creating a
/// list from an array does not copy it, and reading it costs what reading the
/// array costs). `chunkify()`, or the first edit through the chunk-aware
/// mutations (`insert(_:at:report:)`, …) of a list longer than `maxChunk`,
/// splits it into chunks of about `targetChunk` items. The chunks are slices
/// of the original buffer, so splitting costs O(count / targetChunk), not
/// O(count). Chunks then stay between `minChunk` and `maxChunk` items (one
/// chunk may be smaller when it is the only one).
///
/// Copy-on-write is per level: copying a list is O(1); the first mutation of
/// a shared list copies the chunk table (O(chunks)) and the touched chunk
/// (O(chunk)), and the other chunks stay shared with the copy. A chunk cut
/// from a buffer it shares with other chunks is copied before its first
/// write even when it has become that buffer's only holder
/// (`borrowedChunks`), so that no buffer keeps items its chunks replaced.
///
/// Every chunk has an id, unique within the list and stable while the chunk
/// exists; `EditIndex` records the chunk of each item so an edit finds a row
/// without scanning the section (`row(of:inChunk:)`).
///
/// A third, read-mostly form, *mapped* (`init(rows:of:)`), is a list of row
/// numbers into another list: what a search shows of a section. Building it
/// costs O(rows) integers instead of O(rows) item copies (each a retain of
/// the id and content), and dropping it is one array release. Reads go
/// through the row map; the first mutation turns it into a flat list. See
/// `ItemList+Mapped.swift`.
public struct ItemList: Sendable {
    @usableFromInline static let targetChunk = 1024
    @usableFromInline static let maxChunk = 2048
    @usableFromInline static let minChunk = 256

    /// The items in flat form (`chunks` empty), else empty.
    @usableFromInline var flat: [Item]
    /// The chunks in chunked form (never empty ones); empty in flat form.
    @usableFromInline var chunks: [ArraySlice<Item>] = []
    /// Id of each chunk (flat form: the buffer's id is `flatChunkID`).
    @usableFromInline var chunkIDs: [Int] = []
    /// `starts[k]`: row of the first item of chunk `k`; `starts.last == count`.
    @usableFromInline var starts: [Int] = []
    /// `blocks[b]`: the chunk holding row `b << blockShift`, so finding the
    /// chunk of a row takes a lookup and at most
    /// `1 << blockShift / minChunk` steps.
    @usableFromInline var blocks: [Int32] = []
    @usableFromInline static let blockShift = 10
    @usableFromInline var nextChunkID = 1
    static let flatChunkID = 0
    /// Ids of the chunks that are slices of a buffer cut into several
    /// chunks (see `split`). Such a chunk, once the others have left its
    /// buffer, is its buffer's only holder, so a write goes in place and
    /// the buffer keeps every item outside the slice alive: the items an
    /// edit replaced, and with them the arenas they were read into. Before
    /// its first write a borrowed chunk is copied into a buffer of its own
    /// (`ownChunk`).
    @usableFromInline var borrowedChunks: Set<Int> = []

    /// An item moved to, or inserted into, a chunk (see `EditIndex`).
    public typealias Placement = (id: ItemID, chunk: Int)

    public init() {
        flat = []
    }

    /// Wraps `items` without copying them (flat form).
    public init(_ items: [Item]) {
        flat = items
    }

    public init<S: Sequence<Item>>(_ items: S) {
        flat = Array(items)
    }

    /// The items of `parts`, in order, without copying them: with several
    /// non-empty parts, in chunked form, each part's buffer cut into chunks
    /// (a large array decoded in parts on several threads becomes one list
    /// without a copy of every item).
    /// - Complexity: O(count / targetChunk + parts)
    public init(joining parts: [[Item]]) {
        let parts = parts.filter { !$0.isEmpty }
        guard parts.count > 1 else {
            flat = parts.first ?? []
            return
        }
        flat = []
        chunks = parts.map { $0[...] }
        chunkIDs = [Self.flatChunkID]
        for _ in 1..<parts.count { chunkIDs.append(newChunkID()) }
        chunked = true
        starts = [0]
        var ignored: [Placement]? = nil
        normalize(0, chunks.count, report: &ignored)
    }

    /// Whether the list is in chunked form (`!chunks.isEmpty`), kept in the
    /// struct so reads test a register, not the chunk table's header.
    @usableFromInline var chunked = false
    @inlinable var isChunked: Bool { chunked }
    /// The row map in mapped form (then `flat` and `chunks` are empty).
    @usableFromInline var mapping: RowMapping?

    /// - Complexity: O(1)
    @inlinable public var count: Int {
        if isChunked { return starts[starts.count - 1] }
        if let mapping { return mapping.count }
        return flat.count
    }

    /// Chunk holding `row` (`row` in `0..<count`, chunked form).
    /// - Complexity: O(1)
    @inlinable
    func chunk(containing row: Int) -> Int {
        var k = Int(blocks[row >> Self.blockShift])
        while starts[k + 1] <= row { k += 1 }
        return k
    }

    /// Calls `body` with each chunk's id and items, in order.
    func forEachChunk(_ body: (Int, ArraySlice<Item>) throws -> Void) rethrows {
        if mapping != nil {
            try body(Self.flatChunkID, Array(self)[...])
        } else if isChunked {
            for k in chunks.indices { try body(chunkIDs[k], chunks[k]) }
        } else if !flat.isEmpty {
            try body(Self.flatChunkID, flat[...])
        }
    }

    /// The id of the chunk holding `row`.
    /// - Complexity: O(1)
    func chunkID(at row: Int) -> Int {
        isChunked ? chunkIDs[chunk(containing: row)] : Self.flatChunkID
    }

    /// Splits a flat list longer than `maxChunk` into chunks; no-op
    /// otherwise. Call it before indexing the list (`EditIndex`): chunk ids
    /// change.
    /// - Complexity: O(count / targetChunk)
    public mutating func chunkify() {
        materialize()
        guard !isChunked, flat.count > Self.maxChunk else { return }
        var ignored: [Placement]? = nil
        let items = flat
        flat = []
        chunks = [items[...]]
        chunked = true
        chunkIDs = [Self.flatChunkID]
        starts = [0, items.count]
        split(0, report: &ignored)
        rebuildStarts()
    }

    // MARK: structure upkeep

    mutating func rebuildStarts() {
        starts.removeAll(keepingCapacity: true)
        starts.reserveCapacity(chunks.count + 1)
        var total = 0
        for chunk in chunks {
            starts.append(total)
            total += chunk.count
        }
        starts.append(total)
        blocks.removeAll(keepingCapacity: true)
        blocks.reserveCapacity((total >> Self.blockShift) + 1)
        var k = 0
        for b in 0..<((total + (1 << Self.blockShift) - 1) >> Self.blockShift) {
            let row = b << Self.blockShift
            while starts[k + 1] <= row { k += 1 }
            blocks.append(Int32(truncatingIfNeeded: k))
        }
    }

    /// Gives chunk `k` a buffer of its own when it is a slice of a shared
    /// one (see `borrowedChunks`), so that writing it frees what it
    /// replaces.
    /// - Complexity: O(1), or O(chunk) the first time a borrowed chunk is
    ///   written (what copy-on-write would copy anyway while the buffer
    ///   is still shared).
    @inlinable @inline(__always)
    mutating func ownChunk(_ k: Int) {
        if !borrowedChunks.isEmpty { ownBorrowedChunk(k) }
    }

    @usableFromInline @inline(never)
    mutating func ownBorrowedChunk(_ k: Int) {
        guard borrowedChunks.remove(chunkIDs[k]) != nil else { return }
        chunks[k] = ArraySlice(Array(chunks[k]))
    }

    private mutating func newChunkID() -> Int {
        defer { nextChunkID += 1 }
        return nextChunkID
    }

    private static func report(_ items: ArraySlice<Item>, chunk: Int, into placements: inout [Placement]?) {
        guard placements != nil else { return }
        for item in items { placements?.append((item.itemID, chunk)) }
    }

    /// Splits chunk `k` into pieces of about `targetChunk` when it exceeds
    /// `maxChunk`; the first piece keeps the id. Returns the pieces' count.
    /// - Complexity: O(pieces), plus O(chunk) when reporting.
    @discardableResult
    private mutating func split(_ k: Int, report placements: inout [Placement]?) -> Int {
        let chunk = chunks[k]
        guard chunk.count > Self.maxChunk else { return 1 }
        let pieces = (chunk.count + Self.targetChunk - 1) / Self.targetChunk
        var newChunks: [ArraySlice<Item>] = []
        var newIDs: [Int] = []
        newChunks.reserveCapacity(pieces - 1)
        newIDs.reserveCapacity(pieces - 1)
        var cut = chunk.startIndex + chunk.count / pieces
        let head = chunk[chunk.startIndex..<cut]
        for p in 1..<pieces {
            let end = chunk.startIndex + chunk.count * (p + 1) / pieces
            let piece = chunk[cut..<end]
            let id = newChunkID()
            Self.report(piece, chunk: id, into: &placements)
            newChunks.append(piece)
            newIDs.append(id)
            cut = end
        }
        chunks[k] = head
        chunks.insert(contentsOf: newChunks, at: k + 1)
        chunkIDs.insert(contentsOf: newIDs, at: k + 1)
        borrowedChunks.insert(chunkIDs[k])
        borrowedChunks.formUnion(newIDs)
        return pieces
    }

    /// Restores the size bounds around chunks `k..<k + n` after they
    /// changed, then `starts`.
    /// - Complexity: O(chunks + touched chunks' items).
    mutating func normalize(_ k: Int, _ n: Int = 1, report placements: inout [Placement]?) {
        var k = k, end = k + n
        while k < end && k < chunks.count {
            if chunks[k].isEmpty {
                chunks.remove(at: k)
                borrowedChunks.remove(chunkIDs.remove(at: k))
                end -= 1
                continue
            }
            let pieces = split(k, report: &placements)
            if pieces > 1 {
                end += pieces - 1
                k += pieces
                continue
            }
            if chunks[k].count < Self.minChunk && chunks.count > 1 {
                // Merge with the smaller neighbour, into the larger of the two.
                let left = k > 0 ? chunks[k - 1].count : Int.max
                let right = k + 1 < chunks.count ? chunks[k + 1].count : Int.max
                let a = left <= right ? k - 1 : k
                let b = a + 1
                if chunks[a].count >= chunks[b].count {
                    Self.report(chunks[b], chunk: chunkIDs[a], into: &placements)
                    ownChunk(a)
                    chunks[a].append(contentsOf: chunks[b])
                    chunks.remove(at: b)
                    borrowedChunks.remove(chunkIDs.remove(at: b))
                } else {
                    Self.report(chunks[a], chunk: chunkIDs[b], into: &placements)
                    ownChunk(b)
                    chunks[b].insert(contentsOf: chunks[a], at: chunks[b].startIndex)
                    chunks.remove(at: a)
                    borrowedChunks.remove(chunkIDs.remove(at: a))
                }
                if b < end { end -= 1 }
                k = a
                let merged = split(k, report: &placements)
                k += merged
                continue
            }
            k += 1
        }
        if chunks.isEmpty {
            chunked = false
            // Back to the (empty) flat form.
            flat = []
            chunkIDs = []
            borrowedChunks = []
            starts = []
            blocks = []
        } else {
            rebuildStarts()
        }
    }
}
