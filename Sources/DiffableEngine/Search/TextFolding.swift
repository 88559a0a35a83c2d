/// Case/accent folding and character classes shared by the matchers.
///
/// Folding is scalar-by-scalar (one Unicode scalar in, one scalar out) so a
/// folded text has exactly as many scalars as the original: positions found in
/// the folded copy are positions in the original text. Folding never makes a
/// scalar's UTF-8 encoding longer, so a folded text is never longer in bytes.
enum TextFolding {
    /// Folds one scalar value, so that whatever fzf compares equal under
    /// any of its per-term transforms (lowercase, Latin normalization, both)
    /// folds equal (the folded copy prefilters fuzzy matches; substring
    /// queries match on it):
    /// - ASCII `A`–`Z` → `a`–`z`;
    /// - a Latin letter fzf normalizes (`FzfText.normalize`: `É é` → `e`,
    ///   `ß` → `s`, `ł` → `l`, …), or whose lowercase it normalizes, → that
    ///   ASCII letter in lowercase;
    /// - other scalars: their simple lowercase when it encodes in no more
    ///   UTF-8 bytes, otherwise unchanged (`Æ` → `æ`, `Ω` → `ω`).
    /// - Complexity: O(1) below U+0100, O(log 257) above.
    static func fold(_ value: UInt32) -> UInt32 {
        if value < 0x100 { return UInt32(latin1Fold[Int(value)]) }
        return foldSlow(value)
    }

    static func foldSlow(_ value: UInt32) -> UInt32 {
        if value < 0x80 { return FzfText.lower(value) }
        let normalized = FzfText.normalize(value)
        if normalized != value { return FzfText.lower(normalized) }
        let lower = FzfText.lower(value)
        guard lower != value, let a = Unicode.Scalar(lower), let b = Unicode.Scalar(value),
              UTF8.width(a) <= UTF8.width(b) else { return value }
        let lowerNormalized = FzfText.normalize(lower)
        return lowerNormalized != lower ? FzfText.lower(lowerNormalized) : lower
    }

    /// `latin1Fold[v]` is the fold of scalar value `v < 256`.
    static let latin1Fold: [UInt8] = (0..<256).map { UInt8(truncatingIfNeeded: foldSlow(UInt32($0))) }

    /// The folded UTF-8 of `text` (appended to `out`).
    /// - Complexity: O(length of text)
    static func appendFolded<S: Sequence>(_ scalars: S, to out: inout [UInt8])
    where S.Element == Unicode.Scalar {
        for scalar in scalars {
            let folded = Unicode.Scalar(fold(scalar.value)) ?? scalar
            UTF8.encode(folded) { out.append($0) }
        }
    }

    /// Decodes valid UTF-8 into scalar values (appended to `out`).
    /// - Complexity: O(bytes.count)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt32]) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            out.append(scalar.value)
        }
    }

    /// Number of scalars in valid UTF-8 (bytes that are not continuation bytes).
    /// - Complexity: O(bytes.count)
    static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0
        for b in bytes where b & 0xC0 != 0x80 { n += 1 }
        return n
    }
}

/// fzf-style character classes; the order matters (`> nonWord` = word char).
enum CharClass {
    static let white: UInt8 = 0
    static let nonWord: UInt8 = 1
    static let delimiter: UInt8 = 2
    static let lower: UInt8 = 3
    static let upper: UInt8 = 4
    static let letter: UInt8 = 5
    static let number: UInt8 = 6

    /// Class of every byte value; bytes ≥ 0x80 count as letters.
    static let ascii: [UInt8] = (0..<256).map { of(byte: UInt8($0)) }

    /// `ascii[Int(byte)]`, computed: no table, so the substring matcher's
    /// per-match classification reads no lazily initialized global.
    @inline(__always) static func of(byte v: UInt8) -> UInt8 {
        switch v {
        case 0x20, 0x09...0x0D: return white
        case 0x61...0x7A: return lower
        case 0x41...0x5A: return upper
        case 0x30...0x39: return number
        case 0x2F, 0x2C, 0x3A, 0x3B, 0x7C: return delimiter  // / , : ; |
        case 0x80...: return letter
        default: return nonWord
        }
    }

