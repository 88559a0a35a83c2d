/// Where a scan's candidates come from, and how a list of them is
/// normalized.
extension SearchIndex {
    /// Normalizes candidates: in range, ascending, no duplicates.
    /// - Complexity: O(c), or O(c log c) when not already ascending.
    func normalized(_ candidates: [Int]) -> [Int] {
        var ascending = true
        var previous = -1
        for i in candidates {
            if i <= previous || i < 0 || i >= count { ascending = false; break }
            previous = i
        }
        if ascending { return candidates }
        var out = candidates.filter { $0 >= 0 && $0 < count }
        out.sort()
        var unique: [Int] = []
        unique.reserveCapacity(out.count)
        for i in out where unique.last != i { unique.append(i) }
        out = unique
        return out
    }
}

/// Where a scan's candidates come from.
enum ScanSource: Sendable {
    /// Positions in the index, normalized (`nil` = all).
    case index([Int]?)
    /// The positions of a range of the index (in range): a scoped section
    /// without a list of a million integers to build and check.
    case range(Range<Int>)
    /// The compacted texts of a previous match set; fuzzy matching resumes
    /// at their resume positions with the needle bytes from the given count
    /// on (`nil`: from scratch).
    case compact([CompactSegment], resumeFrom: Int?)
}
