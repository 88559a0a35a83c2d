/// fzf's `--scheme`: which bonus a word boundary earns, which ASCII
/// characters are delimiters, and what precedes the first character.
public enum SearchScheme: String, Sendable, CaseIterable {
    /// Boundaries after whitespace 10, after `/ , : ; |` 9, after other
    /// punctuation 8; the text start counts as whitespace.
    case `default`
    /// For file paths: only `/` is a delimiter (9), whitespace boundaries 8,
    /// and the text start counts as a `/`.
    case path
    /// Every boundary 8 (whitespace and delimiters earn nothing extra).
    case history
}

/// The tables one scheme scores with. Every bonus of `path` and `history` is
/// at most the `default` one at the same position, so the score bounds
/// computed with the default tables bound every scheme.
struct FzfBonusTable: Sendable {
    /// Class of every byte (bytes ≥ 0x80 count as letters, for ASCII-only
    /// callers).
    let asciiClass: [UInt8]
    /// `bonus[prev &* 8 &+ cur]`.
    let bonus: [UInt8]
    /// The class that precedes the first character.
    let initialClass: UInt8
    let boundaryWhite: Int

    static let `default` = FzfBonusTable(.default)
    static let path = FzfBonusTable(.path)
    static let history = FzfBonusTable(.history)

    static func of(_ scheme: SearchScheme) -> FzfBonusTable {
        switch scheme {
        case .default: return .default
        case .path: return .path
        case .history: return .history
        }
    }

    private init(_ scheme: SearchScheme) {
        let white: Int, delimiter: Int
        switch scheme {
        case .default: white = FuzzyScoring.boundaryWhite; delimiter = FuzzyScoring.boundaryDelimiter
        case .path: white = FuzzyScoring.boundary; delimiter = FuzzyScoring.boundaryDelimiter
        case .history: white = FuzzyScoring.boundary; delimiter = FuzzyScoring.boundary
        }
        boundaryWhite = white
        initialClass = scheme == .path ? CharClass.delimiter : CharClass.white
        asciiClass = (0..<256).map { v -> UInt8 in
            let c = CharClass.of(byte: UInt8(v))
            guard c == CharClass.delimiter, scheme == .path else { return c }
            return v == 0x2F ? CharClass.delimiter : CharClass.nonWord
        }
        var table = [UInt8](repeating: 0, count: 64)
        for prev in 0..<7 {
            for cur in 0..<7 {
                table[prev * 8 + cur] = UInt8(Self.bonusFor(prev: UInt8(prev), cur: UInt8(cur),
                                                            white: white, delimiter: delimiter))
            }
        }
        bonus = table
    }

    /// fzf's `bonusFor` (0.38): word boundaries first (a delimiter counts as
    /// a word char there: `/` after a space earns the whitespace bonus),
    /// then camelCase and digits, then the bonus of a non-word (not a
    /// delimiter) or whitespace character itself.
    static func bonusFor(prev: UInt8, cur: UInt8, white: Int, delimiter: Int) -> Int {
        if cur > CharClass.nonWord {
            if prev == CharClass.white { return white }
            if prev == CharClass.delimiter { return delimiter }
            if prev == CharClass.nonWord { return FuzzyScoring.boundary }
        }
        if prev == CharClass.lower && cur == CharClass.upper { return FuzzyScoring.camel123 }
        if prev != CharClass.number && cur == CharClass.number { return FuzzyScoring.camel123 }
        if cur == CharClass.nonWord { return FuzzyScoring.nonWord }
        if cur == CharClass.white { return white }
        return 0
    }
}
