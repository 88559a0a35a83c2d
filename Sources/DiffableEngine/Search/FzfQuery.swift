/// How one term of an extended query matches.
enum FzfTermType: Sendable, Equatable {
    /// Subsequence, scored by `FzfAlgo` (a plain word; `'word` in exact mode).
    case fuzzy
    /// Substring (`'word`; a plain word in exact mode; `!word`).
    case exact
    /// At the start, after leading whitespace (`^word`).
    case prefix
    /// At the end, before trailing whitespace (`word$`).
    case suffix
    /// The whole text, surrounding whitespace aside (`^word$`).
    case equal
}

/// One term: its type, whether it is negated (`!`), and its chars.
struct FzfTerm: Sendable, Equatable {
    let type: FzfTermType
    let inverse: Bool
    let pattern: FzfPattern
    /// UTF-8 of `pattern.units` (compared with ASCII texts' bytes).
    let bytes: [UInt8]

    init(type: FzfTermType, inverse: Bool, pattern: FzfPattern) {
        self.type = type
        self.inverse = inverse
        self.pattern = pattern
        bytes = pattern.isASCII ? pattern.units.map { UInt8(truncatingIfNeeded: $0) } : []
    }
}

/// fzf's extended-search query: space-separated terms that must all match
/// (AND), each a set of alternatives joined by `|` (OR). Parsed as fzf
/// 0.38 parses it:
/// - leading spaces and trailing unescaped spaces are dropped; `\ ` is a
///   literal space inside a term; terms are split on runs of spaces;
/// - `|` alone between two terms joins them into one set (a leading `|`,
///   or one right after another `|`, is an ordinary term);
/// - `!` first: inverse, and exact unless `'` follows; `$` last (not alone):
///   suffix; then `'` first flips fuzzy and exact (an inverse `'` term is
///   fuzzy), or `^` first makes a prefix (with `$`: equal);
/// - a term left empty by its operators is dropped;
/// - smart case and normalization are decided per term (`FzfPattern`).
struct FzfQuery: Sendable, Equatable {
    let sets: [[FzfTerm]]
    /// The texts are fields joined by `SearchFields.separator`: each term
    /// matches in the first field where it does (`FzfQuery+Fields.swift`).
    var fielded = false

    /// No term at all: fzf shows every item, unsorted.
    var isEmpty: Bool { sets.isEmpty }

    /// Whether some term is not inverse (fzf sorts only then; a query of
    /// inverse terms keeps the input order).
    var sortable: Bool { sets.contains { $0.contains { !$0.inverse } } }

    /// The chars of the query's only term when it is one plain fuzzy term
    /// (the case the fast single-needle path handles), else nil.
    var singleFuzzyTerm: FzfPattern? {
        guard sets.count == 1, let set = sets.first, set.count == 1, let term = set.first,
              term.type == .fuzzy, !term.inverse else { return nil }
        return term.pattern
    }

    /// The pattern of a query that is one exact term of one ASCII char
    /// (`'v`; `v` with `--exact`), when scanning `forward`: it ranks and
    /// highlights as that char's fuzzy term. fzf's exact match of one char
    /// takes, scanning forward, the first occurrence whose bonus reaches a
    /// boundary's (else the first with the best bonus) and scores it as
    /// the one-char fuzzy rule does, which takes the same occurrence.
    /// Scanning backward (a tie-break `end` before `begin`) the two pick
    /// different occurrences, so such a query stays exact.
    func singleCharExactTerm(forward: Bool) -> FzfPattern? {
        guard forward, sets.count == 1, let set = sets.first, set.count == 1, let term = set.first,
              term.type == .exact, !term.inverse, term.pattern.isASCII, term.pattern.units.count == 1
        else { return nil }
        return term.pattern
    }

