/// Keeping the search index through a small `edit`.
///
/// Dropping the whole `SearchCache` on every snapshot change would make the
/// keystroke after an edit rebuild the index and rescan the items for the
/// placeholder id: in a people picker at a million rows, each Enter that
/// moves a person would make the next letter lag. An edit knows what it
/// changed, so the index is spliced instead (`SearchIndex.splicing`: copies,
/// no folding) and the placeholder answer is kept
/// when the edit inserted no item with that id. Match sets are positions in
/// the old index: they are dropped, and the next search scans from scratch.
///
/// The splice itself waits for the next search that reads the index
/// (`pendingSplice`; the splices of several edits compose into one), so an
/// edit stays O(changes), also under an unranked
/// search, whose rows are moved through the edit instead of searched again
/// (`DataSource+SearchThroughEdit`). A large source with a search field
/// (typed in or not) runs the splice on a background thread right after
/// the edit, one at a time (`startSplicing`), so the next keystroke finds
/// it done; a source without one (a batch client) starts no thread.
extension SearchCache {
    /// Edits with more item changes than this rebuild the index lazily, as
    /// before (the splice gathers and sorts every changed position).
    static let maxSplicedChanges = 4096
    /// Changes that may wait for the next search that reads the index
    /// (composed into one splice); more drop the index, which the next
    /// search rebuilds.
    static let maxPendingChanges = 8192
    /// Both limits for edits that only insert items (a list streaming in,
    /// `appendItems` in batches of thousands): their positions come sorted
    /// and a run of them is appended in one piece, so the splice costs one
    /// copy of the index plus the new texts, far less than a rebuild.
    static let maxSplicedInserts = 65_536

    /// The cache for `new`, which `changes` (an edit's changeset over the
    /// full snapshots) made from `old`, or nil when it cannot be carried:
    /// no index yet, sections inserted, deleted or moved, too many changes,
    /// or positions that do not fit.
    /// - Complexity: O(sections + changes log changes + waiting changes);
    ///   the splice itself waits (`applyPendingSplice`).
    func carried(over changes: Changeset, from old: Snapshot, to new: Snapshot) -> SearchCache? {
        // A background splice that has finished is the index now.
        var current = self
        current.adoptFinishedSplice()
        return current.carrying(changes, from: old, to: new)
    }

    private func carrying(_ changes: Changeset, from old: Snapshot, to new: Snapshot) -> SearchCache? {
        guard index != nil, changes.sectionDeletes.isEmpty, changes.sectionInserts.isEmpty, changes.sectionMoves.isEmpty,
              old.sections.count == new.sections.count, sectionStarts.count == old.sections.count + 1,
              sectionStarts.last == (index?.count ?? 0) + (pendingSplice?.countChange ?? 0)
        else { return nil }
        let itemChanges = changes.itemDeletes.count + changes.itemInserts.count + 2 * changes.itemMoves.count
            + 2 * (changes.itemReloads.count + changes.itemReconfigures.count)
        let insertsOnly = itemChanges == changes.itemInserts.count
        guard itemChanges <= (insertsOnly ? Self.maxSplicedInserts : Self.maxSplicedChanges) else { return nil }
        var newStarts = [0]
        newStarts.reserveCapacity(new.sections.count + 1)
        for section in new.sections { newStarts.append((newStarts.last ?? 0) + section.items.count) }

        func oldFlat(_ path: ItemPath) -> Int? {
            guard old.sections.indices.contains(path.section),
                  path.row >= 0, path.row < old.sections[path.section].items.count else { return nil }
            return sectionStarts[path.section] + path.row
        }
        // A changed row (reload, reconfigure) leaves and comes back with its
        // new text, as UIKit's batch reads a reload.
        var removedPaths = changes.itemDeletes + changes.itemMoves.map(\.from)
        var insertedPaths = changes.itemInserts + changes.itemMoves.map(\.to)
        for update in changes.itemReloads + changes.itemReconfigures {
            removedPaths.append(update.old)
            insertedPaths.append(update.new)
        }
        var removed: [Int] = []
        removed.reserveCapacity(removedPaths.count)
        for path in removedPaths {
            guard let flat = oldFlat(path) else { return nil }
            removed.append(flat)
        }
        var inserted: [(at: Int, text: SplicedText)] = []
        inserted.reserveCapacity(insertedPaths.count)
        // Only inserts can make a non-item id an item.
        let nonItem = itemMemo.knownNonItem.map(ItemID.init)
        var insertedNonItem = false
        // In row order, each section's rows read through one reader (no
        // chunk lookup or retain per row: a batch appended to a million).
        insertedPaths.sort()
        var k = 0
        while k < insertedPaths.count {
            let s = insertedPaths[k].section
            guard new.sections.indices.contains(s) else { return nil }
            var end = k + 1
            while end < insertedPaths.count && insertedPaths[end].section == s { end += 1 }
            let read = new.sections[s].items.withReader { reader -> Bool in
                for path in insertedPaths[k..<end] {
                    guard path.row >= 0, path.row < reader.count else { return false }
                    let item = reader[path.row]
                    inserted.append((newStarts[s] + path.row, splicedText(of: item)))
                    if let nonItem, item.itemID == nonItem { insertedNonItem = true }
                }
                return true
            }
            guard read else { return nil }
            k = end
        }
        removed.sort()

        let splice = IndexSplice(removed: removed, inserted: inserted)
        let pending = pendingSplice.map { $0.followed(by: splice) } ?? splice
        guard pending.changeCount <= (pending.removed.isEmpty ? Self.maxSplicedInserts : Self.maxPendingChanges)
        else { return nil }
        var cache = SearchCache()
        cache.fields = fields
        cache.index = index
        cache.pendingSplice = pending
        cache.lastSplice = splice
        // A splice still running keeps running: this edit's changes wait
        // after it, so a stream of edits runs one splice at a time.
        if let splicing {
            cache.splicing = splicing
            cache.splicedLater = splicedLater.map { $0.followed(by: splice) } ?? splice
        }
        cache.sectionStarts = newStarts
        if let id = itemMemo.knownNonItem, !insertedNonItem { cache.itemMemo = ItemIDMemo(nonItem: id) }
        return cache
    }
}

