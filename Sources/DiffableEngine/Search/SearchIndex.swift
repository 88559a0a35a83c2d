/// A search index over a list of optional texts, addressed by flat index
/// `0..<count` (for a snapshot: items section by section).
///
/// Texts are stored flat: one contiguous UTF-8 buffer with offsets, a folded
/// copy (see `TextFolding`: ASCII lowercase + Latin-1 accent folding, one
/// scalar per scalar) with its own offsets, and per-text flags (`nil`, pure
/// ASCII). A `nil` text is stored empty and never matches a non-empty query.
///
/// Positions reported by the index (highlights) are **Unicode scalar
/// offsets** into the original text.
public struct SearchIndex: Sendable {
    /// UTF-8 of every text, back to back.
    var bytes: PrefixSharingArray<UInt8>
    /// `offsets[i]..<offsets[i + 1]` is text `i` in `bytes`; `count + 1` entries.
    var offsets: PrefixSharingArray<Int>
    /// Folded UTF-8 of every text, back to back.
    var folded: PrefixSharingArray<UInt8>
    /// `foldedOffsets[i]..<foldedOffsets[i + 1]` is text `i` in `folded`.
    var foldedOffsets: PrefixSharingArray<Int>
    /// Bit `Flag.isNil`, `Flag.isASCII` per text.
    var flags: PrefixSharingArray<UInt8>
    /// Per text, which bytes sit at word boundaries (see `BonusMasks`): a
    /// fuzzy score bound without reading the text. Empty unless
    /// `tracksBonusMasks` (an index only substring queries read goes
    /// without: its splices then copy 16 bytes less per text).
    var bonusMasks: PrefixSharingArray<BonusMasks>
    /// Per text, its word pairs (see `BonusMasks`), kept with the masks.
    var wordPairs: PrefixSharingArray<UInt64>
    /// Whether `bonusMasks` holds every text's masks and is kept up to date.
    var tracksBonusMasks = true
    /// Per text, the set of its folded bytes (see `BytePresence`).
    var presence: PrefixSharingArray<UInt64>

    enum Flag {
        static let isNil: UInt8 = 1
        static let isASCII: UInt8 = 2
        /// An ASCII lowercase letter directly followed by an uppercase one
        /// (a camelCase hump). Without one, position bonuses computed on the
        /// folded copy equal those of the original, which is then not read.
        static let hasHump: UInt8 = 4
        /// Starts or ends with whitespace: fzf's length tie-break must trim
        /// it (`TextTable.trimmedLength`); without it the length is read
        /// from the offsets, not the text.
        static let hasOuterSpace: UInt8 = 8
    }

    /// An empty index.
    public init() {
        bytes = PrefixSharingArray()
        folded = PrefixSharingArray()
        offsets = PrefixSharingArray()
        offsets.append(0)
        foldedOffsets = PrefixSharingArray()
        foldedOffsets.append(0)
        flags = PrefixSharingArray()
        bonusMasks = PrefixSharingArray()
        wordPairs = PrefixSharingArray()
        presence = PrefixSharingArray()
    }

    /// Builds the index over `texts` (`nil` = never matches a non-empty query).
    /// - Complexity: O(total UTF-8 length).
    public init(texts: [String?]) {
        self.init()
        append(contentsOf: texts)
    }

    /// Builds the index over the items of `snapshot`, section by section
    /// (flat index = position in `snapshot.sections.flatMap(\.items)`).
    /// - Complexity: O(total UTF-8 length)
    /// `bonusMasks`: whether to build the bonus masks (see
    /// `trackBonusMasks()`). `fields`: the texts are the items' fields
    /// (`SearchFields.text(of:)`) instead of their `text`.
    public init(snapshot: Snapshot, bonusMasks: Bool = true, fields: SearchFields? = nil) {
        self.init()
        tracksBonusMasks = bonusMasks
        if let fields {
            appendInHalves(.strings(fields.texts(of: snapshot.sections.flatMap { Array($0.items) })))
        } else {
            var items: [Item] = []
            items.reserveCapacity(snapshot.itemCount)
            for section in snapshot.sections { items.append(contentsOf: section.items) }
            appendInHalves(.items(items))
        }
    }

