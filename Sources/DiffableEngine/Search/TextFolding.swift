/// Case/accent folding and character classes shared by the matchers.
///
/// Folding is scalar-by-scalar (one Unicode scalar in, one scalar out) so a
/// folded text has exactly as many scalars as the original: positions found in
/// the folded copy are positions in the original text. Folding never makes a
/// scalar's UTF-8 encoding longer, so a folded text is never longer in bytes.
enum TextFolding {
    /// Folds one scalar value:
    /// - ASCII `A`–`Z` → `a`–`z`;
    /// - Latin-1: accented letters lose their accent and case
    ///   (`À…Å à…å` → `a`, `Ç ç` → `c`, `È…Ë è…ë` → `e`, `Ì…Ï ì…ï` → `i`,
    ///   `Ñ ñ` → `n`, `Ò…Ö Ø ò…ö ø` → `o`, `Ù…Ü ù…ü` → `u`, `Ý ý ÿ` → `y`),
    ///   `Æ Ð Þ` → `æ ð þ`, everything else unchanged (`ß`, `×`, `÷`…);
    /// - other scalars: their Unicode lowercase mapping when it is a single
    ///   scalar that encodes in no more UTF-8 bytes, otherwise unchanged.
    /// - Complexity: O(1)
    static func fold(_ value: UInt32) -> UInt32 {
        if value < 0x100 { return UInt32(latin1Fold[Int(value)]) }
        guard let scalar = Unicode.Scalar(value) else { return value }
        guard scalar.properties.changesWhenLowercased else { return value }
        let mapped = scalar.properties.lowercaseMapping.unicodeScalars
        guard mapped.count == 1, let lower = mapped.first,
              UTF8.width(lower) <= UTF8.width(scalar) else { return value }
        return lower.value
    }

    /// `latin1Fold[v]` is the fold of scalar value `v < 256`.
    static let latin1Fold: [UInt8] = {
        var table = (0..<256).map { UInt8($0) }
        for v in 0x41...0x5A { table[v] = UInt8(v + 0x20) }
        func set(_ range: ClosedRange<Int>, _ target: Character) {
            for v in range { table[v] = target.asciiValue ?? UInt8(v) }
        }
        set(0xC0...0xC5, "a"); set(0xE0...0xE5, "a")
        set(0xC7...0xC7, "c"); set(0xE7...0xE7, "c")
        set(0xC8...0xCB, "e"); set(0xE8...0xEB, "e")
        set(0xCC...0xCF, "i"); set(0xEC...0xEF, "i")
        set(0xD1...0xD1, "n"); set(0xF1...0xF1, "n")
        set(0xD2...0xD6, "o"); set(0xF2...0xF6, "o")
        set(0xD8...0xD8, "o"); set(0xF8...0xF8, "o")
        set(0xD9...0xDC, "u"); set(0xF9...0xFC, "u")
        set(0xDD...0xDD, "y"); set(0xFD...0xFD, "y"); set(0xFF...0xFF, "y")
        table[0xC6] = 0xE6; table[0xD0] = 0xF0; table[0xDE] = 0xFE
        return table
    }()

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

    /// `bonus[prev &* 8 &+ cur]`: the position bonus of a char of class `cur`
    /// preceded by a char of class `prev` (see `FuzzyScoring`).
    static let bonus: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 64)
        for prev in 0..<7 {
            for cur in 0..<7 {
                table[prev * 8 + cur] = UInt8(bonusFor(prev: UInt8(prev), cur: UInt8(cur)))
            }
        }
        return table
    }()

    static func bonusFor(prev: UInt8, cur: UInt8) -> Int {
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
    /// A matched non-word character itself.
    public static let nonWord = 8
    /// Lower→upper (camelCase) and non-digit→digit transitions.
    public static let camel123 = 7
    /// Minimum bonus of a character that extends a consecutive run.
    public static let consecutive = 4
    /// The first query character's position bonus is multiplied by this.
    public static let firstCharMultiplier = 2
}
