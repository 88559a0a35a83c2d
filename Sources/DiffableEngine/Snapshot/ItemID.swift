/// An item's id as a view of its bytes: what the engine's indexes over
/// every item (`EditIndex`, outlines, flat positions) and the selection are
/// keyed by, so that indexing a million items copies no id (`Item.id` makes
/// a `String`). Equal and hashed by its UTF-8 bytes.
public struct ItemID: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let arena: ByteArena?
    @usableFromInline let start: UInt32
    @usableFromInline let count: UInt32

    init(arena: ByteArena?, start: UInt32, count: UInt32) {
        (self.arena, self.start, self.count) = (arena, start, count)
    }

    /// The id spelled by `string` (its bytes copied).
    public init(_ string: String) {
        let bytes = Array(string.utf8)
        self.init(arena: bytes.isEmpty ? nil : bytes.withUnsafeBytes { ByteArena.holding($0) }, start: 0,
                  count: UInt32(truncatingIfNeeded: bytes.count))
    }

    /// The same id in bytes of its own. A view (`Item.itemID`) keeps its
    /// item's whole arena alive (up to `ByteArena.chunkSize` bytes shared
    /// with other items); a key kept across snapshots should not.
    /// - Complexity: O(length)
    var owned: ItemID {
        withUnsafeBytes { bytes in
            ItemID(arena: bytes.isEmpty ? nil : ByteArena.holding(bytes), start: 0, count: count)
        }
    }

    /// Calls `body` with the id's UTF-8 bytes (valid only during the call).
    @inlinable @inline(__always)
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard let arena else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try arena.withBytes(Int(start), Int(count), body)
    }

    /// The id as a string.
    /// - Complexity: O(length)
    public var string: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    public var description: String { string }

    public static func == (a: ItemID, b: ItemID) -> Bool {
        guard a.count == b.count else { return false }
        if a.start == b.start, a.arena?.storage === b.arena?.storage { return true }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in Item.equalBytes(x, y) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
