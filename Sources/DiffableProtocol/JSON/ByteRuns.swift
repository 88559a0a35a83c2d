#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// Word-at-a-time searches over request bytes (SWAR: eight bytes per step
/// in one `UInt64`), for the loops that read every byte of a large request:
/// string bodies in the validator and the apply scanner; and the newline
/// that ends an NDJSON message (through `memchr`).
///
/// Each search only *skips* whole words that certainly hold no byte of
/// interest; the first candidate word is finished byte by byte, so the
/// answer is exactly what the plain byte loop gives.
package enum ByteRuns {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// High bit set in each byte of `x` that is zero (and possibly in bytes
    /// above the lowest zero byte: callers only test for "any").
    @inline(__always) private static func zeroBytes(_ x: UInt64) -> UInt64 {
        (x &- ones) & ~x & highs
    }

    @inline(__always) private static func load(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p.baseAddress.unsafelyUnwrapped + i).loadUnaligned(as: UInt64.self))
    }

    /// The first index in `from ..< end` of a byte that ends a plain string
    /// run: `"`, `\`, a control byte (< 0x20) or a non-ASCII byte (≥ 0x80);
    /// `end` when there is none.
    /// - Precondition: `0 <= from`, `end <= bytes.count`.
    /// - Complexity: O(end - from), about one step per eight bytes.
    @inline(__always)
    package static func plainStringRunEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int {
        runEnd(bytes, from: from, end: end, stopsAtNonASCII: true)
    }

    /// The first index in `from ..< end` of a byte JSON text must escape:
    /// `"`, `\` or a control byte (< 0x20); `end` when there is none. What
    /// the writer copies as it is runs up to here (UTF-8 included).
    /// - Precondition: `0 <= from`, `end <= bytes.count`.
    /// - Complexity: O(end - from), about one step per eight bytes.
    @inline(__always)
    package static func escapeFreeRunEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int {
        runEnd(bytes, from: from, end: end, stopsAtNonASCII: false)
    }

    /// The first `"`, `\` or control byte (and, with `stopsAtNonASCII`,
    /// byte ≥ 0x80) in `from ..< end`, else `end`.
    @inline(__always)
    private static func runEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int, stopsAtNonASCII: Bool) -> Int {
        var i = from
        while i + 8 <= end {
            let w = load(bytes, i)
            // `w - 0x20…` borrows into the high bit exactly for bytes < 0x20
            // (and, like zeroBytes, maybe above one); `w & highs` is ≥ 0x80.
            // A byte ≥ 0x80 neither borrows nor keeps its high bit in `~w`.
            var special = zeroBytes(w ^ (ones &* 0x22)) | zeroBytes(w ^ (ones &* 0x5C))
                | ((w &- ones &* 0x20) & ~w & highs)
            if stopsAtNonASCII { special |= w & highs }
            // Each test can only misfire above a byte it rightly marks, so
            // the lowest mark is the first special byte (little-endian):
            // most strings (keys, ids, short texts) end here, without the
            // byte loop.
            if special != 0 { return i + special.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < end {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 || (stopsAtNonASCII && b >= 0x80) { return i }
            i += 1
        }
        return end
    }

    /// Whether `bytes[offset ..< end]` starts with `literal` (the
    /// validator's and the apply scanner's fixed spellings).
    /// - Complexity: O(literal length), one `memcmp` (the validator's hot
    ///   path: the C library compares a word or vector at a time, not a
    ///   byte).
    @inline(__always)
    package static func hasLiteral(_ literal: StaticString, in bytes: UnsafeBufferPointer<UInt8>, at offset: Int, end: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard offset >= 0, count <= end - offset, end <= bytes.count, let base = bytes.baseAddress else { return false }
        return memcmp(base + offset, literal.utf8Start, count) == 0
    }

    /// Whether `bytes[offset ..< offset + other.count]` equals `other`.
    /// - Complexity: O(other.count), one `memcmp`.
    @inline(__always)
    package static func hasBytes(_ other: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard offset >= 0, other.count <= bytes.count - offset else { return false }
        guard let base = bytes.baseAddress, let source = other.baseAddress else { return other.isEmpty }
        return memcmp(base + offset, source, other.count) == 0
    }

    /// The first index in `from ..< end` of `target`, or nil: the C
    /// library's `memchr`, which reads a vector register per step rather
    /// than the eight bytes of the engine's `ByteScan.find` (the framer
    /// runs it over every byte of an NDJSON message as it arrives).
    /// - Precondition: `end <= bytes.count`.
    /// - Complexity: O(end - from).
    package static func firstIndex(of target: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int? {
        let start = max(0, from)
        guard start < end, let base = bytes.baseAddress,
              let found = memchr(base + start, Int32(target), end - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
