/// Copying a first keystroke's sparse matches after the reply.
///
/// A fuzzy scan from scratch whose matches are a minority of the texts
/// copies them into a compact segment, because the next keystroke scans a
/// dense copy (sequential reads) much faster than the same texts scattered
/// over the index (`SearchIndex.viewDivisor`). Made before the reply, that copy
/// is a large part of a first letter's time, spent while the person has
/// not typed the next letter yet.
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
///
/// The same task finds the resume positions a scan left unknown
/// (`PendingResume`): in the copy of a sparse view, or written in place
/// in a dense one. The tail sets of a fuzzy set's entries are found by a
/// task of their own, after this one (`SearchMatchSet+TailSets`).
extension SearchMatchSet {
    /// What reads resume positions (a narrowing scan, a translation through
    /// an edit) reads: the segments once copied and resumed (waiting for
    /// the rest of that task), else the segments.
    /// - Complexity: what is left of the task, then O(1).
    var scanSegments: [CompactSegment] { copying?.value() ?? segments }

    /// Starts copying the `copyLater` views among `segments` and finding
    /// pending resume positions, or nil when there is neither.
    static func copying(_ segments: [CompactSegment]) -> BackgroundBuild<[CompactSegment]>? {
        guard segments.contains(where: { $0.copyLater || $0.pendingResume != nil }) else { return nil }
        // One thread per segment, as the scan that made them (one copy
        // after the other took twice as long, and the next key waited).
        return BackgroundBuild {
            Parallel.map(segments.count, placeholder: segments[0]) { n in
                let segment = segments[n]
                if segment.copyLater { return segment.copied() }
                return segment.pendingResume != nil ? segment.resumed() : segment
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
        let pending = pendingResume
        withTable { table in
            for (k, p) in positions.enumerated() {
                let r = resume[k] < 0 ? pending?.resume(table, p) ?? resume[k] : resume[k]
                copy.append(table, p, id: ids.map { $0[p] } ?? p, resume: r)
            }
        }
        // Its tail sets are found after the copy (`SearchMatchSet+TailSets`).
        return copy.build(tailsAfter: tailStore != nil ? tailLast : nil)
    }

    /// This view with its pending resume positions found, written in
    /// place (-1 entries only): a second selection of as many positions
    /// would double what the match set holds and send the next keystroke's
    /// selection to fresh memory. Readers of `resume` wait for the match
    /// set's `copying` first (`scanSegments`). Any other segment is
    /// returned as it is.
    /// - Complexity: O(count + bytes read up to the end of each match)
    func resumed() -> CompactSegment {
        guard let positions, base != nil, let pending = pendingResume, let start = resume.baseAddress
        else { return self }
        let writable = UnsafeMutablePointer(mutating: start)
        withTable { table in
            for (k, p) in positions.enumerated() where writable[k] < 0 {
                writable[k] = pending.resume(table, p)
            }
        }
        return self
    }
}

/// Where a fuzzy needle's greedy match ends in a text it matches: what a
/// scan left unknown (-1) so as not to read the texts it matched, found
/// after the reply. A one-byte first keystroke matches every candidate
/// holding its byte; a narrowing keystroke matches a text whose tail set
/// holds the one byte left (`TailSets`).
struct PendingResume: Sendable {
    /// The folded needle (resume positions are in the folded copy).
    let needle: [UInt8]

    /// Nil unless `query` is a non-empty fuzzy needle.
    init?(_ query: PreparedQuery) {
        guard query.mode == .fuzzy, !query.bytes.isEmpty else { return nil }
        needle = query.bytes
    }

    /// The resume position in text `i` of `table` (-1 when the needle does
    /// not match it, which a scan's matches never do).
    /// - Complexity: O(bytes up to the end of the greedy match)
    func resume(_ table: TextTable, _ i: Int) -> Int32 {
        let units = table.foldedText(i)
        if needle.count == 1, let byte = needle.first {
            // A first keystroke's one byte: its first occurrence.
            guard let base = units.baseAddress else { return -1 }
            let found = ByteScan.find(byte, base, from: 0, end: units.count)
            return found < units.count ? Int32(truncatingIfNeeded: found + 1) : -1
        }
        let end = needle.withUnsafeBufferPointer { ByteScan.greedyEnd($0, from: 0, in: units, start: 0) }
        return end.map { Int32(truncatingIfNeeded: $0) } ?? -1
    }
}
