extension FuzzyMatcher {
    /// The scalar positions fzf highlights for `query` in text `i`
    /// (`FzfAlgo.positions`), or `[]` when it does not match.
    /// - Complexity: O(length × query length) time and space; meant for the
    ///   few rows that are displayed.
    static func positions(_ table: TextTable, _ i: Int, query: PreparedQuery) -> [Int] {
        if table.isNil(i) { return [] }
        let (units, bonus) = compared(table, i, pattern: query.pattern, scheme: query.scheme)
        return FzfAlgo.positions(text: units, bonus: bonus, pattern: query.pattern.units, forward: query.forward)
    }

    /// Text `i`'s chars as `pattern` compares them, and their bonuses.
    /// - Complexity: O(length of the text)
    static func compared(_ table: TextTable, _ i: Int, pattern: FzfPattern,
                         scheme: FzfBonusTable) -> (units: [UInt32], bonus: [UInt8]) {
        var units: [UInt32] = []
        var bonus: [UInt8] = []
        var prev = scheme.initialClass
        FzfText.forEachScalar(table.original(i)) { v in
            let cur = v < 0x80 ? scheme.asciiClass[Int(v)] : FzfText.charClass(nonASCII: v)
            bonus.append(scheme.bonus[Int(prev) &* 8 &+ Int(cur)])
            units.append(pattern.transform(v, class: cur))
            prev = cur
        }
        return (units, bonus)
    }

    /// Merges sorted positions into `[start, end)` ranges of contiguous runs.
    /// - Complexity: O(positions.count)
    static func ranges(_ positions: [Int]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for p in positions {
            if let last = out.last, last.upperBound == p {
                out[out.count - 1] = last.lowerBound..<p + 1
            } else {
                out.append(p..<p + 1)
            }
        }
        return out
    }
}
