/// Where a source's content edits made in place write the rows they change
/// (`DataSource.editContentsInPlace`), and how the bytes the source holds
/// stay within a bounded multiple of what its rows use.
///
/// A row given a new content in an arena of its own costs an allocation
/// with its header, and leaves its old bytes in the arena it came from,
/// which stays whole while any row still uses it: a ticker that rewrites
/// every row in time holds the contents about twice over, most of it as
/// dead bytes of the `apply` arenas. Here a changed row is written into a
/// shared arena (`ByteArena.Builder`, `arenaSize` bytes each), every arena
/// counts the bytes the source's rows use (`ByteArena.addLive`, from the
/// counts `apply` recorded), and an arena whose rows use under
/// `compactBelow` of it has its remaining rows copied out (`compact`), so
/// it is freed. Copying out a row changes where its bytes are, never what
/// they are.
///
/// The counts are hints, kept by the edits of one source: an arena another
/// snapshot shares (an older copy of the source) may be counted low, which
/// costs a copy, never a wrong row.
struct ContentArenas: Sendable {
    /// Bytes of each arena written into: some hundreds of rows, so one
    /// kept row keeps little, and a compaction copies little at a time.
    static let arenaSize = 256 << 10
    /// An arena is compacted when its rows use less than this fraction of
    /// it (so at most a quarter of an arena is dead bytes, and reclaiming
    /// a dead byte copies at most three live ones).
    static let compactBelow = (numerator: 3, denominator: 4)

    private var builder: ByteArena.Builder
    /// Arenas that lost rows in the current edit, by address, to check when
    /// it ends.
    private var losers: [UInt: ByteArena] = [:]
    /// Arenas found mostly dead, not yet compacted. An edit compacts them
    /// one at a time until it has copied `arenaSize` bytes plus three
    /// times what it wrote (which keeps up with the dead bytes edits
    /// leave), so the copies of one arena's rows are made before the next
    /// arena is freed, never all at once, and the pause is bounded by the
    /// edit's own size.
    private var pending: [(address: UInt, arena: ByteArena)] = []
    /// Bytes written by the current edit; `size` of the arenas.
    private var written = 0
    private let size: Int
    /// The arena written into when the last edit ended: exempt from
    /// compaction while written into, checked once the builder moves on.
    private var lastWritten: ByteArena?

    /// `arenaSize`: bytes of each arena written into (tests make it small).
    init(arenaSize: Int = Self.arenaSize) {
        builder = ByteArena.Builder(counted: arenaSize)
        size = arenaSize
    }

    /// `old`'s row, with the new content and search text, written into the
    /// current arena; counted there, and uncounted from `old`'s arena.
    /// Nil (the caller makes an item of its own) past what an arena holds.
    /// - Complexity: O(bytes of the id, content and text), amortized.
    mutating func write(replacing old: Item, content: Content?, text: String?) -> Item? {
        var text = text
        let place: (ByteArena, UInt32)? = old.withIDBytes { id in
            guard text != nil else { return write(id, content, UnsafeRawBufferPointer(start: nil, count: 0)) }
            return text?.withUTF8 { write(id, content, UnsafeRawBufferPointer($0)) }
        }
        guard let (arena, base) = place else { return nil }
        let contentCount = content.map { UInt32(truncatingIfNeeded: $0.byteCount) } ?? Item.noContent
        var (textStart, textEnd) = (Item.noText, Item.noText)
        if let text {
            textStart = contentCount == Item.noContent ? 0 : contentCount
            textEnd = textStart &+ UInt32(truncatingIfNeeded: text.utf8.count)
        }
        let item = Item(storage: arena, base: base, idCount: UInt32(truncatingIfNeeded: old.idByteCount),
                        contentCount: contentCount, textStart: textStart, textEnd: textEnd, idHash: old.idHash)
        replaced(old, by: item)
        written += item.arenaBytes
        return item
    }

    private mutating func write(_ id: UnsafeRawBufferPointer, _ content: Content?,
                                _ text: UnsafeRawBufferPointer) -> (ByteArena, UInt32)? {
        guard let content else { return builder.write(id, UnsafeRawBufferPointer(start: nil, count: 0), text) }
        return content.withUnsafeBytes { builder.write(id, $0, text) }
    }

