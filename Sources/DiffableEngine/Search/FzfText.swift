/// How fzf sees one character: its class (for position bonuses), its
/// lowercase and its Latin normalization. fzf decides per query term whether
/// the text is lowercased (smart case: the term has no uppercase letter) and
/// whether it is normalized (the lowercased term has no letter that
/// normalizes), then compares the text's transformed characters with the
/// term's.
enum FzfText {
    /// The ASCII letter `v` normalizes to, or `v` itself.
    /// - Complexity: O(1) below U+0250, O(log 257) above.
    @inline(__always)
    static func normalize(_ v: UInt32) -> UInt32 {
        if v < 0xC0 || v > 0xFF61 { return v }
        if v < 0x250 {
            let n = normalizedDense[Int(v &- 0xC0)]
            return n == 0 ? v : UInt32(n)
        }
        var low = 0, high = normalizedSparse.count
        while low < high {
            let mid = (low &+ high) >> 1
            let key = normalizedSparse[mid] >> 8
            if key == v { return normalizedSparse[mid] & 0xFF }
            if key < v { low = mid &+ 1 } else { high = mid }
        }
        return v
    }

    /// The simple lowercase mapping (one scalar, as Go's `unicode.ToLower`):
    /// ASCII by arithmetic, others from the Unicode tables.
    /// - Complexity: O(1)
    @inline(__always)
    static func lower(_ v: UInt32) -> UInt32 {
        if v < 0x80 { return v &- 0x41 < 26 ? v | 0x20 : v }
        return lowerNonASCII(v)
    }

    /// Out of line: reading Unicode properties sets up their metadata,
    /// which callers inlining it would pay on every call.
    @inline(never)
    static func lowerNonASCII(_ v: UInt32) -> UInt32 {
        guard let scalar = Unicode.Scalar(v), scalar.properties.changesWhenLowercased else { return v }
        // Only U+0130 has a longer full mapping ("i" + U+0307); its simple
        // mapping is the first scalar.
        return scalar.properties.lowercaseMapping.unicodeScalars.first?.value ?? v
    }

    /// fzf's class of a non-ASCII scalar (delimiters are ASCII): lowercase,
    /// uppercase, number, other letter, whitespace, else non-word, in that
    /// order of tests.
    /// - Complexity: O(1)
    @inline(never)
    static func charClass(nonASCII v: UInt32) -> UInt8 {
        guard let scalar = Unicode.Scalar(v) else { return CharClass.nonWord }
        let p = scalar.properties
        switch p.generalCategory {
        case .lowercaseLetter: return CharClass.lower
        case .uppercaseLetter: return CharClass.upper
        case .decimalNumber, .letterNumber, .otherNumber: return CharClass.number
        case .titlecaseLetter, .modifierLetter, .otherLetter: return CharClass.letter
        default: return p.isWhitespace ? CharClass.white : CharClass.nonWord
        }
    }

    /// Whether the lowercase of `scalars` differs from them (fzf's smart case:
    /// such a term is matched case-sensitively).
    static func hasUppercase<S: Sequence>(_ scalars: S) -> Bool where S.Element == UInt32 {
        scalars.contains { lower($0) != $0 }
    }

    /// Whether any of `scalars` normalizes (fzf then leaves the text's
    /// accents alone for that term).
    static func hasNormalizable<S: Sequence>(_ scalars: S) -> Bool where S.Element == UInt32 {
        scalars.contains { normalize($0) != $0 }
    }

    /// Whether `v` is whitespace as Go's `unicode.IsSpace` says.
    @inline(__always)
    static func isSpace(_ v: UInt32) -> Bool {
        switch v {
        case 0x20, 0x09...0x0D, 0x85, 0xA0: return true
        case 0..<0x80: return false
        default: return isSpaceNonASCII(v)
        }
    }

    /// Out of line, as `lowerNonASCII`.
    @inline(never)
    static func isSpaceNonASCII(_ v: UInt32) -> Bool {
        Unicode.Scalar(v)?.properties.isWhitespace ?? false
    }
}

/// One fzf query term's characters in the form they are compared: its
/// scalars lowercased unless case-sensitive, and normalized when it
/// normalizes the text.
struct FzfPattern: Sendable, Equatable {
    /// The scalars as typed.
    let typed: [UInt32]
    /// The compared scalars.
    let units: [UInt32]
    /// The text is compared as is (the term has an uppercase letter).
    let caseSensitive: Bool
    /// The text's Latin letters are normalized (the term has none that
    /// normalize).
    let normalize: Bool
    /// Every unit is ASCII (otherwise no ASCII text can match).
    let isASCII: Bool

    /// A term typed as `scalars`, with fzf's smart case.
    init(typed scalars: [UInt32]) {
        typed = scalars
        let lowered = scalars.map(FzfText.lower)
        caseSensitive = lowered != scalars
        normalize = !FzfText.hasNormalizable(lowered)
        let base = caseSensitive ? scalars : lowered
        units = normalize ? base.map(FzfText.normalize) : base
        isASCII = units.allSatisfy { $0 < 0x80 }
    }

    /// The text scalar `v` (of class `cls`) as this pattern compares it.
    @inline(__always)
    func transform(_ v: UInt32, class cls: UInt8) -> UInt32 {
        let c = fold(v, class: cls)
        return normalize && c >= 0x80 ? FzfText.normalize(c) : c
    }

    /// `transform` without the normalization: the case folded only.
    @inline(__always)
    func fold(_ v: UInt32, class cls: UInt8) -> UInt32 {
        if v < 0x80 { return !caseSensitive && cls == CharClass.upper ? v | 0x20 : v }
        return !caseSensitive && cls == CharClass.upper ? FzfText.lower(v) : v
    }
}
