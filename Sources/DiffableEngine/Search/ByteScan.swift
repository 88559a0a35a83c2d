/// Word-at-a-time byte search for the matchers' hot loops (public for the
/// protocol layer's framing, which searches request bytes the same way).
public enum ByteScan {
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Position of the first `byte` in `base[from..<end]`, or `end`.
    /// Reads 8 bytes at a time (unaligned, never past `end`).
    /// - Complexity: O(end − from)
    @inlinable @inline(__always)
    public static func find(_ byte: UInt8, _ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int {
        var j = from
        let pattern = ones &* UInt64(byte)
        let raw = UnsafeRawPointer(base)
        while j &+ 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: j, as: UInt64.self)) ^ pattern
            // Lowest set high bit marks the first zero byte (little-endian).
            let zero = (word &- ones) & ~word & highs
            if zero != 0 { return j &+ (zero.trailingZeroBitCount >> 3) }
            j &+= 8
        }
        while j < end {
            if base[j] == byte { return j }
            j &+= 1
        }
        return end
    }

    /// Greedy subsequence test: position of the first matched byte, or `nil`.
    /// - Complexity: O(text.count)
    @inline(__always)
    static func subsequence(_ query: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        let m = query.count, n = text.count
        guard m > 0 else { return 0 }
        guard n >= m, let q = query.baseAddress, let t = text.baseAddress else { return nil }
        let first = find(q[0], t, from: 0, end: n)
        var j = first
        var qi = 1
        while qi < m {
            if j >= n { return nil }
            j = find(q[qi], t, from: j &+ 1, end: n)
            qi &+= 1
        }
        return j < n ? first : nil
    }

    /// Greedy subsequence match of `query[from...]` in `text[start...]`:
    /// the position after the last matched byte, or `nil`. Greedy matching
    /// is incremental: the end for `q + r` is the end for `r` resumed at the
    /// end for `q`.
    /// - Complexity: O(text.count − start)
    @inline(__always)
    static func greedyEnd(_ query: UnsafeBufferPointer<UInt8>, from: Int, in text: UnsafeBufferPointer<UInt8>,
                          start: Int) -> Int? {
        let m = query.count, n = text.count
        var qi = from
        var j = start
        if qi >= m { return j }
        guard n &- j >= m &- qi, let q = query.baseAddress, let t = text.baseAddress else { return nil }
        while qi < m {
            let p = find(q[qi], t, from: j, end: n)
            if p >= n { return nil }
            j = p &+ 1
            qi &+= 1
        }
        return j
    }
}
