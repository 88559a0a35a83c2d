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
///
/// The tables live as long as the process (three of them, built once), so
/// the struct is plain pointers and numbers: passing it per text costs no
/// reference counting.
struct FzfBonusTable: @unchecked Sendable {
    /// Class of every byte (bytes ≥ 0x80 count as letters, for ASCII-only
    /// callers); 256 entries.
    let asciiClass: UnsafePointer<UInt8>
    /// `bonus[prev &* 8 &+ cur]`; 64 entries.
    let bonus: UnsafePointer<UInt8>
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
        let classes = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for v in 0..<256 {
            let c = CharClass.of(byte: UInt8(v))
            classes[v] = c == CharClass.delimiter && scheme == .path && v != 0x2F ? CharClass.nonWord : c
        }
        asciiClass = UnsafePointer(classes)
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        table.initialize(repeating: 0, count: 64)
        for prev in 0..<7 {
            for cur in 0..<7 {
                table[prev * 8 + cur] = UInt8(Self.bonusFor(prev: UInt8(prev), cur: UInt8(cur),
                                                            white: white, delimiter: delimiter))
            }
        }
        bonus = UnsafePointer(table)
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
