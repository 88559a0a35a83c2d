/// Filling an index's storage: each text's UTF-8 copied, folded, flagged
/// and its byte set taken, written straight into room the buffers have
/// made for it, so that two threads can fill the two halves of a long list
/// in place (`appendInHalves`) and nothing is copied after them.
extension SearchIndex {
    /// Raw room for texts in an index's buffers: `bytes` and `folded` at
    /// their first free byte, `ends` and `foldedEnds` at the entry of the
    /// first text's end offset, `flags` and `presence` at its entry. Each
    /// filling thread writes only its own texts' part.
    struct TextRoom: @unchecked Sendable {
        var bytes: UnsafeMutablePointer<UInt8>
        var folded: UnsafeMutablePointer<UInt8>
        var ends: UnsafeMutablePointer<Int>
        var foldedEnds: UnsafeMutablePointer<Int>
        var flags: UnsafeMutablePointer<UInt8>
        var presence: UnsafeMutablePointer<UInt64>

        /// The room `bytes`/`folded` bytes and `texts` entries further on.
        func advanced(bytes byteCount: Int, texts: Int) -> TextRoom {
            TextRoom(bytes: bytes + byteCount, folded: folded + byteCount, ends: ends + texts,
                     foldedEnds: foldedEnds + texts, flags: flags + texts, presence: presence + texts)
        }
    }

    /// Makes room for `count` texts of `total` UTF-8 bytes after the last
    /// one, lets `body` fill it (returning the folded bytes it wrote, at
    /// most `total`: folding never lengthens a text), and keeps what it
    /// filled. `body` gets the offsets the room starts at in `bytes` and
    /// `folded`.
    /// - Complexity: amortized O(total + count), plus `body`.
    mutating func fillRoom(texts count: Int, bytes total: Int,
                           _ body: (_ room: TextRoom, _ byteStart: Int, _ foldedStart: Int) -> Int) {
        let byteStart = bytes.count, foldedStart = folded.count
        Self.grow(&bytes, by: total)
        Self.grow(&folded, by: total)
        Self.grow(&offsets, by: count)
        Self.grow(&foldedOffsets, by: count)
        Self.grow(&flags, by: count)
        Self.grow(&presence, by: count)
        var foldedWritten = 0
        bytes.appendUninitialized(maximum: total) { raw in
            folded.appendUninitialized(maximum: total) { fold in
                offsets.appendUninitialized(maximum: count) { ends in
                    foldedOffsets.appendUninitialized(maximum: count) { foldedEnds in
                        flags.appendUninitialized(maximum: count) { flagRoom in
                            presence.appendUninitialized(maximum: count) { presenceRoom in
                                guard let b = raw.baseAddress, let f = fold.baseAddress, let e = ends.baseAddress,
                                      let fe = foldedEnds.baseAddress, let fl = flagRoom.baseAddress,
                                      let p = presenceRoom.baseAddress else { return 0 }
                                let room = TextRoom(bytes: b, folded: f, ends: e, foldedEnds: fe, flags: fl, presence: p)
                                foldedWritten = min(max(body(room, byteStart, foldedStart), 0), total)
                                return count
                            }
                            return count
                        }
                        return count
                    }
                    return count
                }
                return foldedWritten
            }
            return total
        }
    }

