import Synchronization

/// One allocation holding the bytes of many items: ids, contents and
/// search texts (see the Snapshot guide, `README.md`).
///
/// A million items, each with its own id `String` and content `[UInt8]`,
/// paid two object headers and two malloc chunks' rounding per item: a
/// UUID and a 37-byte content cost 160 bytes of heap. The `apply` decoder
/// instead writes the items it reads one after the other into arenas of
/// `chunkSize` bytes (`ByteArena.Builder.item`); an `Item` and a `Content`
/// are views of their bytes (the arena, an offset, lengths). An item made
/// alone (`Item(id:content:text:)`, the tree path, `edit`) or a content
/// made alone (`Content(bytes:)`) gets an arena of its own.
///
/// An arena lives while any item refers to it, so an item kept from an
/// earlier `apply` keeps that apply's whole arena alive. `live` records how
/// many of its bytes the newest snapshot decoded from it still uses; the
/// decoder copies a kept item out of an arena less than half used
/// (`isSparse`, `Writer.keep`), so what a source holds stays within about
/// twice its items' bytes.
///
/// Bytes are written only while the arena is private to one builder, before
/// any item of it is handed out; after that they are only read, from any
/// thread. `live` is a hint written by the decoder's thread between
/// requests (no reader relies on it for correctness).
public struct ByteArena: @unchecked Sendable {
    /// The allocation: a header and the bytes after it.
    @usableFromInline final class Storage: ManagedBuffer<Header, UInt8> {
        deinit {
            let header = header
            if header.isShared { ByteArena.sharedBytesFreed.add(header.capacity, ordering: .relaxed) }
        }
    }

    /// Capacity of every shared arena freed so far (see `freedSharedBytes`).
    private static let sharedBytesFreed = Atomic<Int>(0)

    /// Bytes of shared arenas (a builder's, holding many items) freed since
    /// the process started, on any thread. An arena goes when its last item
    /// does, often in the middle of an edit that rewrote that item; the
    /// allocator keeps such memory until it is asked to give it back, so a
    /// daemon reads this to know when that is worth asking.
    public static var freedSharedBytes: Int { sharedBytesFreed.load(ordering: .relaxed) }
    @usableFromInline let storage: Storage

    public struct Header {
        /// Bytes written, from the start, and room for them (kept here:
        /// `ManagedBuffer.capacity` asks the allocator each time).
        var used: Int
        var capacity: Int
        /// Bytes the newest decoded snapshot was counted to use (an
        /// estimate: edits since then are not counted); `uncounted` until
        /// a count is recorded, so a new arena is never sparse.
        var live: Int
        /// Whether a builder made it for many contents (else it holds one
        /// content and, maybe, its text: never counted, never sparse).
        var isShared: Bool
    }

    /// Size of the arenas a builder fills: large enough that per-arena
    /// overhead is nothing, small enough that one kept item keeps little.
    public static let chunkSize = 1 << 20

    /// An empty arena with room for at least `capacity` bytes.
    static func make(capacity: Int, shared: Bool = false) -> ByteArena {
        let buffer = Storage.create(minimumCapacity: Swift.max(1, capacity)) {
            Header(used: 0, capacity: $0.capacity, live: uncounted, isShared: shared)
        }
        return ByteArena(storage: unsafeDowncast(buffer, to: Storage.self))
    }

    static let uncounted = Int.max / 4

    /// Whether two values are the same arena.
    @inline(__always)
    static func === (a: ByteArena, b: ByteArena) -> Bool { a.storage === b.storage }

    /// Through the header's pointer: `storage.header`, a class's stored
    /// property, would be checked for exclusive access at run time on every
    /// write of an item (the rule above keeps writes exclusive).
    private var header: Header {
        get { storage.withUnsafeMutablePointerToHeader { $0.pointee } }
        nonmutating set { storage.withUnsafeMutablePointerToHeader { $0.pointee = newValue } }
    }

    private var capacity: Int { header.capacity }

    /// An arena holding exactly `bytes`.
    static func holding(_ bytes: UnsafeRawBufferPointer) -> ByteArena {
        let arena = make(capacity: bytes.count)
        arena.append(bytes)
        return arena
    }

