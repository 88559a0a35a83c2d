/// Building an index from a snapshot: its items' texts read where the
/// items store them, and a long list built in two halves, one per core.
extension SearchIndex {
    /// Texts to append: strings, or the search texts of items read where
    /// they are stored (no `String` made for them).
    enum TextSource: Sendable {
        case strings([String?])
        case items([Item])
        case spliced([(at: Int, text: SplicedText)])

        var count: Int {
            switch self {
            case .strings(let texts): texts.count
            case .items(let items): items.count
            case .spliced(let texts): texts.count
            }
        }

        /// UTF-8 bytes of the texts in `range`.
        /// - Complexity: O(range.count)
        func byteCount(_ range: Range<Int>) -> Int {
            var total = 0
            switch self {
            case .strings(let texts): for k in range { total += texts[k]?.utf8.count ?? 0 }
            case .items(let items): for k in range { total += items[k].withTextBytes { $0.count } ?? 0 }
            case .spliced(let texts): for k in range { total += texts[k].text.utf8Count }
            }
            return total
        }

        /// Calls `body` once with text `k`'s UTF-8, or nil when it has none.
        func withText(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
            switch self {
            case .strings(let texts): Self.withText(texts[k], body)
            case .items(let items): Self.withText(items[k], body)
            case .spliced(let texts):
                switch texts[k].text {
                case .item(let item): Self.withText(item, body)
                case .string(let text): Self.withText(text, body)
                }
            }
        }

        private static func withText(_ text: String?, _ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
            guard var text else { return body(nil) }
            if text.utf8.withContiguousStorageIfAvailable(body) == nil {
                text.makeContiguousUTF8()
                if text.utf8.withContiguousStorageIfAvailable(body) == nil { Array(text.utf8).withUnsafeBufferPointer(body) }
            }
        }

        private static func withText(_ item: Item, _ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
            let found: Void? = item.withTextBytes { raw in
                body(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count))
            }
            if found == nil { body(nil) }
        }
    }

    /// Lists of at least this many texts are indexed in two halves, one per
    /// core (`appendInHalves`).
    static let halvedBuildMinimum = 1 << 16

    /// Appends `texts` to an index; a long list into an empty index in two
    /// halves folded, flagged and masked on two threads, each writing its
    /// half straight into the buffers' room (the second half's folded
    /// bytes start where the first half's would end unfolded; when folding
    /// shortened the first half, they are moved down to meet it).
    /// Building is the wait of the first keystroke after a list arrives.
    /// - Complexity: O(total UTF-8 length), over two threads.
    mutating func appendInHalves(_ texts: TextSource) {
        guard count == 0, texts.count >= Self.halvedBuildMinimum else {
            append(texts, 0..<texts.count, totalBytes: texts.byteCount(0..<texts.count))
            return
        }
        let half = texts.count / 2
        let parts = [0..<half, half..<texts.count]
        let sizes = Parallel.map(2, placeholder: 0) { part in texts.byteCount(parts[part]) }
        reserveCapacity(texts: texts.count, bytes: sizes[0] + sizes[1])
        fillRoom(texts: texts.count, bytes: sizes[0] + sizes[1]) { room, byteStart, foldedStart in
            let written = Parallel.map(2, placeholder: 0) { part in
                let from = part == 0 ? 0 : sizes[0]
                return Self.fill(room.advanced(bytes: from, texts: parts[part].lowerBound), with: texts, parts[part],
                                 totalBytes: sizes[part], byteStart: byteStart + from, foldedStart: foldedStart + from)
            }
            let gap = sizes[0] - written[0]
            if gap > 0 {
                // The two ranges overlap when the gap is short: a move, not a copy.
                UnsafeMutableRawPointer(room.folded + written[0]).copyMemory(from: room.folded + sizes[0], byteCount: written[1])
                for k in parts[1] { room.foldedEnds[k] -= gap }
            }
            return written[0] + written[1]
        }
        if tracksBonusMasks { appendMissingBonusMasks() }
    }

    /// Room for `texts` texts of `bytes` UTF-8 bytes in all (folding never
    /// lengthens a text), so that appending them copies no buffer.
    /// - Complexity: O(1) on an empty index (untouched room costs no memory).
    mutating func reserveCapacity(texts: Int, bytes byteCount: Int) {
        bytes.reserveCapacity(byteCount)
        folded.reserveCapacity(byteCount)
        offsets.reserveCapacity(texts + 1)
        foldedOffsets.reserveCapacity(texts + 1)
        flags.reserveCapacity(texts)
        presence.reserveCapacity(texts)
        if tracksBonusMasks {
            bonusMasks.reserveCapacity(texts)
            wordPairs.reserveCapacity(texts)
        }
    }
}
