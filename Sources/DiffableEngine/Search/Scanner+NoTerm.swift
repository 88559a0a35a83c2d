/// A query with no term left (`'`, `^`, `!`, spaces: a picker's first key
/// of an extended query) matches every text with score 0, in index order
/// (`PreparedQuery.criteria` is empty, as fzf leaves it unsorted).
///
/// Such a query is taken whole: its matches are the scanned range itself,
/// selected at once, and its hits are the range's first texts, so no text
/// is read and no bound is computed.
extension Scanner {
    /// Whether `texts` of a range scan are taken whole by `takeEvery`.
    var takesEveryText: Bool { query.isEmpty && query.keyKind == .none }

    /// Every text of `texts` (positions in the table, which are the
    /// index's: a range scan) as a match with score 0, into `state`.
    /// - Complexity: O(texts.count) to select the matches (a copy of
    ///   consecutive positions), O(k) for the hits (O(texts.count) for
    ///   `.all`).
    func takeEvery(_ texts: Range<Int>, into state: inout ChunkResult) {
        if state.stopped || texts.isEmpty { return }
        if state.keepMatches {
            if state.selection != nil && !state.copying {
                state.selection?.select(range: texts, resume: 0)
            } else {
                state.matches.append(contentsOf: texts)
            }
        }
        switch state.ranking {
        case .none:
            break
        case .firstInSource(let k):
            for i in texts.prefix(max(k - state.keys.count, 0)) { state.keys.append(RankKey(score: 0, length: 0, index: i)) }
        case .best(let k):
            // Every key ties but for the index, and the indices ascend:
            // the range's first k are its best.
            for i in texts.prefix(max(k, 0)) { state.top.insert(RankKey(score: 0, length: 0, index: i)) }
        case .all:
            state.keys.reserveCapacity(state.keys.count + texts.count)
            for i in texts { state.keys.append(RankKey(score: 0, length: 0, index: i)) }
        }
    }
}
