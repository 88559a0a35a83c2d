/// Extended queries over fields (`SearchFields`): each term is matched in
/// the fields in order, and the first field where it matches gives its
/// score and positions (fzf's `--nth 1,2,…`: its `iter` over the chosen
/// tokens). A term never matches across two fields; an inverse term fails
/// when any field holds it.
extension FzfQuery {
    /// `score(…)` for a text of fields: each set's score from the first of
    /// its terms that matches in some field, spans in scalars of the joined
    /// text.
    /// - Complexity: O(terms × length × term length)
    func fieldedScore(_ table: TextTable, _ i: Int, scheme: FzfBonusTable, forward: Bool,
                      workspace ws: FuzzyWorkspace, offsets: inout FzfOffsets, exactStart: Bool) -> Int? {
        if table.isNil(i) { return nil }
        if table.isASCII(i) && !fieldsMayMatch(table, i) { return nil }
        let views = ws.fieldViews
        let fields = views.load(table, i)
        var total = 0
        for set in sets {
            guard let (score, found) = Self.fieldedMatchSet(set, fields, fieldCount: views.count, scheme: scheme,
                                                            forward: forward, workspace: ws)
            else { return nil }
            if let (term, span, field) = found {
                var start = span.start
                if exactStart && term.type == .fuzzy {
                    let (units, bonus) = FuzzyMatcher.compared(fields, 2 &* field, pattern: term.pattern, scheme: scheme)
                    start = FzfAlgo.positions(text: units, bonus: bonus, pattern: term.pattern.units,
                                              forward: forward).first ?? start
                }
                let shift = views.scalarStart(field)
                offsets.add(start &+ shift, span.end &+ shift)
            }
            total &+= score
        }
        return total
    }

    /// Whether ASCII text `i` (all its fields together) can match: a set of
    /// plain terms needs one whose chars are in it in order (fuzzy) or
    /// together (the others), which any field holding the term has. Read
    /// before the fields are found.
    /// - Complexity: O(sets × length)
    func fieldsMayMatch(_ table: TextTable, _ i: Int) -> Bool {
        for set in sets where !set.contains(where: \.inverse) {
            let possible = set.contains { term in
                guard term.pattern.isASCII else { return false }
                let units = term.pattern.caseSensitive ? table.original(i) : table.foldedText(i)
                return term.bytes.withUnsafeBufferPointer { p in
                    term.type == .fuzzy ? FuzzyMatcher.prefilter(p, units) != nil
                                        : SubstringMatcher.firstOccurrence(of: p, in: units) != nil
                }
            }
            if !possible { return false }
        }
        return true
    }

    /// `matchSet` over fields: a term matches in the first field where it
    /// does. Returns the score and the term that set it with its span (in
    /// the field) and the field (nil: an inverse term).
    static func fieldedMatchSet(_ set: [FzfTerm], _ fields: TextTable, fieldCount: Int, scheme: FzfBonusTable,
                                forward: Bool, workspace ws: FuzzyWorkspace)
        -> (Int, (FzfTerm, FzfAlgo.Span, Int)?)? {
        var result: (Int, (FzfTerm, FzfAlgo.Span, Int)?)?
        for term in set {
            var hit: (FzfAlgo.Span, Int)?
            for field in 0..<fieldCount {
                if let span = term.match(fields, 2 &* field, scheme: scheme, forward: forward, workspace: ws) {
                    hit = (span, field)
                    break
                }
            }
            if let (span, field) = hit {
                if term.inverse { continue }
                return (span.score, (term, span, field))
            } else if term.inverse {
                result = (0, nil)
            }
        }
        return result
    }

    /// `positions(…)` for a text of fields: every matching term's positions
    /// in the field it matched, as scalar positions of the joined text.
    /// - Complexity: O(terms × length × term length) time and space.
    func fieldedPositions(_ table: TextTable, _ i: Int, scheme: FzfBonusTable, forward: Bool) -> [Int] {
        if table.isNil(i) { return [] }
        let ws = FuzzyWorkspace()
        let views = ws.fieldViews
        let fields = views.load(table, i)
        var out = Set<Int>()
        for set in sets {
            guard let (_, found) = Self.fieldedMatchSet(set, fields, fieldCount: views.count, scheme: scheme,
                                                        forward: forward, workspace: ws),
                  let (term, _, field) = found else { continue }
            let shift = views.scalarStart(field)
            let j = 2 &* field
            let (units, bonus) = FuzzyMatcher.compared(fields, j, pattern: term.pattern, scheme: scheme)
            if term.type == .fuzzy {
                let positions = FzfAlgo.positions(text: units, bonus: bonus, pattern: term.pattern.units, forward: forward)
                out.formUnion(positions.map { $0 &+ shift })
            } else {
                let span = units.withUnsafeBufferPointer { t in
                    bonus.withUnsafeBufferPointer { b in
                        term.pattern.units.withUnsafeBufferPointer { p in
                            b.baseAddress.flatMap {
                                term.run(text: t, bonus: $0, pattern: p, scheme: scheme, forward: forward, workspace: ws)
                            }
                        }
                    }
                }
                if let span { out.formUnion(span.start &+ shift ..< span.end &+ shift) }
            }
        }
        return out.sorted()
    }
}

