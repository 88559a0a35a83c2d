/// Reusable scratch buffers for fuzzy scoring (one per scan thread): two
/// rows of scores and run lengths for `FzfAlgo`, the greedy first
/// occurrences, and a text's bonuses and decoded units. They only grow, so
/// scoring allocates nothing once they fit the longest text seen.
final class FuzzyWorkspace {
    private(set) var rowH0: UnsafeMutablePointer<Int32>
    private(set) var rowC0: UnsafeMutablePointer<Int32>
    private(set) var rowH1: UnsafeMutablePointer<Int32>
    private(set) var rowC1: UnsafeMutablePointer<Int32>
    private(set) var first: UnsafeMutablePointer<Int>
    private(set) var bonus: UnsafeMutablePointer<UInt8>
    private(set) var units: UnsafeMutablePointer<UInt32>
    /// The units `load` wrote, case-folded but not normalized, and whether
    /// normalizing changed any (then the greedy v1 shrinks its span on
    /// these, as fzf does: `FzfAlgo.spanV1`).
    private(set) var plainUnits: UnsafeMutablePointer<UInt32>
    private(set) var loadNormalized = false
    /// One bound per set of an extended query (`FzfQueryBounds.bound`).
    private(set) var setBounds: UnsafeMutablePointer<Int>
    private var sets = 16
    private var columns = 256
    private var rows = 16
    /// A text of fields seen as its fields (`FieldViews`), made on first use.
    private(set) lazy var fieldViews = FieldViews()

    init() {
        rowH0 = .allocate(capacity: 256); rowC0 = .allocate(capacity: 256)
        rowH1 = .allocate(capacity: 256); rowC1 = .allocate(capacity: 256)
        bonus = .allocate(capacity: 256); units = .allocate(capacity: 256)
        plainUnits = .allocate(capacity: 256)
        first = .allocate(capacity: 16)
        setBounds = .allocate(capacity: 16)
    }

    deinit {
        rowH0.deallocate(); rowC0.deallocate(); rowH1.deallocate(); rowC1.deallocate()
        bonus.deallocate(); units.deallocate(); plainUnits.deallocate(); first.deallocate(); setBounds.deallocate()
    }

    /// `setBounds` with room for the bounds of `n` sets.
    func setBounds(for n: Int) -> UnsafeMutablePointer<Int> {
        if n > sets {
            setBounds.deallocate()
            sets = max(n, sets * 2)
            setBounds = .allocate(capacity: sets)
        }
        return setBounds
    }

    /// Room for a pattern of `m` units and a text of `n`.
    @inline(__always) func reserve(rows m: Int, columns n: Int) {
        if m > rows {
            first.deallocate()
            rows = max(m, rows * 2)
            first = .allocate(capacity: rows)
        }
        reserveColumns(n)
    }

    /// `plainUnits` when `text` is what `load` wrote in `units` and
    /// normalizing changed some unit, else nil.
    func plainView<T>(of text: UnsafeBufferPointer<T>) -> UnsafeBufferPointer<T>? {
        guard loadNormalized, T.self == UInt32.self, let base = text.baseAddress else { return nil }
        let loaded = UnsafeRawPointer(units)
        guard UnsafeRawPointer(base) == loaded else { return nil }
        let plain = UnsafeRawPointer(plainUnits)
        return UnsafeBufferPointer(start: plain.assumingMemoryBound(to: T.self), count: text.count)
    }

    /// Room for a text of `n` units (bonuses, units, rows).
    @inline(__always) func reserveColumns(_ n: Int) {
        guard n > columns else { return }
        rowH0.deallocate(); rowC0.deallocate(); rowH1.deallocate(); rowC1.deallocate()
        bonus.deallocate(); units.deallocate(); plainUnits.deallocate()
        columns = max(n, columns * 2)
        rowH0 = .allocate(capacity: columns); rowC0 = .allocate(capacity: columns)
        rowH1 = .allocate(capacity: columns); rowC1 = .allocate(capacity: columns)
        bonus = .allocate(capacity: columns); units = .allocate(capacity: columns)
        plainUnits = .allocate(capacity: columns)
    }

    /// Decodes text `i` of `table` (valid UTF-8) into `units` as `pattern`
    /// compares it (and into `plainUnits` without normalizing), with each
    /// unit's bonus under `scheme` in `bonus`; returns the unit count.
    /// - Complexity: O(length of the text)
    @inline(never)
    func load(_ table: TextTable, _ i: Int, pattern: FzfPattern, scheme: FzfBonusTable) -> Int {
        let bytes = table.original(i)
        reserveColumns(bytes.count)
        var n = 0
        var prev = scheme.initialClass
        let units = self.units, bonus = self.bonus, plain = self.plainUnits
        let cls = scheme.asciiClass, bt = scheme.bonus
        var normalized = false
        FzfText.forEachScalar(bytes) { v in
            let cur = v < 0x80 ? cls[Int(v)] : FzfText.charClass(nonASCII: v)
            bonus[n] = bt[Int(prev) &* 8 &+ Int(cur)]
            let folded = pattern.fold(v, class: cur)
            let unit = pattern.normalize && folded >= 0x80 ? FzfText.normalize(folded) : folded
            units[n] = unit
            plain[n] = folded
            normalized = normalized || unit != folded
            prev = cur
            n &+= 1
        }
        loadNormalized = normalized
        return n
    }
}

extension FzfText {
    /// Calls `body` with each scalar value of valid UTF-8 `bytes`.
    /// - Complexity: O(bytes.count)
    @inline(__always)
    static func forEachScalar(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt32) -> Void) {
        var k = 0
        let n = bytes.count
        while k < n {
            let b0 = UInt32(bytes[k])
            if b0 < 0x80 {
                body(b0); k &+= 1
            } else if b0 < 0xE0, k &+ 1 < n {
                body((b0 & 0x1F) << 6 | UInt32(bytes[k &+ 1]) & 0x3F); k &+= 2
            } else if b0 < 0xF0, k &+ 2 < n {
                body((b0 & 0x0F) << 12 | (UInt32(bytes[k &+ 1]) & 0x3F) << 6 | UInt32(bytes[k &+ 2]) & 0x3F)
                k &+= 3
            } else if k &+ 3 < n {
                body((b0 & 0x07) << 18 | (UInt32(bytes[k &+ 1]) & 0x3F) << 12
                     | (UInt32(bytes[k &+ 2]) & 0x3F) << 6 | UInt32(bytes[k &+ 3]) & 0x3F)
                k &+= 4
            } else {
                return
            }
        }
    }
}