    /// Builds the bonus masks of an index made without them, and keeps them
    /// from then on (the first ranked fuzzy query needs them).
    /// - Complexity: O(total UTF-8 length) the first time, then O(1).
    mutating func trackBonusMasks() {
        guard !tracksBonusMasks else { return }
        tracksBonusMasks = true
        bonusMasks = PrefixSharingArray()
        wordPairs = PrefixSharingArray()
        appendMissingBonusMasks()
    }

    /// Masks for the texts past the last one that has them, in two halves
    /// on two threads for a long list (`halvedBuildMinimum`), each written
    /// in place: the wait of the first fuzzy keystroke on an index built
    /// for substring queries, and the last part of any build.
    /// - Complexity: O(their UTF-8 length), over two threads.
    mutating func appendMissingBonusMasks() {
        let first = bonusMasks.count
        guard first < count else { return }
        let n = count - first
        let parts = n >= Self.halvedBuildMinimum ? [first..<first + n / 2, first + n / 2..<count] : [first..<count]
        // Taken out of `self` while they are written: `withTable` reads
        // `self`, and the masks are not what the masks are computed from.
        var masks = bonusMasks, pairs = wordPairs
        bonusMasks = PrefixSharingArray()
        wordPairs = PrefixSharingArray()
        var written = 0
        masks.appendUninitialized(maximum: n) { maskRoom in
            pairs.appendUninitialized(maximum: n) { pairRoom in
                guard let maskBase = maskRoom.baseAddress, let pairBase = pairRoom.baseAddress else { return 0 }
                let room = MaskRoom(masks: maskBase - first, wordPairs: pairBase - first)
                withTable { table in
                    _ = Parallel.map(parts.count, placeholder: false) { part in
                        BonusMasks.write(table, parts[part], masks: room.masks, wordPairs: room.wordPairs)
                        return true
                    }
                }
                written = n
                return n
            }
            return written
        }
        bonusMasks = masks
        wordPairs = pairs
    }

    /// Where `appendMissingBonusMasks` writes, indexed by text: each thread
    /// writes its own texts' elements only.
    private struct MaskRoom: @unchecked Sendable {
        let masks: UnsafeMutablePointer<BonusMasks>
        let wordPairs: UnsafeMutablePointer<UInt64>
    }

    /// Number of texts.
    public var count: Int { flags.count }

    /// The text at `index` (`nil` for a `nil` text or an index out of range).
    /// - Complexity: O(length of the text)
    public func text(at index: Int) -> String? {
        guard index >= 0, index < count, flags[index] & Flag.isNil == 0 else { return nil }
        return String(decoding: bytes[offsets[index]..<offsets[index + 1]], as: UTF8.self)
    }

    /// Makes room for `extra` more elements, at least doubling the
    /// capacity when it grows (see `PrefixSharingArray.reserveCapacity`).
    /// - Complexity: amortized O(extra)
    static func grow<Element>(_ array: inout PrefixSharingArray<Element>, by extra: Int) {
        array.reserveCapacity(array.count + extra)
    }

    /// Appends texts at the end.
    /// - Complexity: amortized O(total UTF-8 length of `texts`)
    public mutating func append(contentsOf texts: [String?]) {
        let source = TextSource.strings(texts)
        append(source, 0..<texts.count, totalBytes: source.byteCount(0..<texts.count))
    }

    /// Appends the texts a splice brings in, in order.
    /// - Complexity: amortized O(their UTF-8 length)
    mutating func append(spliced texts: [(at: Int, text: SplicedText)]) {
        let source = TextSource.spliced(texts)
        append(source, 0..<texts.count, totalBytes: source.byteCount(0..<texts.count))
    }

    /// Appends the texts `range` of `texts`, of `total` UTF-8 bytes.
    /// - Complexity: amortized O(total)
    mutating func append(_ texts: TextSource, _ range: Range<Int>, totalBytes total: Int) {
        fillRoom(texts: range.count, bytes: total) { room, byteStart, foldedStart in
            Self.fill(room, with: texts, range, totalBytes: total, byteStart: byteStart, foldedStart: foldedStart)
        }
        if tracksBonusMasks { appendMissingBonusMasks() }
    }

