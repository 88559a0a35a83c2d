/// Which bytes a text holds, in one `UInt64` per text: the first byte of a
/// scan from scratch found without reading the texts.
///
/// A keystroke from the unfiltered list visits the texts that hold its first
/// byte (`TextsContainingByte`). For a common letter (one that a large
/// share of the texts hold) that search stops in nearly every text, and
/// the step from a found byte to its text is most of the scan. The index keeps, per text,
/// the set of its folded bytes: each ASCII letter and digit has a bit of its
/// own (exact), every other byte shares one of the 28 remaining bits with a
/// few others). A scan from scratch whose first byte has a bit of its own
/// then reads 8 bytes per text, in order, and lists the texts holding it
/// in blocks without a branch per text (`forEachBlock`): a branch taken by
/// a third of the texts at random mispredicted at every other text.
///
/// Cost: 8 bytes per text; one table lookup per byte while the index is
/// built; spliced with the index.
enum BytePresence {
    /// The bit of folded byte `b`.
    static let bits: [UInt64] = (0..<256).map { UInt64(1) << UInt64(bucket(UInt8($0))) }

    /// a–z: 0–25, 0–9: 26–35, any other byte: 36–63 (shared).
    static func bucket(_ b: UInt8) -> Int {
        switch b {
        case 0x61...0x7A: return Int(b - 0x61)
        case 0x30...0x39: return 26 + Int(b - 0x30)
        default: return 36 + Int(b) % 28
        }
    }

    /// Whether a set bit for `b` proves the text holds `b` (its bit is its
    /// own).
    static func isExact(_ b: UInt8) -> Bool { bucket(b) < 36 }

    /// The set of `bytes`. Four accumulators, so that consecutive bytes'
    /// lookups do not wait on one another's `or` (the tail sets of a
    /// keystroke's matches read every matched text through here, so the
    /// loop's latency chain is what bounds them).
    /// - Complexity: O(bytes.count)
    @inline(__always)
    static func of(_ bytes: UnsafeBufferPointer<UInt8>, _ table: UnsafeBufferPointer<UInt64>) -> UInt64 {
        guard let p = bytes.baseAddress, let t = table.baseAddress, table.count >= 256 else { return 0 }
        let n = bytes.count
        var a: UInt64 = 0, b: UInt64 = 0, c: UInt64 = 0, d: UInt64 = 0
        var j = 0
        while j &+ 4 <= n {
            a |= t[Int(p[j])]
            b |= t[Int(p[j &+ 1])]
            c |= t[Int(p[j &+ 2])]
            d |= t[Int(p[j &+ 3])]
            j &+= 4
        }
        while j < n {
            a |= t[Int(p[j])]
            j &+= 1
        }
        return a | b | c | d
    }

    /// `of(_:_:)` behind a call, for a large loop body (the index's
    /// fill): inlined there, its text pointer was spilled and read back
    /// from the stack before every byte.
    /// - Complexity: O(bytes.count)
    @inline(never)
    static func of(standalone bytes: UnsafeBufferPointer<UInt8>, _ table: UnsafeBufferPointer<UInt64>) -> UInt64 {
        of(bytes, table)
    }

    /// Texts per block of `forEachBlock`.
    static let blockSize = 4096

    /// Calls `body` with the texts of `texts` whose set holds `byte`'s bit,
    /// ascending, a block at a time (exact when `isExact(byte)`).
    /// - Complexity: O(texts.count)
    static func forEachBlock(of presence: UnsafeBufferPointer<UInt64>, _ texts: Range<Int>, holding byte: UInt8,
                             _ body: (UnsafeBufferPointer<Int>) -> Void) {
        let shift = UInt64(bucket(byte))
        let block = UnsafeMutablePointer<Int>.allocate(capacity: blockSize)
        defer { block.deallocate() }
        var start = max(texts.lowerBound, 0)
        let end = min(texts.upperBound, presence.count)
        while start < end {
            let stop = min(start &+ blockSize, end)
            var n = 0
            for i in start..<stop {
                block[n] = i
                n &+= Int(truncatingIfNeeded: (presence[i] &>> shift) & 1)
            }
            if n > 0 { body(UnsafeBufferPointer(start: block, count: n)) }
            start = stop
        }
    }
}
