import Foundation

/// One row of a source: a unique identifier and optional content.
///
/// An item's bytes live in a `ByteArena`, one after the other: the id's
/// UTF-8, then the content, then the search text when it is not a run of
/// the content. The `apply` decoder writes the items it reads into shared
/// arenas (`ByteArena.Builder.item`), so a million items cost their bytes
/// and 32 bytes each, not a `String` and an array per item (an 80-byte
/// malloc chunk each for a UUID id and a 40-byte content). An item made
/// with `init` gets an arena of its own.
///
/// Hot paths read the id's bytes (`withIDBytes`, `sameID`, `itemID`);
/// `id` makes a `String` (an allocation for an id longer than 15 bytes).
public struct Item: Equatable, Sendable {
    /// Where the bytes are: `idCount` bytes of id at `base` of `storage`,
    /// then `contentCount` bytes of content (`noContent`: none), and the
    /// text at `textStart ..< textEnd` from the content's start (`noText`:
    /// none). No storage: an empty id, no content, no text.
    @usableFromInline var storage: ByteArena?
    @usableFromInline var base: UInt32
    @usableFromInline var idCount: UInt32
    @usableFromInline var contentCount: UInt32
    @usableFromInline var textStart: UInt32
    @usableFromInline var textEnd: UInt32

    @usableFromInline static let noContent = UInt32.max
    @usableFromInline static let noText = UInt32.max

    /// The engine's hash of the id, computed once when the item is made. A
    /// diff matches ids by this first, so most mismatches never read the
    /// ids' bytes.
    private(set) var idHash: UInt32

