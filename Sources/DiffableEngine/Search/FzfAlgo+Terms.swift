/// fzf's algorithms for the extended-search term types other than fuzzy.
/// Same inputs as `FzfAlgo.score`: compared units, their bonuses, the
/// pattern. Each returns the matched span and its score.
extension FzfAlgo {
    struct Span: Equatable {
        var score: Int
        var start: Int
        var end: Int
    }

    /// `'word`: the occurrence (tried from the left, overlapping ones
    /// included) whose first char has the best bonus, stopping at the first
    /// with a boundary bonus (≥ 8); the text start counts as
    /// `boundaryWhite`. Scored as `scoreSpan` scores the span.
    /// - Complexity: O(text.count × pattern.count) worst case.
    static func exact<T: FixedWidthInteger>(text: UnsafeBufferPointer<T>, bonus: UnsafePointer<UInt8>,
                                            pattern: UnsafeBufferPointer<T>, boundaryWhite: Int,
                                            forward: Bool = true) -> Span? {
        let n = text.count, m = pattern.count
        guard m > 0, n >= m else { return nil }
        var best = -1, bestBonus = -1
        // Backward (fzf's scan from the end): occurrences from the right.
        var start = forward ? 0 : n &- m
        while start >= 0 && start &+ m <= n {
            var k = 0
            while k < m && text[start &+ k] == pattern[k] { k &+= 1 }
            if k == m {
                let b = start == 0 ? boundaryWhite : Int(bonus[start])
                if b > bestBonus { best = start; bestBonus = b }
                if b >= FuzzyScoring.boundary { break }
            }
            start = forward ? start &+ 1 : start &- 1
        }
        guard best >= 0 else { return nil }
        let span = best..<best &+ m
        return Span(score: scoreSpan(text: text, bonus: bonus, pattern: pattern, span: span, positions: nil),
                    start: span.lowerBound, end: span.upperBound)
    }

    /// Leading and trailing whitespace units of `text`.
    static func whitespace<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<T>) -> (leading: Int, trailing: Int) {
        var lead = 0
        while lead < text.count && FzfText.isSpace(UInt32(truncatingIfNeeded: text[lead])) { lead &+= 1 }
        var trail = 0
        while trail < text.count &- lead && FzfText.isSpace(UInt32(truncatingIfNeeded: text[text.count &- 1 &- trail])) {
            trail &+= 1
        }
        return (lead, trail)
    }

    /// `^word`: at the start, after leading whitespace unless the pattern
    /// starts with whitespace.
    static func prefix<T: FixedWidthInteger>(text: UnsafeBufferPointer<T>, bonus: UnsafePointer<UInt8>,
                                             pattern: UnsafeBufferPointer<T>) -> Span? {
        let m = pattern.count
        guard m > 0 else { return nil }
        let lead = FzfText.isSpace(UInt32(truncatingIfNeeded: pattern[0])) ? 0 : whitespace(text).leading
        guard text.count &- lead >= m else { return nil }
        for k in 0..<m where text[lead &+ k] != pattern[k] { return nil }
        let span = lead..<lead &+ m
        return Span(score: scoreSpan(text: text, bonus: bonus, pattern: pattern, span: span, positions: nil),
                    start: span.lowerBound, end: span.upperBound)
    }

    /// `word$`: at the end, before trailing whitespace unless the pattern
    /// ends with whitespace.
    static func suffix<T: FixedWidthInteger>(text: UnsafeBufferPointer<T>, bonus: UnsafePointer<UInt8>,
                                             pattern: UnsafeBufferPointer<T>) -> Span? {
        let m = pattern.count
        guard m > 0 else { return nil }
        let trail = FzfText.isSpace(UInt32(truncatingIfNeeded: pattern[m &- 1])) ? 0 : whitespace(text).trailing
        let end = text.count &- trail
        guard end >= m else { return nil }
        let start = end &- m
        for k in 0..<m where text[start &+ k] != pattern[k] { return nil }
        return Span(score: scoreSpan(text: text, bonus: bonus, pattern: pattern, span: start..<end, positions: nil),
                    start: start, end: end)
    }

    /// `^word$`: the whole text, surrounding whitespace aside; scored
    /// `(16 + boundaryWhite) × m + boundaryWhite`, as fzf does.
    static func equal<T: FixedWidthInteger>(text: UnsafeBufferPointer<T>, pattern: UnsafeBufferPointer<T>,
                                            boundaryWhite: Int) -> Span? {
        let m = pattern.count
        guard m > 0 else { return nil }
        let (leading, trailing) = whitespace(text)
        let lead = FzfText.isSpace(UInt32(truncatingIfNeeded: pattern[0])) ? 0 : leading
        let trail = FzfText.isSpace(UInt32(truncatingIfNeeded: pattern[m &- 1])) ? 0 : trailing
        guard text.count &- lead &- trail == m else { return nil }
        for k in 0..<m where text[lead &+ k] != pattern[k] { return nil }
        return Span(score: (FuzzyScoring.match &+ boundaryWhite) &* m &+ boundaryWhite, start: lead, end: lead &+ m)
    }
}
