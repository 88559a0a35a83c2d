import Foundation

/// The content of an item or the header of a section, as opaque canonical bytes.
///
/// The engine never interprets content: it compares it (to detect reloads) and
/// hands it back. The protocol layer decides what the bytes are (compact JSON)
/// and guarantees that equal values produce equal bytes.
///
/// A content is a view of bytes in a `ByteArena`: its own (`init(bytes:)`)
/// or one the `apply` decoder shares among many contents.
public struct Content: Hashable, Sendable {
    @usableFromInline let arena: ByteArena
    @usableFromInline let start: UInt32
    @usableFromInline let count: UInt32

    public init(bytes: [UInt8]) {
        arena = bytes.withUnsafeBytes { ByteArena.holding($0) }
        start = 0
        count = UInt32(truncatingIfNeeded: arena.used)
    }

    init(arena: ByteArena, start: UInt32, count: UInt32) {
        self.arena = arena
        self.start = start
        self.count = count
    }

    /// A copy of the bytes.
    /// - Complexity: O(bytes)
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Whether both are views of the same bytes in memory (not just equal
    /// bytes): what the diff and the decoder's reuse rely on.
    public func sharesStorage(with other: Content) -> Bool {
        arena === other.arena && start == other.start && count == other.count
    }

    /// Number of bytes.
    public var byteCount: Int { Int(count) }

    /// Calls `body` with the bytes (valid only during the call).
    @inlinable @inline(__always)
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try arena.withBytes(Int(start), Int(count), body)
    }

    @inline(__always)
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try arena.withBytes(Int(start), Int(count), body)
    }

    /// Equal bytes. Two views of the same bytes (an item the daemon reused
    /// from the previous snapshot) are equal without a read of them: the
    /// diff's walk compares a million such pairs, and reading each one's
    /// bytes cost a cache miss per row, most of the walk on path-like ids.
    /// - Complexity: O(1) for the same bytes, else O(bytes).
    public static func == (a: Content, b: Content) -> Bool {
        if a.sharesStorage(with: b) { return true }
        guard a.count == b.count else { return false }
        return a.withBytes { x in
            b.withBytes { y in
                guard let p = x.baseAddress, let q = y.baseAddress else { return true }
                return memcmp(p, q, x.count) == 0
            }
        }
    }

    public func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: $0) }
    }
}