    /// Parses `text`; `fuzzy: false` is fzf's `--exact` (plain terms exact,
    /// `'` makes them fuzzy).
    /// - Complexity: O(text length)
    init(_ text: String, fuzzy: Bool) {
        var scalars = Array(text.unicodeScalars)
        let space: Unicode.Scalar = " ", backslash: Unicode.Scalar = "\\"
        while scalars.first == space { scalars.removeFirst() }
        while scalars.last == space && !(scalars.count >= 2 && scalars[scalars.count - 2] == backslash) {
            scalars.removeLast()
        }
        // Tokens: split on runs of spaces, `\ ` kept as a literal space. A
        // tab is a space inside its token: fzf marks an escaped space with a
        // tab while it splits, then turns every tab of a token into a space.
        let tab: Unicode.Scalar = "\t"
        var tokens: [[UInt32]] = [[]]
        var k = 0
        while k < scalars.count {
            let s = scalars[k]
            if s == backslash && k + 1 < scalars.count && scalars[k + 1] == space {
                tokens[tokens.count - 1].append(space.value)
                k += 2
                continue
            }
            if s == space {
                if tokens.last?.isEmpty == false { tokens.append([]) }
                k += 1
                continue
            }
            tokens[tokens.count - 1].append(s == tab ? space.value : s.value)
            k += 1
        }
        var sets: [[FzfTerm]] = []
        var set: [FzfTerm] = []
        var switchSet = false
        var afterBar = false
        let bar = UInt32(0x7C), bang = UInt32(0x21), dollar = UInt32(0x24)
        let quote = UInt32(0x27), caret = UInt32(0x5E)
        for token in tokens {
            if !set.isEmpty && !afterBar && token == [bar] {
                switchSet = false
                afterBar = true
                continue
            }
            afterBar = false
            var t = token[...]
            var type: FzfTermType = fuzzy ? .fuzzy : .exact
            var inverse = false
            if t.first == bang {
                inverse = true
                type = .exact
                t = t.dropFirst()
            }
            if t.count > 0 && !(t.count == 1 && t.first == dollar) && t.last == dollar {
                type = .suffix
                t = t.dropLast()
            }
            if t.first == quote {
                type = fuzzy && !inverse ? .exact : .fuzzy
                t = t.dropFirst()
            } else if t.first == caret {
                type = type == .suffix ? .equal : .prefix
                t = t.dropFirst()
            }
            guard !t.isEmpty else { continue }
            if switchSet {
                sets.append(set)
                set = []
            }
            set.append(FzfTerm(type: type, inverse: inverse, pattern: FzfPattern(typed: Array(t))))
            switchSet = true
        }
        if !set.isEmpty { sets.append(set) }
        self.sets = sets
    }

    /// Whether every text matching `self` matches `previous`: each of
    /// `previous`'s sets has a set here whose every term implies one of its
    /// terms (`FzfTerm.implies`). Sound, not complete: anything else scans
    /// as if nothing were known.
    /// - Complexity: O(terms² × term length)
    func refines(_ previous: FzfQuery) -> Bool {
        previous.sets.allSatisfy { old in
            sets.contains { new in new.allSatisfy { term in old.contains { term.implies($0) } } }
        }
    }
}

extension FzfTerm {
    /// Whether every text this term accepts is accepted by `other`.
    func implies(_ other: FzfTerm) -> Bool {
        guard inverse == other.inverse else { return false }
        let a = pattern, b = other.pattern
        // An inverse term: only the same one (kept simple and sound).
        if inverse { return type == other.type && a == b }
        // `self` must compare at least as strictly as `other`.
        if b.caseSensitive && !a.caseSensitive { return false }
        if !b.normalize && a.normalize { return false }
        var mine = a.units
        if !b.caseSensitive { mine = mine.map(FzfText.lower) }
        if b.normalize { mine = mine.map(FzfText.normalize) }
        let theirs = b.units
        switch (type, other.type) {
        case (_, .fuzzy):
            return Self.isSubsequence(theirs, of: mine)
        case (.exact, .exact), (.prefix, .exact), (.suffix, .exact), (.equal, .exact):
            return Self.isSubstring(theirs, of: mine)
        case (.prefix, .prefix), (.equal, .prefix):
            return mine.starts(with: theirs)
        case (.suffix, .suffix), (.equal, .suffix):
            return mine.reversed().starts(with: theirs.reversed())
        case (.equal, .equal):
            return mine == theirs
        default:
            return false
        }
    }

    static func isSubsequence(_ needle: [UInt32], of hay: [UInt32]) -> Bool {
        var k = 0
        for v in hay where k < needle.count && v == needle[k] { k += 1 }
        return k == needle.count
    }

    static func isSubstring(_ needle: [UInt32], of hay: [UInt32]) -> Bool {
        guard needle.count <= hay.count else { return false }
        if needle.isEmpty { return true }
        for start in 0...(hay.count - needle.count) where hay[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }
}
