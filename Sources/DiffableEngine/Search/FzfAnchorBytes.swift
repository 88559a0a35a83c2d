/// The bytes an ASCII text may start and end with to match an extended
/// query, read before any term is placed.
///
/// A set whose every term is tied to the text's start (`^lib | ^app`)
/// matches only a text whose first byte is one of its terms' first bytes;
/// one whose every term is tied to the end (`.swift$`) only a text whose
/// last byte is one of its terms' last bytes. fzf skips whitespace there
/// before comparing, so a text that starts (ends) with whitespace is
/// always admitted and left to the terms. Sets are ANDed, so their byte
/// sets intersect. On a scan of the whole list this one read per text
/// rejects most texts of a query such as `^a` before the costlier
/// placement and bound.
///
/// Bytes are compared folded (ASCII letters lowercase), as the index's
/// folded copy holds them, so a case-sensitive term admits both cases:
/// the filter is a necessary condition, never the match itself.
struct FzfAnchorBytes: Sendable {
    /// 256 bits, one per byte value.
    struct ByteSet: Sendable {
        var words: (UInt64, UInt64, UInt64, UInt64)

        static let all = ByteSet(words: (~0, ~0, ~0, ~0))

        /// The ASCII whitespace fzf trims: tab to carriage return, space.
        static let whitespace: ByteSet = {
            var set = ByteSet(words: (0, 0, 0, 0))
            for b: UInt8 in [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20] { set.insert(b) }
            return set
        }()

        @inline(__always)
        func contains(_ b: UInt8) -> Bool {
            let word: UInt64
            switch b >> 6 {
            case 0: word = words.0
            case 1: word = words.1
            case 2: word = words.2
            default: word = words.3
            }
            return word >> UInt64(b & 63) & 1 != 0
        }

        mutating func insert(_ b: UInt8) {
            let bit = UInt64(1) << UInt64(b & 63)
            switch b >> 6 {
            case 0: words.0 |= bit
            case 1: words.1 |= bit
            case 2: words.2 |= bit
            default: words.3 |= bit
            }
        }

        func intersection(_ other: ByteSet) -> ByteSet {
            ByteSet(words: (words.0 & other.words.0, words.1 & other.words.1,
                            words.2 & other.words.2, words.3 & other.words.3))
        }
    }

    /// The first and last folded bytes a match may have (whitespace
    /// included).
    let first: ByteSet
    let last: ByteSet

    /// nil when no set of `query` is tied to the start or the end, or the
    /// query is over fields (each field has its own start and end).
    /// `knownSets[s]`: every candidate satisfies set `s` (not checked).
    init?(_ query: FzfQuery, knownSets: [Bool] = []) {
        guard !query.fielded else { return nil }
        var first = ByteSet.all, last = ByteSet.all
        var anchored = false
        for (s, set) in query.sets.enumerated() where !(s < knownSets.count && knownSets[s]) {
            if let bytes = Self.edgeBytes(of: set, atStart: true) {
                first = first.intersection(bytes)
                anchored = true
            }
            if let bytes = Self.edgeBytes(of: set, atStart: false) {
                last = last.intersection(bytes)
                anchored = true
            }
        }
        guard anchored else { return nil }
        self.first = first
        self.last = last
    }

    /// Whether ASCII text `folded` (the index's folded copy) may match.
    /// - Complexity: O(1)
    @inline(__always)
    func admits(_ folded: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = folded.baseAddress, folded.count > 0 else { return false }
        return first.contains(base[0]) && last.contains(base[folded.count &- 1])
    }

    /// The folded bytes a text of `set` starts (ends) with, whitespace
    /// included, or nil when some term of the set is not tied there: an
    /// inverse term, one of another type, one whose edge char is itself
    /// whitespace (fzf then compares without skipping any), or a
    /// non-ASCII one.
    static func edgeBytes(of set: [FzfTerm], atStart: Bool) -> ByteSet? {
        guard !set.isEmpty else { return nil }
        var bytes = ByteSet.whitespace
        for term in set {
            let tied = atStart ? term.type == .prefix || term.type == .equal
                : term.type == .suffix || term.type == .equal
            guard tied, !term.inverse, term.pattern.isASCII,
                  let edge = atStart ? term.bytes.first : term.bytes.last,
                  !ByteSet.whitespace.contains(edge) else { return nil }
            bytes.insert(edge &- 0x41 < 26 ? edge | 0x20 : edge)
        }
        return bytes
    }
}