    /// Counts that the source's row `old` became `new` (bytes of `new`'s
    /// arena now used, `old`'s no longer).
    mutating func replaced(_ old: Item, by new: Item) {
        if let arena = new.arena, arena.isShared { arena.addLive(new.arenaBytes) }
        guard let arena = old.arena, arena.isShared, arena.isCounted else { return }
        arena.addLive(-old.arenaBytes)
        losers[old.arenaAddress] = arena
    }

    /// Notes the arenas that lost rows in this edit and are now mostly
    /// dead bytes (the arena being written into excepted), and copies the
    /// rows of `sections` out of noted ones (see `pending`), so each is
    /// freed with the last view of it (`index` keys the moved rows by
    /// their new bytes); forgets the arenas that lost rows.
    /// - Complexity: O(rows of the sections) per arena compacted (a check
    ///   of each row's arena), plus O(`arenaSize` + bytes the edit wrote)
    ///   copied; else O(arenas that lost rows). Amortized, at most three
    ///   bytes copied per dead byte reclaimed.
    mutating func compact(_ sections: inout [Section], index: inout EditIndex) {
        defer {
            losers.removeAll(keepingCapacity: true)
            lastWritten = builder.arena
            written = 0
        }
        let current = builder.arena.map { Item.address(of: $0) } ?? 0
        if let last = lastWritten, Item.address(of: last) != current { losers[Item.address(of: last)] = last }
        let (numerator, denominator) = Self.compactBelow
        for (address, arena) in losers where address != current && arena.isLive(under: numerator, denominator)
            && !pending.contains(where: { $0.address == address }) {
            pending.append((address, arena))
        }
        var copied = 0
        while copied < size + 3 * written, let (address, arena) = pending.first {
            pending.removeFirst()
            var moved: [Item] = []
            for s in sections.indices {
                sections[s].items.rebaseItems(in: [address]) { item in
                    guard let copy = item.copied(into: &builder) else { return nil }
                    arena.addLive(-item.arenaBytes)
                    copy.arena?.addLive(copy.arenaBytes)
                    copied += copy.arenaBytes
                    moved.append(copy)
                    return copy
                }
            }
            for item in moved { index.rekey(item) }
        }
    }
}

extension Item {
    /// The address of an arena, as `arenaAddress` reads it.
    static func address(of arena: ByteArena) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(arena.storage).toOpaque())
    }

    /// The same item with all its bytes (id, content, and a text kept
    /// after the content) copied into `builder`'s arena; nil past what an
    /// arena holds.
    /// - Complexity: O(bytes of the item)
    func copied(into builder: inout ByteArena.Builder) -> Item? {
        guard let storage else { return nil }
        let written = storage.withBytes(Int(base), arenaBytes) { bytes in
            builder.write(bytes, UnsafeRawBufferPointer(start: nil, count: 0), UnsafeRawBufferPointer(start: nil, count: 0))
        }
        guard let (arena, start) = written else { return nil }
        var item = self
        (item.storage, item.base) = (arena, start)
        return item
    }
}

extension ItemList {
    /// Replaces each item whose bytes are in one of `arenas` (by address,
    /// see `Item.arenaAddress`) by what `body` makes of it (nil: kept).
    /// Rows, chunks and their ids stay as they are.
    /// - Complexity: O(count) checks, plus `body` for each item replaced.
    mutating func rebaseItems(in arenas: Set<UInt>, _ body: (Item) -> Item?) {
        materialize()
        if isChunked {
            for k in chunks.indices where Self.holdsAny(chunks[k], arenas) {
                chunks[k].withUnsafeMutableBufferPointer { Self.rebase($0, arenas, body) }
            }
        } else if Self.holdsAny(flat[...], arenas) {
            flat.withUnsafeMutableBufferPointer { Self.rebase($0, arenas, body) }
        }
    }

    /// Whether an item of `items` has its bytes in one of `arenas` (read
    /// first, so a chunk with none is neither written nor copied).
    private static func holdsAny(_ items: ArraySlice<Item>, _ arenas: Set<UInt>) -> Bool {
        items.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            return buffer.indices.contains { arenas.contains(Item.storageBits(base + $0)) }
        }
    }

    private static func rebase(_ items: UnsafeMutableBufferPointer<Item>, _ arenas: Set<UInt>, _ body: (Item) -> Item?) {
        guard let base = items.baseAddress else { return }
        for i in items.indices where arenas.contains(Item.storageBits(UnsafePointer(base + i))) {
            if let new = body(items[i]) { items[i] = new }
        }
    }
}