    /// Whether a builder made it (see `Header.isShared`).
    var isShared: Bool { header.isShared }

    /// Bytes written so far.
    var used: Int { header.used }

    /// Whether the newest snapshot counted uses less than half of this
    /// arena's bytes (its kept items are then worth copying out).
    public var isSparse: Bool { header.live * 2 < header.used }

    /// Records how many bytes the newest decoded snapshot uses.
    public func setLive(_ bytes: Int) { header.live = bytes }

    /// Room left.
    var free: Int { capacity - header.used }

    /// Appends bytes (the caller checked `free`) and returns their offset.
    @discardableResult
    func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        storage.withUnsafeMutablePointers { header, elements in
            let offset = header.pointee.used
            if let source = bytes.baseAddress, bytes.count > 0 {
                (elements + offset).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            }
            header.pointee.used = offset + bytes.count
            return offset
        }
    }

    /// The bytes `offset ..< offset + count` (which were written).
    @inlinable @inline(__always)
    func withBytes<R>(_ offset: Int, _ count: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeMutablePointerToElements { try body(UnsafeRawBufferPointer(start: $0 + offset, count: count)) }
    }
}

extension ByteArena {
    /// Writes contents one after the other into arenas of `chunkSize`
    /// bytes (a larger content gets an arena of its own size).
    public struct Builder {
        private var current: ByteArena?
        /// The size of the arenas it makes.
        private let chunkSize: Int

        public init() { chunkSize = ByteArena.chunkSize }

        /// A builder whose arenas are `chunkSize` bytes (at least 1): one
        /// request's items, whose total size is known, fit in one arena of
        /// exactly their size.
        public init(chunkSize: Int) { self.chunkSize = Swift.max(chunkSize, 1) }

        /// An arena with `count` bytes free: the current one, or a new one
        /// (`chunkSize`, or `count` when larger). Nil past 4 GB.
        private mutating func room(_ count: Int) -> ByteArena? {
            guard count < Int(UInt32.max) else { return nil }
            if let arena = current, arena.free >= count { return arena }
            let arena = ByteArena.make(capacity: Swift.max(chunkSize, count), shared: true)
            current = arena
            return arena
        }

        /// Writes `bytes` and answers where they are.
        /// - Complexity: O(bytes), amortized.
        mutating func write(_ bytes: UnsafeRawBufferPointer) -> (ByteArena, UInt32) {
            guard let arena = room(bytes.count) else {
                return (ByteArena.holding(bytes), 0)
            }
            return (arena, UInt32(truncatingIfNeeded: arena.append(bytes)))
        }

        /// A content holding a copy of `bytes`.
        /// - Complexity: O(bytes), amortized.
        public mutating func content(_ bytes: UnsafeBufferPointer<UInt8>) -> Content {
            let (arena, start) = write(UnsafeRawBufferPointer(bytes))
            return Content(arena: arena, start: start, count: UInt32(truncatingIfNeeded: bytes.count))
        }

        /// An item with id `id` and, when given, content `content` whose
        /// search text is its bytes `textRange` (ignored when outside it):
        /// both copied here, one after the other.
        /// - Complexity: O(bytes of the id and content), amortized.
        public mutating func item(id: UnsafeRawBufferPointer, content: UnsafeRawBufferPointer?,
                                  textRange: Range<Int>? = nil) -> Item {
            let text = content.flatMap { Item.TextPlacement.inContent(textRange, count: $0.count) }
            guard let arena = room(id.count + (content?.count ?? 0)) else {
                return Item.make(id: String(decoding: id, as: UTF8.self),
                                 content: content.map { Content(bytes: Array($0)) }, text: text)
            }
            let base = arena.append(id)
            if let content { arena.append(content) }
            var (textStart, textEnd) = (Item.noText, Item.noText)
            if case .inContent(let start, let end)? = text { (textStart, textEnd) = (start, end) }
            return Item(storage: arena, base: UInt32(truncatingIfNeeded: base), idCount: UInt32(truncatingIfNeeded: id.count),
                        contentCount: content.map { UInt32(truncatingIfNeeded: $0.count) } ?? Item.noContent,
                        textStart: textStart, textEnd: textEnd, idHash: Item.hash(id))
        }
    }
}

