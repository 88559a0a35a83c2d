/// fzf's `--tiebreak` criteria: what orders hits of equal score (the
/// index always decides last).
public enum SearchTiebreak: String, Sendable, CaseIterable {
    /// Shorter text first (without leading and trailing whitespace).
    case length
    /// Match ending earlier first (fzf compares the first match's end).
    case begin
    /// Match ending nearer the text's end (relative to its length) first.
    case end
    /// Source order (ends the list).
    case index
    /// Shorter whitespace-delimited chunk around the matches first.
    case chunk

    /// Why `list` is not a valid tie-break list (fzf's rules: no duplicate,
    /// `index` last, at most 3 besides `index`), or nil.
    public static func problem(in list: [SearchTiebreak]) -> String? {
        var seen = Set<SearchTiebreak>()
        for (k, t) in list.enumerated() {
            if !seen.insert(t).inserted { return "duplicate tie-break \"\(t.rawValue)\"" }
            if t == .index && k != list.count - 1 { return "\"index\" must be the last tie-break" }
        }
        if list.filter({ $0 != .index }).count > 3 { return "at most 3 tie-breaks besides \"index\"" }
        return nil
    }
}

/// The matched spans of one hit, as fzf folds them into its tie-breaks:
/// the smallest start and end, the largest end, of the spans that are not
/// empty (an inverse term's is).
struct FzfOffsets {
    var minBegin = Int(UInt16.max)
    var minEnd = Int(UInt16.max)
    var maxEnd = 0
    var valid = false

    @inline(__always) mutating func add(_ start: Int, _ end: Int) {
        guard start < end else { return }
        minBegin = min(minBegin, start)
        minEnd = min(minEnd, end)
        maxEnd = max(maxEnd, end)
        valid = true
    }
}

enum FzfTiebreakKey {
    /// Whether fzf scans forward: unless `end` comes before `begin`.
    static func forward(_ criteria: [SearchTiebreak]) -> Bool {
        for criterion in criteria {
            if criterion == .end { return false }
            if criterion == .begin { return true }
        }
        return true
    }

    /// Whether `criteria` read the matched spans.
    static func needsOffsets(_ criteria: [SearchTiebreak]) -> Bool {
        criteria.contains { $0 == .begin || $0 == .end || $0 == .chunk }
    }

    /// The tie-break key of text `i` (lower ranks first): each criterion's
    /// 16-bit value as fzf computes it, the first in the highest bits.
    /// `offsets` nil: a lower bound (span-dependent values 0), for the score
    /// bounds that run before scoring.
    /// - Complexity: O(1) for `length` on ASCII texts; O(length) otherwise.
    static func key(_ criteria: [SearchTiebreak], _ table: TextTable, _ i: Int, offsets: FzfOffsets?) -> Int {
        var key = 0
        for criterion in criteria where criterion != .index {
            key = key << 16 | value(criterion, table, i, offsets: offsets)
        }
        return key
    }

    static func value(_ criterion: SearchTiebreak, _ table: TextTable, _ i: Int, offsets: FzfOffsets?) -> Int {
        let top = Int(UInt16.max)
        func clamp(_ v: Int) -> Int { min(max(v, 0), top) }
        switch criterion {
        case .index: return 0
        case .length: return table.trimmedLength(i)
        case .begin, .end, .chunk:
            guard let offsets else { return 0 }
            guard offsets.valid else { return top }
            let scalars = Scalars(table, i)
            switch criterion {
            case .chunk:
                var b = offsets.minBegin, e = offsets.maxEnd
                while b >= 1 && !scalars.isSpace(b &- 1) { b &-= 1 }
                while e < scalars.count && !scalars.isSpace(e) { e &+= 1 }
                return clamp(e &- b)
            default:
                // Leading whitespace, up to the first match.
                var white = 0
                var k = 0
                while k < scalars.count {
                    white = k
                    if k == offsets.minBegin || !scalars.isSpace(k) { break }
                    k &+= 1
                }
                if criterion == .begin { return clamp(offsets.minEnd &- white) }
                // fzf 0.38 divides by the trimmed length itself (it fails on
                // an all-whitespace text; 1 here).
                return clamp(top &- top &* (offsets.maxEnd &- white) / max(table.trimmedLength(i), 1))
            }
        }
    }

    /// Text `i`'s scalars, whitespace only (ASCII texts read in place).
    struct Scalars {
        let ascii: UnsafeBufferPointer<UInt8>?
        let decoded: [Bool]
        let count: Int

        init(_ table: TextTable, _ i: Int) {
            if table.isASCII(i) {
                ascii = table.original(i)
                decoded = []
                count = table.original(i).count
            } else {
                var spaces: [Bool] = []
                FzfText.forEachScalar(table.original(i)) { spaces.append(FzfText.isSpace($0)) }
                ascii = nil
                decoded = spaces
                count = spaces.count
            }
        }

        @inline(__always) func isSpace(_ k: Int) -> Bool {
            if let ascii { return CharClass.of(byte: ascii[k]) == CharClass.white }
            return decoded[k]
        }
    }
}
