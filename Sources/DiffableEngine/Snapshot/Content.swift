/// The content of an item or the header of a section, as opaque canonical bytes.
///
/// The engine never interprets content: it compares it (to detect reloads) and
/// hands it back. The protocol layer decides what the bytes are (compact JSON)
/// and guarantees that equal values produce equal bytes.
public struct Content: Hashable, Sendable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Equal bytes. Two contents holding one buffer (an item the daemon
    /// reused from the previous snapshot) are equal without a read of that
    /// buffer: the diff's walk compares a million such pairs, and loading
    /// each buffer's count first (as `Array ==` does) cost a cache miss per
    /// row, most of the walk on path-like ids.
    /// - Complexity: O(1) for one buffer, else O(bytes).
    @inlinable
    public static func == (a: Content, b: Content) -> Bool {
        a.bytes.storageIdentity == b.bytes.storageIdentity || a.bytes == b.bytes
    }
}

extension Array where Element == UInt8 {
    /// The array's buffer reference as a number, for an identity test that
    /// does not read the buffer (an `Array` value is one reference; two
    /// arrays holding one buffer hold the same elements).
    @inlinable
    var storageIdentity: UInt { unsafeBitCast(self, to: UInt.self) }
}