    /// Fills `room` with texts `range` of `texts` (of `total` UTF-8 bytes),
    /// the room starting at offset `byteStart` of the index's `bytes` and
    /// `foldedStart` of its `folded`. Returns the folded bytes written.
    /// - Complexity: O(total)
    static func fill(_ room: TextRoom, with texts: TextSource, _ range: Range<Int>, totalBytes total: Int,
                     byteStart: Int, foldedStart: Int) -> Int {
        var end = 0, foldedEnd = 0
        var scratch: [UInt8] = []
        BytePresence.bits.withUnsafeBufferPointer { bits in
            for (k, index) in range.enumerated() { texts.withText(index) { source in
                guard let src = source, let from = src.baseAddress else {
                    // A missing text, or an empty one (no bytes to point at).
                    room.flags[k] = source == nil ? Flag.isNil : Flag.isASCII
                    room.presence[k] = 0
                    room.ends[k] = byteStart &+ end
                    room.foldedEnds[k] = foldedStart &+ foldedEnd
                    return
                }
                let n = min(src.count, total &- end)
                let to = room.bytes + end, foldTo = room.folded + foldedEnd
                to.update(from: from, count: n)
                let (any, hump) = TextFolding.foldASCII(from, into: foldTo, count: n)
                var outer: UInt8 = 0
                if n > 0 {
                    let head = to[0], tail = to[n &- 1]
                    if head < 0x80 && tail < 0x80 {
                        if CharClass.of(byte: head) == CharClass.white || CharClass.of(byte: tail) == CharClass.white {
                            outer = Flag.hasOuterSpace
                        }
                    } else if Self.hasOuterSpace(String(decoding: src, as: UTF8.self)) {
                        outer = Flag.hasOuterSpace
                    }
                }
                var foldedCount = n
                if any < 0x80 {
                    room.flags[k] = (hump ? Flag.isASCII | Flag.hasHump : Flag.isASCII) | outer
                } else {
                    // Non-ASCII: fold scalar by scalar (never longer).
                    room.flags[k] = outer
                    scratch.removeAll(keepingCapacity: true)
                    TextFolding.appendFolded(String(decoding: src, as: UTF8.self).unicodeScalars, to: &scratch)
                    foldedCount = min(scratch.count, n)
                    for j in 0..<foldedCount { foldTo[j] = scratch[j] }
                }
                room.presence[k] = BytePresence.of(standalone: UnsafeBufferPointer(start: foldTo, count: foldedCount), bits)
                end &+= n
                foldedEnd &+= foldedCount
                room.ends[k] = byteStart &+ end
                room.foldedEnds[k] = foldedStart &+ foldedEnd
            } }
        }
        return foldedEnd
    }
}

extension TextFolding {
    /// Writes ASCII `source[0..<n]` lowercased to `target`, eight bytes at a
    /// time (bytes of 0x80 and up are copied as they are: such a text is
    /// folded again scalar by scalar). Returns the `or` of every byte (0x80
    /// or more: not ASCII) and whether an ASCII lowercase letter is directly
    /// followed by an uppercase one (a camelCase hump).
    /// - Complexity: O(n)
    @inline(__always)
    static func foldASCII(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>,
                          count n: Int) -> (any: UInt8, hump: Bool) {
        // Per byte `b` below 0x80, `b + c` has its top bit set exactly when
        // `b >= 0x80 - c`, and never carries into the next byte.
        let ones: UInt64 = 0x0101_0101_0101_0101, tops: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawPointer(source), out = UnsafeMutableRawPointer(target)
        var any: UInt64 = 0, humps: UInt64 = 0
        // Top bit of byte 0: the byte before this word was a lowercase letter.
        var carried: UInt64 = 0
        var j = 0
        while j &+ 8 <= n {
            let word = raw.loadUnaligned(fromByteOffset: j, as: UInt64.self)
            any |= word
            let low = word & ~tops, ascii = ~word & tops
            let upper = (low &+ ones &* 0x3F) & ~(low &+ ones &* 0x25) & ascii  // "A"..."Z"
            let lower = (low &+ ones &* 0x1F) & ~(low &+ ones &* 0x05) & ascii  // "a"..."z"
            out.storeBytes(of: word | upper >> 2, toByteOffset: j, as: UInt64.self)
            humps |= (lower << 8 | carried) & upper
            carried = lower >> 56
            j &+= 8
        }
        var tailAny: UInt8 = 0, tailHumps: UInt8 = 0
        var previousLower: UInt8 = carried != 0 ? 1 : 0
        while j < n {
            let b = source[j]
            let isUpper: UInt8 = b &- 0x41 < 26 ? 1 : 0
            target[j] = b | isUpper << 5
            tailAny |= b
            tailHumps |= previousLower & isUpper
            previousLower = b &- 0x61 < 26 ? 1 : 0
            j &+= 1
        }
        var folded = any | any >> 32
        folded |= folded >> 16
        folded |= folded >> 8
        return (UInt8(truncatingIfNeeded: folded) | tailAny, humps != 0 || tailHumps != 0)
    }
}