    /// Class of any scalar value.
    /// - Complexity: O(1)
    static func of(_ value: UInt32) -> UInt8 {
        if value < 0x80 { return ascii[Int(value)] }
        guard let scalar = Unicode.Scalar(value) else { return nonWord }
        let p = scalar.properties
        if p.isWhitespace { return white }
        if p.isLowercase { return lower }
        if p.isUppercase { return upper }
        if p.isAlphabetic { return letter }
        if p.numericType != nil { return number }
        return nonWord
    }

    /// `bonus[prev &* 8 &+ cur]`: fzf's position bonus (default scheme) of
    /// a char of class `cur` preceded by one of class `prev`. A delimiter
    /// counts as a word char for boundaries, as in fzf (`/` after a space
    /// earns 10). The score bounds use this table raised by
    /// `pathNonWordBonus`: together they are the largest of the schemes at
    /// every position.
    static let bonus: [UInt8] = (0..<64).map { FzfBonusTable.default.bonus[$0] }

    /// What a byte earns itself under the `path` scheme beyond `bonus`:
    /// there `, : ; |` are non-word chars, which earn `FuzzyScoring.nonWord`
    /// wherever they stand, while the default scheme's delimiters earn
    /// nothing themselves.
    static let pathNonWordBonus: [UInt8] = (0..<256).map { v in
        ",:;|".utf8.contains(UInt8(v)) ? UInt8(FuzzyScoring.nonWord) : 0
    }

    /// The best bonus any scheme gives a char of class `cur` (byte `byte`)
    /// after one of class `prev`: what score bounds read.
    @inline(__always) static func boundBonus(prev: UInt8, cur: UInt8, byte: UInt8) -> Int {
        max(bonusFor(prev: prev, cur: cur), Int(pathNonWordBonus[Int(byte)]))
    }

    static func bonusFor(prev: UInt8, cur: UInt8) -> Int {
        FzfBonusTable.bonusFor(prev: prev, cur: cur, white: FuzzyScoring.boundaryWhite,
                               delimiter: FuzzyScoring.boundaryDelimiter)
    }

    /// The substring matcher's position bonus table (its score formula is
    /// its own: a delimiter is not a word char there).
    static let substringBonus: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 64)
        for prev in 0..<7 {
            for cur in 0..<7 {
                table[prev * 8 + cur] = UInt8(substringBonusFor(prev: UInt8(prev), cur: UInt8(cur)))
            }
        }
        return table
    }()

    static func substringBonusFor(prev: UInt8, cur: UInt8) -> Int {
        let isWord = cur > delimiter
        if isWord {
            if prev == white { return FuzzyScoring.boundaryWhite }
            if prev == delimiter { return FuzzyScoring.boundaryDelimiter }
            if prev == nonWord { return FuzzyScoring.boundary }
        }
        if prev == lower && cur == upper { return FuzzyScoring.camel123 }
        if prev != number && cur == number { return FuzzyScoring.camel123 }
        if cur == nonWord || cur == delimiter { return FuzzyScoring.nonWord }
        if cur == white { return FuzzyScoring.boundaryWhite }
        return 0
    }
}

/// The fuzzy scoring constants (fzf's values).
public enum FuzzyScoring {
    /// Every matched query character.
    public static let match = 16
    /// First unmatched text character between two matched ones.
    public static let gapStart = -3
    /// Each further unmatched character of the same gap.
    public static let gapExtension = -1
    /// Word character after a non-word character (`-`, `_`, `.`, …).
    public static let boundary = 8
    /// Word character after whitespace or at the start of the text.
    public static let boundaryWhite = 10
    /// Word character after one of `/ , : ; |`.
    public static let boundaryDelimiter = 9
    /// A matched non-word character itself (fuzzy: not a delimiter).
    public static let nonWord = 8
    /// Lower→upper (camelCase) and non-digit→digit transitions.
    public static let camel123 = 7
    /// Minimum bonus of a character that extends a consecutive run.
    public static let consecutive = 4
    /// The first query character's position bonus is multiplied by this.
    public static let firstCharMultiplier = 2
}
