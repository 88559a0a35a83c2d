extension FuzzyMatcher {
    /// The matched scalar positions of the best alignment of `query` in text
    /// `i` (the alignment whose score `score(_:_:query:workspace:)` reports;
    /// among equal scores the one ending earliest), or `[]` when it does not
    /// match. Same rules as `bestScore`, but keeps the whole matrix and the
    /// choice made in each cell to backtrack.
    /// - Complexity: O(length × query length) time and space; meant for the
    ///   few rows that are displayed.
    static func positions(_ table: TextTable, _ i: Int, query: PreparedQuery) -> [Int] {
        if table.isNil(i) { return [] }
        let text = ScalarText(table, i, caseSensitive: query.caseSensitive)
        let units = text.units
        let q = query.scalars
        let n = units.count, m = q.count
        guard m > 0, n >= m else { return [] }
        // Bound the matrix (~26 bytes per cell): huge texts get the greedy
        // leftmost alignment instead of the best one.
        if n > maxCells / m { return greedyPositions(units, q) }
        let valid = impossible / 2
        // Cell (i, j) at i * n + j.
        var mScore = [Int](repeating: impossible, count: n * m)
        var gScore = [Int](repeating: impossible, count: n * m)
        var run = [Int](repeating: 0, count: n * m)
        var fromGap = [Bool](repeating: false, count: n * m)      // M cell: came after a gap
        var gapFromGap = [Bool](repeating: false, count: n * m)   // G cell: extends a gap
        for j in 0..<n {
            let b = Int(text.bonus[j])
            for qi in 0..<m {
                let cell = qi * n + j
                if j > 0 {
                    let left = cell - 1
                    let start = mScore[left] + FuzzyScoring.gapStart
                    let extend = gScore[left] + FuzzyScoring.gapExtension
                    if start >= extend { gScore[cell] = start } else { gScore[cell] = extend; gapFromGap[cell] = true }
                }
                guard units[j] == q[qi] else { continue }
                if qi == 0 {
                    mScore[cell] = FuzzyScoring.match + b * FuzzyScoring.firstCharMultiplier
                    run[cell] = b
                    continue
                }
                guard j > 0 else { continue }
                let diagonal = cell - n - 1
                var consecutive = impossible
                var consecutiveRun = 0
                if mScore[diagonal] > valid {
                    let fb = run[diagonal]
                    var bb = b
                    if b >= FuzzyScoring.boundary && b > fb {
                        consecutiveRun = b
                    } else {
                        bb = max(max(b, FuzzyScoring.consecutive), fb)
                        consecutiveRun = fb
                    }
                    consecutive = mScore[diagonal] + FuzzyScoring.match + bb
                }
                let gap = gScore[diagonal] > valid ? gScore[diagonal] + FuzzyScoring.match + b : impossible
                if consecutive > valid && consecutive >= gap {
                    mScore[cell] = consecutive; run[cell] = consecutiveRun
                } else if gap > valid {
                    mScore[cell] = gap; run[cell] = b; fromGap[cell] = true
                }
            }
        }
        // Best end: highest score, earliest column.
        var end = -1
        var best = valid
        for j in 0..<n where mScore[(m - 1) * n + j] > best {
            best = mScore[(m - 1) * n + j]
            end = j
        }
        guard end >= 0 else { return [] }
        var result: [Int] = []
        result.reserveCapacity(m)
        var qi = m - 1, j = end, inGap = false
        while j >= 0 {
            let cell = qi * n + j
            if inGap {
                inGap = gapFromGap[cell]
                j -= 1
                continue
            }
            result.append(j)
            if qi == 0 { break }
            inGap = fromGap[cell]
            qi -= 1
            j -= 1
        }
        return result.reversed()
    }

    /// Largest DP matrix `positions` builds (query length × text length).
    static let maxCells = 4_000_000

    /// Leftmost greedy alignment (the prefilter's), as scalar positions.
    /// - Complexity: O(units.count)
    static func greedyPositions(_ units: [UInt32], _ q: [UInt32]) -> [Int] {
        var out: [Int] = []
        var qi = 0
        for (j, u) in units.enumerated() where qi < q.count && u == q[qi] {
            out.append(j)
            qi += 1
        }
        return qi == q.count ? out : []
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
