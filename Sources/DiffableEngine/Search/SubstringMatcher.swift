/// Case-insensitive substring matching (the people-picker behaviour:
/// `text.lowercased().contains(query.lowercased())`, plus Latin-1 accent
/// folding). Substring mode is **always** case-insensitive, even when the
/// query contains uppercase letters (smart case applies to fuzzy mode only).
///
/// Only the **first** occurrence counts, for both the score and the highlight:
///
///     score = 100 × bonus(first matched char) + (100 − min(position, 99))
///
/// where `position` is the scalar offset of the occurrence and `bonus` is the
/// fuzzy position bonus (`FuzzyScoring`: 10 at the text start or after
/// whitespace, 9 after `/ , : ; |`, 8 after other punctuation, 7 on a
/// camelCase hump or letter→digit, 0 mid-word). So a word-start match always
/// beats a mid-word match, and among equal kinds the earlier one wins.
enum SubstringMatcher {
    /// Byte offset of the first occurrence of `needle` in `hay` (both valid
    /// UTF-8, so any byte match is scalar-aligned), or `nil`.
    /// - Complexity: O(hay.count × needle.count) worst case, ~O(hay.count) typical.
    @inline(__always)
    static func firstOccurrence(of needle: UnsafeBufferPointer<UInt8>,
                                in hay: UnsafeBufferPointer<UInt8>) -> Int? {
        let m = needle.count
        let n = hay.count
        guard m > 0 else { return 0 }
        guard n >= m, let h = hay.baseAddress, let q = needle.baseAddress else { return nil }
        let first = q[0]
        let end = n &- m &+ 1
        var p = ByteScan.find(first, h, from: 0, end: end)
        while p < end {
            var k = 1
            while k < m && h[p &+ k] == q[k] { k &+= 1 }
            if k == m { return p }
            p = ByteScan.find(first, h, from: p &+ 1, end: end)
        }
        return nil
    }

    /// The score of text `i` for the folded UTF-8 `needle`, or `nil` when it
    /// does not contain it.
    /// - Complexity: O(length of the text × needle.count) worst case.
    static func score(_ table: TextTable, _ i: Int, needle: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let (position, bonus) = match(table, i, needle: needle) else { return nil }
        return 100 * bonus + (100 - min(position, 99))
    }

    /// Scalar position and boundary bonus of the first occurrence.
    static func match(_ table: TextTable, _ i: Int,
                      needle: UnsafeBufferPointer<UInt8>) -> (position: Int, bonus: Int)? {
        if table.isNil(i) { return nil }
        let hay = table.foldedText(i)
        guard let p = firstOccurrence(of: needle, in: hay) else { return nil }
        if table.isASCII(i) {
            let source = table.classBytes(i)
            let cur = CharClass.of(byte: source[p])
            let prev = p == 0 ? CharClass.white : CharClass.of(byte: source[p - 1])
            return (p, CharClass.substringBonusFor(prev: prev, cur: cur))
        }
        // Non-ASCII: count scalars before the occurrence, classify from the original.
        let position = TextFolding.scalarCount(UnsafeBufferPointer(rebasing: hay[0..<p]))
        var scalars: [UInt32] = []
        TextFolding.decode(table.original(i), into: &scalars)
        guard position < scalars.count else { return (position, 0) }
        let cur = CharClass.of(scalars[position])
        let prev = position == 0 ? CharClass.white : CharClass.of(scalars[position - 1])
        return (position, Int(CharClass.substringBonus[Int(prev) &* 8 &+ Int(cur)]))
    }

    /// The first occurrence as a scalar range `[start, end)`.
    /// - Complexity: O(length of the text × needle.count) worst case.
    static func highlight(_ table: TextTable, _ i: Int, needle: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        guard !needle.isEmpty, let (position, _) = match(table, i, needle: needle) else { return [] }
        return [position..<position + TextFolding.scalarCount(needle)]
    }
}
