/// Copying a first keystroke's sparse matches after the reply.
///
/// A fuzzy scan from scratch whose matches are a minority of the texts
/// copies them into a compact segment, because the next keystroke scans a
/// dense copy two to three times faster than the same texts scattered over
/// the index (`SearchIndex.viewDivisor`). At 1M names and paths that copy
/// was a third of a first letter's time ("v": ~19 ms), spent before the
/// reply, while the person had not typed the next letter yet.
///
/// So such a scan keeps its matches as a view of the index (positions,
/// as a dense scan does) marked `copyLater`, and its match set starts the
/// copy on a background thread (`copying`). The next keystroke narrows the
/// copy, waiting for what is left of it: typed a tenth of a second later,
/// nothing; sent at once, at most what the copy took before. What the
/// current keystroke reads (its rows, its count) comes from the view.
///
/// Small scans (under `SearchIndex.backgroundCopyMinimum` matches per
/// thread) copy on the spot: a thread costs more than their copy.
extension SearchMatchSet {
    /// What a narrowing scan reads: the copies once built (waiting for the
    /// rest of the build), else the segments.
    /// - Complexity: what is left of the copy, then O(1).
    var scanSegments: [CompactSegment] { copying?.value() ?? segments }

    /// Starts copying the `copyLater` views among `segments`, or nil when
    /// there are none.
    static func copying(_ segments: [CompactSegment]) -> BackgroundBuild<[CompactSegment]>? {
        guard segments.contains(where: \.copyLater) else { return nil }
        // One thread per segment, as the scan that made them (one copy
        // after the other took twice as long, and the next key waited).
        return BackgroundBuild {
            Parallel.map(segments.count, placeholder: segments[0]) {
                segments[$0].copyLater ? segments[$0].copied() : segments[$0]
            }
        }
    }
}

extension SearchIndex {
    /// A sparse scan thread's matches from this many on are copied in the
    /// background (`SearchMatchSet+Copying`).
    static let backgroundCopyMinimum = 16_384
}

extension CompactSegment {
    /// This view's texts copied into a segment of their own (the same
    /// entries, indices and resume positions); a segment that is not a
    /// view is returned as it is.
    /// - Complexity: O(count + bytes of the texts)
    func copied() -> CompactSegment {
        guard let positions, base != nil else { return self }
        var copy = SegmentBuilder(texts: positions.count, bytes: positions.count * averageTextBytes, pool: pool)
        let ids = textIds
        withTable { table in
            for (k, p) in positions.enumerated() {
                copy.append(table, p, id: ids.map { $0[p] } ?? p, resume: resume[k])
            }
        }
        return copy.build()
    }
}
