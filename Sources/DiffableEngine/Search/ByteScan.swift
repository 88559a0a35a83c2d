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

    /// The length of the longest common prefix of `a[0..<limit]` and
    /// `b[0..<limit]`, eight bytes at a time (unaligned, never past `limit`).
    /// - Complexity: O(the result)
    @inline(__always)
    static func sharedPrefix(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ limit: Int) -> Int {
        let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
        var j = 0
        while j &+ 8 <= limit {
            let difference = UInt64(littleEndian: x.loadUnaligned(fromByteOffset: j, as: UInt64.self)
                ^ y.loadUnaligned(fromByteOffset: j, as: UInt64.self))
            // Lowest set bit: the first differing byte (little-endian).
            if difference != 0 { return j &+ (difference.trailingZeroBitCount >> 3) }
            j &+= 8
        }
        while j < limit && a[j] == b[j] { j &+= 1 }
        return j
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

/// The texts of a range of a `TextTable` whose matched bytes (folded, or
/// original for a case-sensitive query) contain `byte`, ascending: a scan
/// from scratch visits only texts that contain the needle's first byte,
/// which every match does. The search for the byte runs across text
/// boundaries, so a text without it costs a step over its offset, not a
/// call into the matcher.
/// - Complexity: O(bytes of the range + texts of the range) in total.
struct TextsContainingByte: Sequence, IteratorProtocol {
    private let base: UnsafePointer<UInt8>?
    private let offsets: UnsafeBufferPointer<Int>
    private let byte: UInt8
    private let everyText: Bool
    private var position: Int
    private let end: Int

    init(_ table: TextTable, _ texts: Range<Int>, byte: UInt8, original: Bool) {
        base = original ? table.bytes.baseAddress : table.folded.baseAddress
        offsets = original ? table.offsets : table.foldedOffsets
        self.byte = byte
        everyText = false
        position = texts.lowerBound
        end = texts.upperBound
    }

    /// Every text of `texts` (an empty needle filters nothing).
    init(everyTextIn texts: Range<Int>) {
        base = nil
        offsets = UnsafeBufferPointer(start: nil, count: 0)
        byte = 0
        everyText = true
        position = texts.lowerBound
        end = texts.upperBound
    }

    /// Exact when every text is visited; else nothing is promised.
    var underestimatedCount: Int { everyText ? end - position : 0 }

    mutating func next() -> Int? {
        guard position < end else { return nil }
        if everyText {
            defer { position &+= 1 }
            return position
        }
        guard let base else { return nil }
        let limit = offsets[end]
        let p = ByteScan.find(byte, base, from: offsets[position], end: limit)
        if p >= limit {
            position = end
            return nil
        }
        // The text holding byte `p` (empty texts end where they start).
        while offsets[position &+ 1] <= p { position &+= 1 }
        defer { position &+= 1 }
        return position
    }
}