/// One text of fields seen as a table of its own: text `2f` is field `f`
/// (the odd texts are the separators between them), read in place from
/// the joined text's buffers, so every matcher reads a field as it reads
/// a whole text (the field's start is a text start for position bonuses,
/// as fzf matches each `--nth` token on its own). One per scan thread
/// (`FuzzyWorkspace.fieldViews`); a loaded table is valid until the next
/// `load`.
final class FieldViews {
    private var offsets: UnsafeMutablePointer<Int>
    private var foldedOffsets: UnsafeMutablePointer<Int>
    private var flags: UnsafeMutablePointer<UInt8>
    private var starts: UnsafeMutablePointer<Int>
    private var capacity = 8
    /// Fields of the loaded text.
    private(set) var count = 0

    init() {
        offsets = .allocate(capacity: 2 * capacity)
        foldedOffsets = .allocate(capacity: 2 * capacity)
        flags = .allocate(capacity: 2 * capacity)
        starts = .allocate(capacity: capacity)
    }

    deinit {
        offsets.deallocate(); foldedOffsets.deallocate(); flags.deallocate(); starts.deallocate()
    }

    /// Where field `f` of the loaded text starts, in scalars of the joined
    /// text.
    @inline(__always) func scalarStart(_ f: Int) -> Int { starts[f] }

    private func reserve(_ fields: Int) {
        guard fields > capacity else { return }
        offsets.deallocate(); foldedOffsets.deallocate(); flags.deallocate(); starts.deallocate()
        capacity = max(fields, capacity * 2)
        offsets = .allocate(capacity: 2 * capacity)
        foldedOffsets = .allocate(capacity: 2 * capacity)
        flags = .allocate(capacity: 2 * capacity)
        starts = .allocate(capacity: capacity)
    }

    /// Text `i` of `table` (not nil) as its fields.
    /// - Complexity: O(length of the text)
    func load(_ table: TextTable, _ i: Int) -> TextTable {
        let base = table.offsets[i], end = table.offsets[i &+ 1]
        let foldedBase = table.foldedOffsets[i], foldedEnd = table.foldedOffsets[i &+ 1]
        let ascii = table.isASCII(i)
        let sep = SearchFields.separator
        var fields = 1
        for p in base..<end where table.bytes[p] == sep { fields &+= 1 }
        reserve(fields)
        count = fields
        let flag = table.flags[i] & (SearchIndex.Flag.isASCII | SearchIndex.Flag.hasHump)
        for k in 0..<(2 &* fields &- 1) { flags[k] = flag }
        // Original bytes and scalar starts.
        var k = 0
        var scalars = 0
        offsets[0] = base
        starts[0] = 0
        var p = base
        while p < end {
            let b = table.bytes[p]
            if b == sep {
                offsets[2 &* k &+ 1] = p
                offsets[2 &* k &+ 2] = p &+ 1
                k &+= 1
                starts[k] = scalars &+ 1
            }
            if b & 0xC0 != 0x80 { scalars &+= 1 }
            p &+= 1
        }
        offsets[2 &* fields &- 1] = end
        // The folded copy: the same positions for ASCII, found again
        // otherwise (a separator folds to itself, nothing else folds to it).
        if ascii {
            for j in 0..<(2 &* fields) { foldedOffsets[j] = offsets[j] &- base &+ foldedBase }
        } else {
            var f = 0
            foldedOffsets[0] = foldedBase
            for q in foldedBase..<foldedEnd where table.folded[q] == sep && f &+ 1 < fields {
                foldedOffsets[2 &* f &+ 1] = q
                foldedOffsets[2 &* f &+ 2] = q &+ 1
                f &+= 1
            }
            foldedOffsets[2 &* fields &- 1] = foldedEnd
        }
        let n = 2 &* fields &- 1
        return TextTable(bytes: table.bytes, folded: table.folded,
                         offsets: UnsafeBufferPointer(start: offsets, count: n &+ 1),
                         foldedOffsets: UnsafeBufferPointer(start: foldedOffsets, count: n &+ 1),
                         flags: UnsafeBufferPointer(start: flags, count: n),
                         masks: UnsafeBufferPointer(start: nil, count: 0))
    }
}