    /// `idHash` of the id spelled by `bytes`: 32 bits of `IDHashTable.hash`
    /// (seeded per process).
    @inline(__always) static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(truncatingIfNeeded: IDHashTable.hash(bytes))
    }

    @inline(__always) static func hash(_ id: String) -> UInt32 {
        UInt32(truncatingIfNeeded: IDHashTable.hash(id))
    }

    @inline(__always) static func hash(_ id: ItemID) -> UInt32 {
        UInt32(truncatingIfNeeded: IDHashTable.hash(id))
    }

    init(storage: ByteArena?, base: UInt32, idCount: UInt32, contentCount: UInt32,
         textStart: UInt32, textEnd: UInt32, idHash: UInt32) {
        (self.storage, self.base, self.idCount, self.contentCount) = (storage, base, idCount, contentCount)
        (self.textStart, self.textEnd, self.idHash) = (textStart, textEnd, idHash)
    }

    public init(id: String, content: Content? = nil, text: String? = nil) {
        self = Item.make(id: id, content: content, text: text.map { .outside($0) })
    }

    /// An item whose search text is the UTF-8 bytes `textRange` of its
    /// content (which must be valid UTF-8 there); saves a copy of the text.
    /// A range outside the content means no text.
    public init(id: String, content: Content, textRange: Range<Int>) {
        self = Item.make(id: id, content: content, text: .inContent(textRange, count: content.byteCount))
    }

    // MARK: Reading

    /// Unique within the whole source (not just its section).
    /// - Complexity: O(length of the id) (a copy of its bytes).
    public var id: String {
        get { withIDBytes { String(decoding: $0, as: UTF8.self) } }
        set { self = Item.make(id: newValue, content: content, text: textPlacement) }
    }

    /// The id as a hashable view of the item's bytes (no copy).
    public var itemID: ItemID { ItemID(arena: storage, start: base, count: idCount) }

    /// Calls `body` with the id's UTF-8 bytes (valid only during the call).
    @inlinable @inline(__always)
    public func withIDBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard let storage else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try storage.withBytes(Int(base), Int(idCount), body)
    }

    /// Bytes of the id (UTF-8) and of the content (0 without).
    public var idByteCount: Int { Int(idCount) }
    public var contentByteCount: Int { contentCount == Self.noContent ? 0 : Int(contentCount) }

    /// Whether the id is `id`.
    /// - Complexity: O(length of the id)
    public func hasID(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { other in withIDBytes { Self.equalBytes($0, UnsafeRawBufferPointer(other)) } }
    }

    /// Whether the id is spelled by `bytes` (UTF-8).
    @inline(__always)
    func hasID(bytes: UnsafeRawBufferPointer) -> Bool {
        idCount == bytes.count && withIDBytes { Self.equalBytes($0, bytes) }
    }

    public var content: Content? {
        get {
            guard let storage, contentCount != Self.noContent else { return nil }
            return Content(arena: storage, start: base &+ idCount, count: contentCount)
        }
        set { self = Item.make(id: id, content: newValue, text: textPlacement) }
    }

    /// The text search matches on, derived from the content by the protocol
    /// layer when the item arrives (`nil` means the item never matches a
    /// non-empty query).
    /// - Complexity: O(length of the text)
    public var text: String? {
        get { withTextBytes { String(decoding: $0, as: UTF8.self) } }
        set { self = Item.make(id: id, content: content, text: newValue.map { .outside($0) }) }
    }

    /// Calls `body` with the UTF-8 bytes of the search text, or answers nil
    /// when the item has none.
    public func withTextBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        guard let storage, textStart != Self.noText else { return nil }
        return try storage.withBytes(Int(base) + Int(idCount) + Int(textStart), Int(textEnd - textStart), body)
    }

    // MARK: Comparing

    /// Whether two stored items have the same id: their hashes first, then
    /// the same bytes in memory (an item kept from the previous snapshot),
    /// then the bytes.
    /// - Complexity: O(length of the id)
    @inline(__always)
    static func sameID(_ a: UnsafePointer<Item>, _ b: UnsafePointer<Item>) -> Bool {
        guard a.pointee.idHash == b.pointee.idHash, a.pointee.idCount == b.pointee.idCount else { return false }
        if a.pointee.base == b.pointee.base, storageBits(a) == storageBits(b) { return true }
        return a.pointee.withIDBytes { x in b.pointee.withIDBytes { y in equalBytes(x, y) } }
    }

    /// Whether two stored items have equal content (both none, or equal
    /// bytes), read in place: views of the same bytes answer without a
    /// retain or a read of them.
    /// - Complexity: O(1) for the same bytes, else O(bytes).
    @inline(__always)
    static func sameContent(_ a: UnsafePointer<Item>, _ b: UnsafePointer<Item>) -> Bool {
        let (countA, countB) = (a.pointee.contentCount, b.pointee.contentCount)
        guard countA == countB else { return false }
        if countA == noContent { return true }
        if a.pointee.base &+ a.pointee.idCount == b.pointee.base &+ b.pointee.idCount,
           storageBits(a) == storageBits(b) { return true }
        return a.pointee.content == b.pointee.content
    }

    /// The address of a stored item's arena (0: none), read in place: an
    /// identity test without the retain and release that reading the
    /// reference itself costs in a loop.
    /// `storage` is the first stored property, at offset 0 (a test checks
    /// it; a computed offset would be a lazy global, checked at every read).
    @inlinable @inline(__always)
    static func storageBits(_ item: UnsafePointer<Item>) -> UInt {
        UnsafeRawPointer(item).load(as: UInt.self)
    }

    @inline(__always)
    static func equalBytes(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Bool {
        guard x.count == y.count else { return false }
        guard x.count > 0, let p = x.baseAddress, let q = y.baseAddress else { return true }
        return memcmp(p, q, x.count) == 0
    }

    /// Items are equal when id, content and search text are.
    public static func == (a: Item, b: Item) -> Bool {
        let sameIDAndContent = withUnsafePointer(to: a) { x in
            withUnsafePointer(to: b) { y in sameID(x, y) && sameContent(x, y) }
        }
        guard sameIDAndContent else { return false }
        switch (a.hasText, b.hasText) {
        case (false, false): return true
        case (true, true): return a.withTextBytes { x in b.withTextBytes { y in equalBytes(x, y) } ?? false } ?? false
        default: return false
        }
    }

    var hasText: Bool { storage != nil && textStart != Self.noText }
}