    /// Appends one text.
    /// - Complexity: amortized O(length of `text`)
    public mutating func append(_ text: String?) {
        append(contentsOf: [text])
    }

    /// Replaces the texts in `range` by `texts` (indices after the range shift
    /// by `texts.count - range.count`). An invalid range is clamped.
    /// - Complexity: O(total UTF-8 length + count): the flat buffers after the
    ///   range are moved.
    public mutating func replaceSubrange(_ range: Range<Int>, with texts: [String?]) {
        let lower = min(max(range.lowerBound, 0), count)
        let upper = min(max(range.upperBound, lower), count)
        var piece = SearchIndex(texts: texts)
        let byteRange = offsets[lower]..<offsets[upper]
        let foldedRange = foldedOffsets[lower]..<foldedOffsets[upper]
        let byteDelta = piece.bytes.count - byteRange.count
        let foldedDelta = piece.folded.count - foldedRange.count
        bytes.replaceSubrange(byteRange, with: piece.bytes)
        folded.replaceSubrange(foldedRange, with: piece.folded)
        flags.replaceSubrange(lower..<upper, with: piece.flags)
        presence.replaceSubrange(lower..<upper, with: piece.presence)
        if tracksBonusMasks {
            bonusMasks.replaceSubrange(lower..<upper, with: piece.bonusMasks)
            wordPairs.replaceSubrange(lower..<upper, with: piece.wordPairs)
        }
        // Offsets: entries lower+1...upper are replaced by the piece's ends.
        for k in piece.offsets.indices {
            piece.offsets[k] += byteRange.lowerBound
            piece.foldedOffsets[k] += foldedRange.lowerBound
        }
        offsets.replaceSubrange(lower + 1..<upper + 1, with: piece.offsets.dropFirst())
        foldedOffsets.replaceSubrange(lower + 1..<upper + 1, with: piece.foldedOffsets.dropFirst())
        let tail = lower + 1 + texts.count
        if byteDelta != 0 || foldedDelta != 0 {
            for k in tail..<offsets.count {
                offsets[k] += byteDelta
                foldedOffsets[k] += foldedDelta
            }
        }
    }

    /// Replaces the text at `index` (ignored when out of range).
    /// - Complexity: O(total UTF-8 length + count)
    public mutating func replace(at index: Int, with text: String?) {
        guard index >= 0, index < count else { return }
        replaceSubrange(index..<index + 1, with: [text])
    }

    /// Inserts a text before `index` (clamped to `0...count`).
    /// - Complexity: O(total UTF-8 length + count)
    public mutating func insert(_ text: String?, at index: Int) {
        let at = min(max(index, 0), count)
        replaceSubrange(at..<at, with: [text])
    }

    /// Whether `text` starts or ends with whitespace (as fzf trims it).
    static func hasOuterSpace(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        return FzfText.isSpace(first.value) || FzfText.isSpace(last.value)
    }

    /// Removes the text at `index` (ignored when out of range).
    /// - Complexity: O(total UTF-8 length + count)
    public mutating func remove(at index: Int) {
        guard index >= 0, index < count else { return }
        replaceSubrange(index..<index + 1, with: [])
    }

    /// Length of text `index` in Unicode scalars (the ranking tie-break).
    /// - Complexity: O(1) for ASCII texts, O(length) otherwise.
    func scalarLength(_ index: Int) -> Int {
        let n = offsets[index + 1] - offsets[index]
        if flags[index] & Flag.isASCII != 0 { return n }
        return bytes.withUnsafeBufferPointer {
            TextFolding.scalarCount(UnsafeBufferPointer(rebasing: $0[offsets[index]..<offsets[index + 1]]))
        }
    }

    /// Runs `body` with raw views of the storage (valid only inside `body`).
    func withTable<R>(_ body: (TextTable) -> R) -> R {
        bytes.withUnsafeBufferPointer { b in
            folded.withUnsafeBufferPointer { f in
                offsets.withUnsafeBufferPointer { o in
                    foldedOffsets.withUnsafeBufferPointer { fo in
                        flags.withUnsafeBufferPointer { fl in
                            bonusMasks.withUnsafeBufferPointer { m in presence.withUnsafeBufferPointer { p in
                                wordPairs.withUnsafeBufferPointer { w in
                                    body(TextTable(bytes: b, folded: f, offsets: o, foldedOffsets: fo, flags: fl, masks: m,
                                                   presence: p, wordPairs: w))
                                }
                            } }
                        }
                    }
                }
            }
        }
    }
}

