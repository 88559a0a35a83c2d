/// Finds one longest strictly increasing subsequence (patience sorting).
///
/// The diff uses it to choose the elements that stay put: the matched elements
/// whose old positions, read in new order, form a longest increasing run need
/// no move; every other matched element is reported as moved.
///
/// The scratch buffers are kept between calls so that a diff over many small
/// sections allocates once.
struct LongestIncreasingSubsequence {
    /// `tails[k]` is the index (into the values) of the smallest last element
    /// of an increasing subsequence of length `k + 1` seen so far.
    private var tails: [Int32] = []
    /// `previous[i]` is the index of the element before `values[i]` in the best
    /// subsequence ending at `values[i]`, or -1.
    private var previous: [Int32] = []

    init() {}

    /// Marks the members of one longest strictly increasing subsequence.
    ///
    /// On return `isMember` has `values.count` elements and `isMember[i]` is
    /// true exactly for the chosen subsequence. Returns its length.
    /// - Complexity: O(m log m), m = `values.count`; O(m) when `values` is
    ///   already increasing.
    mutating func mark(_ values: [Int32], into isMember: inout [Bool]) -> Int {
        let m = values.count
        isMember.removeAll(keepingCapacity: true)
        // Fast path: already increasing (the common "nothing moved" case).
        var increasing = true
        var index = 1
        while index < m {
            if values[index - 1] >= values[index] { increasing = false; break }
            index += 1
        }
        if increasing {
            isMember.append(contentsOf: repeatElement(true, count: m))
            return m
        }
        isMember.append(contentsOf: repeatElement(false, count: m))
        tails.removeAll(keepingCapacity: true)
        previous.removeAll(keepingCapacity: true)
        previous.reserveCapacity(m)
        for i in 0..<m {
            let value = values[i]
            // First k with values[tails[k]] >= value. Nearly sorted input
            // (few moves) mostly extends the longest run: test that first.
            var low = 0
            var high = tails.count
            if high > 0, values[Int(tails[high - 1])] < value { low = high }
            while low < high {
                let mid = (low &+ high) >> 1
                if values[Int(tails[mid])] < value { low = mid + 1 } else { high = mid }
            }
            previous.append(low > 0 ? tails[low - 1] : -1)
            if low == tails.count {
                tails.append(Int32(truncatingIfNeeded: i))
            } else {
                tails[low] = Int32(truncatingIfNeeded: i)
            }
        }
        var cursor = tails.last.map(Int.init) ?? -1
        while cursor >= 0 {
            isMember[cursor] = true
            cursor = Int(previous[cursor])
        }
        return tails.count
    }
}

/// Indices (ascending) of one longest strictly increasing subsequence of `values`.
/// - Complexity: O(m log m), m = `values.count`.
func longestIncreasingSubsequenceIndices(_ values: [Int32]) -> [Int] {
    var solver = LongestIncreasingSubsequence()
    var isMember: [Bool] = []
    _ = solver.mark(values, into: &isMember)
    return isMember.indices.filter { isMember[$0] }
}