/// Counts, while a snapshot is decoded, how many bytes of each arena its
/// contents use (see `ByteArena.isSparse`). Consecutive items mostly share
/// an arena, so counting costs a pointer compare per item.
public struct ArenaUse {
    /// The arena of the run of items being counted (its address, read
    /// without a retain, and the arena, taken once per run).
    @usableFromInline var lastAddress: UInt = 0
    @usableFromInline var last: ByteArena?
    @usableFromInline var lastBytes = 0
    /// Whether `last` is sparse (read once per run).
    @usableFromInline var lastIsSparse = false
    /// Shared arenas seen, with the bytes counted for each, by address.
    private var counted: [UInt: (arena: ByteArena, bytes: Int)] = [:]

    public init() {}

    /// Counts the bytes `item` uses; answers whether its arena is sparse.
    /// - Complexity: O(1); O(arenas seen) when the arena differs from the
    ///   previous item's.
    @inlinable @inline(__always)
    @discardableResult
    public mutating func add(_ item: Item) -> Bool {
        let address = item.arenaAddress
        if address != lastAddress { startRun(item, address) }
        lastBytes += item.arenaBytes
        return lastIsSparse
    }

    @usableFromInline @inline(never)
    mutating func startRun(_ item: Item, _ address: UInt) {
        flush()
        lastAddress = address
        // An arena of one item's own is not counted (it goes with the item).
        last = item.arena.flatMap { $0.isShared ? $0 : nil }
        lastIsSparse = last?.isSparse ?? false
    }

    /// Takes back the count of `item`, the last one added.
    mutating func remove(_ item: Item) {
        lastBytes -= item.arenaBytes
    }

    private mutating func flush() {
        if let arena = last {
            counted[lastAddress, default: (arena, 0)].bytes += lastBytes
        }
        last = nil
        lastAddress = 0
        lastBytes = 0
    }

    /// Adds another count (of a part decoded on another thread).
    public mutating func merge(_ other: ArenaUse) {
        var other = other
        other.flush()
        flush()
        for (address, (arena, bytes)) in other.counted { counted[address, default: (arena, 0)].bytes += bytes }
    }

    /// Records the counts in the arenas (the snapshot counted became the
    /// source's). Arenas the snapshot does not use are not touched: they
    /// are freed with the snapshot that held them.
    public func record() {
        var use = self
        use.flush()
        for (arena, bytes) in use.counted.values { arena.setLive(bytes) }
    }
}

extension ByteArena {
    /// What a decoder holds while it reads a snapshot's items: the builder
    /// its new contents go into, and the count of the bytes every item it
    /// keeps uses (see `ArenaUse`).
    public struct Writer {
        @usableFromInline var builder = Builder()
        @usableFromInline var counts = ArenaUse()
        /// What the items kept so far use of each arena.
        public var use: ArenaUse { counts }

        public init() {}

        /// A writer whose arenas are `chunkSize` bytes (see `Builder.init(chunkSize:)`).
        public init(chunkSize: Int) { builder = Builder(chunkSize: chunkSize) }

        /// A new item written into the builder's arena (see `Builder.item`).
        @inline(__always)
        public mutating func item(id: UnsafeRawBufferPointer, content: UnsafeRawBufferPointer?,
                                  textRange: Range<Int>? = nil) -> Item {
            builder.item(id: id, content: content, textRange: textRange)
        }

        /// `item`, as the new snapshot keeps it: counted, and copied here
        /// when it is an item of the previous snapshot whose arena is
        /// sparse (so that arena can go).
        /// - Complexity: O(1), or O(bytes of the content) when copied.
        @inlinable @inline(__always)
        public mutating func keep(_ item: Item) -> Item {
            guard counts.add(item) else { return item }
            return copyOut(item)
        }

        /// `keep` of an item in a sparse arena, counted already.
        @usableFromInline @inline(never)
        mutating func copyOut(_ item: Item) -> Item {
            // Copied out: count it where it went instead.
            counts.remove(item)
            let copied = item.rebased(into: &builder)
            counts.add(copied)
            return copied
        }

        /// Adds the counts of another writer (a part read on another thread).
        public mutating func merge(_ other: Writer) {
            counts.merge(other.counts)
        }
    }
}