/// Raw read-only views of a `SearchIndex`'s storage, valid only inside
/// `SearchIndex.withTable`. Shared read-only between worker threads.
struct TextTable: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
    let folded: UnsafeBufferPointer<UInt8>
    let offsets: UnsafeBufferPointer<Int>
    let foldedOffsets: UnsafeBufferPointer<Int>
    let flags: UnsafeBufferPointer<UInt8>
    /// Each text's bonus masks.
    let masks: UnsafeBufferPointer<BonusMasks>
    /// Each text's byte set (`BytePresence`); empty for a copied segment.
    var presence = UnsafeBufferPointer<UInt64>(start: nil, count: 0)
    /// Each text's word pairs (`BonusMasks`), when `masks` are there.
    var wordPairs = UnsafeBufferPointer<UInt64>(start: nil, count: 0)

    /// Text `i`'s word pairs (every key set when there are none).
    @inline(__always) func wordPairsOf(_ i: Int) -> UInt64 {
        i < wordPairs.count ? wordPairs[i] : BonusMasks.unknownWordPairs
    }

    var count: Int { flags.count }

    @inline(__always) func isNil(_ i: Int) -> Bool { flags[i] & SearchIndex.Flag.isNil != 0 }
    @inline(__always) func isASCII(_ i: Int) -> Bool { flags[i] & SearchIndex.Flag.isASCII != 0 }

    /// The bytes to classify for position bonuses of ASCII text `i`: the
    /// folded copy (already being read) unless a camelCase hump needs case.
    @inline(__always) func classBytes(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        flags[i] & SearchIndex.Flag.hasHump != 0 ? original(i) : foldedText(i)
    }

    /// Original UTF-8 of text `i`.
    @inline(__always) func original(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[offsets[i]..<offsets[i + 1]])
    }

    /// Folded UTF-8 of text `i`.
    @inline(__always) func foldedText(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: folded[foldedOffsets[i]..<foldedOffsets[i + 1]])
    }

    /// fzf's length tie-break of text `i`: its length in scalars without
    /// leading and trailing whitespace, capped at 65535 (fzf keeps it in
    /// 16 bits).
    /// - Complexity: O(1) for ASCII texts without surrounding whitespace,
    ///   O(length) otherwise.
    @inline(__always) func trimmedLength(_ i: Int) -> Int {
        if flags[i] & SearchIndex.Flag.hasOuterSpace == 0 { return min(scalarLength(i), 65535) }
        return trimmedLengthSlow(i)
    }

    /// `trimmedLength` of a text with surrounding whitespace (out of line:
    /// the common case stays a flag test and two offsets).
    @inline(never) func trimmedLengthSlow(_ i: Int) -> Int {
        let text = foldedText(i)
        let n = text.count
        guard n > 0 else { return 0 }
        if isASCII(i) {
            var lo = 0, hi = n
            while lo < hi && CharClass.of(byte: text[lo]) == CharClass.white { lo &+= 1 }
            while hi > lo && CharClass.of(byte: text[hi &- 1]) == CharClass.white { hi &-= 1 }
            return min(hi &- lo, 65535)
        }
        var count = 0, leading = 0, trailing = 0
        var seenNonSpace = false
        FzfText.forEachScalar(original(i)) { v in
            count &+= 1
            if FzfText.isSpace(v) {
                if !seenNonSpace { leading &+= 1 }
                trailing &+= 1
            } else {
                seenNonSpace = true
                trailing = 0
            }
        }
        return seenNonSpace ? min(count &- leading &- trailing, 65535) : 0
    }

    /// Length of text `i` in scalars (for ASCII texts, read from the folded
    /// offsets, which the matcher has just read: same length).
    @inline(__always) func scalarLength(_ i: Int) -> Int {
        isASCII(i) ? foldedOffsets[i + 1] - foldedOffsets[i] : TextFolding.scalarCount(original(i))
    }
}
