extension SearchMatchSet {
    /// The most segments a set moved through appends shares before it is
    /// copied into one.
    static let maximumSharedSegments = 8

    /// This set moved through an edit: the same query's matches in the
    /// index `splice` makes of this set's index, given the inserted texts
    /// that match (`inserted`: positions after the splice, ascending, each
    /// an entry of `splice.inserted`, already filtered by the query and
    /// the scope). One copied segment, in index order.
    ///
    /// An `edit` under a search drops the index's match sets (positions in
    /// the old index), so without this the keystroke after an Enter in a
    /// picker would scan from scratch instead of narrowing the current
    /// query's matches. Moving the current set costs a copy of its texts
    /// (O(matches' bytes)).
    ///
    /// Inserted texts get no resume position (a fuzzy query extending this
    /// one matches them from scratch).
    ///
    /// When the splice only appends (a list streaming in), the matches keep
    /// their positions: their segments are shared, not copied, and the
    /// inserted matches get a segment of their own, so a batch costs
    /// O(its matches) however long the list. Past `maximumSharedSegments`
    /// segments the set is copied into one again (a scan reads a few long
    /// segments best).
    /// - Complexity: O(matches + their bytes + changes); O(inserted
    ///   matches' bytes) for an append while the segments are few.
    /// `index`: the index after the splice, when it already holds the
    /// inserted texts: they are copied from it instead of being indexed
    /// again.
    func translated(through splice: IndexSplice, inserted: [(at: Int, text: SplicedText)],
                    index: SearchIndex? = nil) -> SearchMatchSet? {
        // Copies and resume positions made in the background, once done.
        let segments = scanSegments
        // Where the inserted texts are: the spliced index, at their
        // positions, or an index of their own.
        let spliced = index.flatMap { $0.count == indexCount + splice.countChange ? $0 : nil }
        let added = spliced ?? SearchIndex(texts: inserted.map(\.text.string))
        // The row of `added` holding inserted text `k`.
        func insertedRow(_ k: Int) -> Int { spliced == nil ? k : inserted[k].at }
        if splice.onlyAppends(after: indexCount), segments.count < Self.maximumSharedSegments {
            var shared = segments
            if !inserted.isEmpty {
                let bytes = inserted.reduce(0) { $0 + $1.text.utf8Count }
                var builder = SegmentBuilder(texts: inserted.count, bytes: bytes, pool: pool)
                added.withTable { table in
                    for (k, entry) in inserted.enumerated() { builder.append(table, insertedRow(k), id: entry.at, resume: -1) }
                }
                shared.append(builder.build())
            }
            return SearchMatchSet(query: query, indexCount: indexCount + splice.countChange, segments: shared, pool: pool,
                                  ranked: ranked)
        }
        // Every entry's index before the splice, in order (segments are
        // consecutive runs of the index).
        var oldIDs: [Int] = []
        oldIDs.reserveCapacity(count)
        var bytes = 0
        for segment in segments {
            segment.forEachIndex { oldIDs.append($0) }
            bytes += segment.averageTextBytes * segment.count
        }
        guard let newIDs = splice.translatingKeepingRemoved(oldIDs) else { return nil }
        var builder = SegmentBuilder(texts: newIDs.count + inserted.count, bytes: bytes + 32 * inserted.count, pool: pool)
        var next = 0  // into `inserted`
        func appendInserted(before id: Int) {
            guard next < inserted.count && inserted[next].at < id else { return }
            added.withTable { table in
                while next < inserted.count && inserted[next].at < id {
                    builder.append(table, insertedRow(next), id: inserted[next].at, resume: -1)
                    next += 1
                }
            }
        }
        var k = 0  // into `newIDs`
        for segment in segments {
            let entries = segment.positions?.count ?? segment.count
            segment.withTable { table in
                for j in 0..<entries {
                    defer { k += 1 }
                    guard let id = newIDs[k] else { continue }  // removed by the edit
                    appendInserted(before: id)
                    let row = segment.positions.map { $0[j] } ?? j
                    builder.append(table, row, id: id, resume: segment.resume.indices.contains(j) ? segment.resume[j] : -1)
                }
            }
        }
        appendInserted(before: Int.max)
        return SearchMatchSet(query: query, indexCount: indexCount + splice.countChange, segments: [builder.build()],
                              pool: pool, ranked: splice.onlyAppends(after: indexCount) ? ranked : nil)
    }
}