extension SearchCache {
    /// Splices the edits made since the index was last read into it (one
    /// copy of its buffers, however many edits), dropping the index if the
    /// splice does not fit: the caller then rebuilds it. A background
    /// splice is taken (waited for when it covers every waiting change),
    /// then the changes made after it started are spliced into it.
    /// - Complexity: O(total text bytes + count + changes)
    mutating func applyPendingSplice() {
        guard let splice = pendingSplice else { return }
        if let splicing, splicedLater == nil || splicing.isReady {
            let spliced = splicing.value() ?? nil
            if let later = splicedLater {
                index = spliced?.splicing(removed: later.removed, inserted: later.inserted)
            } else {
                index = spliced
            }
        } else if var appended = index {
            // Still running with more changes after it: one splice of
            // everything from the old index costs less than waiting. Taken
            // out of the cache first, so that an append grows the buffers
            // in place instead of copying them.
            index = nil
            index = appended.appendInPlace(removed: splice.removed, inserted: splice.inserted)
                ? appended : appended.splicing(removed: splice.removed, inserted: splice.inserted)
        }
        pendingSplice = nil
        splicing = nil
        splicedLater = nil
    }

    /// Appends the waiting texts to the index now, in place, when they only
    /// extend it (a list streaming in) and no background splice runs;
    /// whether the index holds every change made so far.
    /// - Complexity: amortized O(UTF-8 length of the appended texts).
    mutating func appendPendingTextsInPlace() -> Bool {
        guard let splice = pendingSplice else { return index != nil }
        guard splicing == nil, var appended = index else { return false }
        // Taken out first, so the buffers grow where they are.
        index = nil
        let done = appended.appendInPlace(removed: splice.removed, inserted: splice.inserted)
        index = appended
        if done { pendingSplice = nil }
        return done
    }

    /// Takes the background splice's index when it has finished; the
    /// changes made since it started are then what waits.
    mutating func adoptFinishedSplice() {
        guard let splicing, splicing.isReady, let spliced = splicing.value() else { return }
        index = spliced
        pendingSplice = spliced == nil ? nil : splicedLater
        self.splicing = nil
        splicedLater = nil
    }

    /// Starts splicing the waiting changes into a copy of the index on a
    /// background thread (nil if it does not fit: the index is then
    /// rebuilt), so the next keystroke finds it done. Called after an edit
    /// to a source with a search field; while a splice runs, no other
    /// starts (the next edit after it finishes starts one for what waits).
    mutating func startSplicing() {
        adoptFinishedSplice()
        guard let index, let splice = pendingSplice, splicing == nil else { return }
        splicing = BackgroundBuild { index.splicing(removed: splice.removed, inserted: splice.inserted) }
    }
}
