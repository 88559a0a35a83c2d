/// Carrying an index across a small edit instead of rebuilding it.
///
/// Rebuilding folds and copies every text, which the keystroke after an
/// `edit` would pay for. A splice copies the flat buffers once, run by run,
/// around the changed texts: O(total bytes) of `memcpy` plus O(count)
/// offset additions, whatever the number of changes, and no folding.
extension SearchIndex {
    /// The index after a batch of changes in UIKit batch coordinates: the
    /// texts at `removed` (positions in `self`, ascending, distinct) leave,
    /// then `inserted` (positions in the result, ascending, distinct) come
    /// in with their texts. A changed text is removed at its old position
    /// and inserted at its new one.
    ///
    /// Returns nil when the positions do not describe such a batch (out of
    /// range, unsorted, or not adding up); the caller then rebuilds.
    /// - Complexity: O(total UTF-8 length + count), plus the inserted texts.
    func splicing(removed: [Int], inserted: [(at: Int, text: SplicedText)]) -> SearchIndex? {
        let newCount = count - removed.count + inserted.count
        guard newCount >= 0 else { return nil }
        for k in removed.indices where removed[k] < 0 || removed[k] >= count || (k > 0 && removed[k - 1] >= removed[k]) {
            return nil
        }
        for k in inserted.indices where inserted[k].at < 0 || inserted[k].at >= newCount
            || (k > 0 && inserted[k - 1].at >= inserted[k].at) {
            return nil
        }
        // Texts appended after the last one (a list that streams in): the
        // buffers are extended, not copied run by run.
        var out = self
        if out.appendInPlace(removed: removed, inserted: inserted) { return out }
        out = SearchIndex()
        out.tracksBonusMasks = tracksBonusMasks
        out.bytes.reserveCapacity(bytes.count + 64 * inserted.count)
        out.folded.reserveCapacity(folded.count + 64 * inserted.count)
        out.offsets.reserveCapacity(newCount + 1)
        out.foldedOffsets.reserveCapacity(newCount + 1)
        out.flags.reserveCapacity(newCount)
        out.bonusMasks.reserveCapacity(newCount)
        out.wordPairs.reserveCapacity(newCount)
        out.presence.reserveCapacity(newCount)

        var old = 0      // next position of `self` to consider
        var r = 0        // next entry of `removed`
        /// Copies kept texts of `self` until `out` holds `target` texts (or
        /// `self` is exhausted).
        func copyKept(until target: Int) {
            while out.count < target {
                while r < removed.count && removed[r] == old { old += 1; r += 1 }
                guard old < count else { return }
                let nextRemoved = r < removed.count ? removed[r] : count
                let room = target - out.count
                let end = room >= nextRemoved - old ? nextRemoved : old + room
                out.appendRun(of: self, old..<end)
                old = end
            }
        }
        // Consecutive inserted texts are appended together (one call each
        // run: a batch of appended items is one run).
        var k = 0
        while k < inserted.count {
            let at = inserted[k].at
            copyKept(until: at)
            guard out.count == at else { return nil }
            var end = k + 1
            while end < inserted.count && inserted[end].at == at + (end - k) { end += 1 }
            out.append(spliced: Array(inserted[k..<end]))
            k = end
        }
        copyKept(until: Int.max)
        while r < removed.count && removed[r] == old { old += 1; r += 1 }
        guard out.count == newCount, r == removed.count, old == count else { return nil }
        return out
    }

    /// Appends the texts `range` of `other`, as stored there (no folding).
    /// - Complexity: O(their bytes + range.count)
    mutating func appendRun(of other: SearchIndex, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let byteDelta = bytes.count - other.offsets[range.lowerBound]
        let foldedDelta = folded.count - other.foldedOffsets[range.lowerBound]
        bytes.append(contentsOf: other.bytes[other.offsets[range.lowerBound]..<other.offsets[range.upperBound]])
        folded.append(contentsOf: other.folded[other.foldedOffsets[range.lowerBound]..<other.foldedOffsets[range.upperBound]])
        flags.append(contentsOf: other.flags[range])
        presence.append(contentsOf: other.presence[range])
        if tracksBonusMasks {
            bonusMasks.append(contentsOf: other.bonusMasks[range])
            wordPairs.append(contentsOf: other.wordPairs[range])
        }
        let ends = range.lowerBound + 1...range.upperBound
        offsets.append(contentsOf: other.offsets[ends].lazy.map { $0 + byteDelta })
        foldedOffsets.append(contentsOf: other.foldedOffsets[ends].lazy.map { $0 + foldedDelta })
    }
}

extension SearchIndex {
    /// Makes the splice in place when it only appends texts after the last
    /// one (a list streaming in); false, and nothing changed, otherwise.
    /// On an index no other value shares, the buffers grow where they
    /// are: the texts already indexed are not copied.
    /// - Complexity: amortized O(UTF-8 length of the appended texts).
    mutating func appendInPlace(removed: [Int], inserted: [(at: Int, text: SplicedText)]) -> Bool {
        guard removed.isEmpty, let first = inserted.first, first.at == count,
              inserted.last?.at == count + inserted.count - 1 else { return false }
        for k in inserted.indices.dropFirst() where inserted[k - 1].at >= inserted[k].at { return false }
        append(spliced: inserted)
        return true
    }
}
