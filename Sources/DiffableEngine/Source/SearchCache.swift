import Synchronization

/// Derived search state, valid for one full snapshot: the index over its
/// texts, the last unlimited match set (for narrowing), and where each
/// visible row of a scoped section comes from.
struct SearchCache: Sendable {
    /// Built lazily on the first non-empty query after a snapshot change
    /// (an edit's changes are spliced in instead: `pendingSplice`).
    var index: SearchIndex?
    /// The changes of the edits not yet spliced into `index`, composed
    /// (see `SearchCache+Carry`).
    var pendingSplice: IndexSplice?
    /// The changes of the edit that made this snapshot, when it was carried.
    var lastSplice: IndexSplice?
    /// `index` with the changes `pendingSplice` held when it started
    /// spliced in, being built in the background (nil inside: the splice
    /// did not fit, rebuild). At most one runs per source.
    var splicing: BackgroundBuild<SearchIndex?>?
    /// The changes of the edits made since `splicing` started (composed):
    /// `pendingSplice` is `splicing`'s changes followed by these.
    var splicedLater: IndexSplice?
    /// The current query's match set moved through the last edit, being
    /// built in the background (see `DataSource+SearchThroughEdit`).
    var movedMatches: (scope: [String]?, build: BackgroundBuild<SearchMatchSet?>)?
    /// The index being built in the background while no query is typed
    /// (see `BackgroundBuild`).
    var prebuild: BackgroundBuild<SearchIndex>?
    /// `sectionStarts[s]` = flat index of section `s`'s first item; one extra
    /// entry for the total.
    var sectionStarts: [Int] = [0]
    /// Match sets of this snapshot's recent queries (`RecentMatchSets`): a
    /// Backspace returns to one, a new key narrows from the smallest one it
    /// refines.
    var recent = RecentMatchSets()
    /// The last query's unlimited matches (flat, ascending), compacted for
    /// narrowing.
    var matches: SearchMatchSet? { recent.newest?.matches }
    /// Flat index of every visible row of each section (scoped sections only;
    /// `placeholderKey` for the placeholder row). A section not listed shows
    /// all its items.
    var rowSources: [Int: [Int]] = [:]
    static let placeholderKey = -1
    /// A ranked search with a viewport ranks only the rows its window can
    /// reach: then `rowSources[deferred.section]` holds the ranked first
    /// rows, and the others follow in `deferred.rest` (see `DeferredRanking`).
    var deferred: DeferredRanking?
    /// Flat index of every item of the full snapshot, built on the first
    /// incremental expand or collapse after a snapshot change.
    var flatIndex: [ItemID: Int]?
    /// Flat index of every item's parent (-1 at the top), built on the first
    /// search of an outline after a snapshot change.
    var parentFlat: [Int32]?
    /// Storage recycled by the match sets of this source's searches, kept
    /// across snapshot changes (see `SearchIndex.evaluate`'s `pool`).
    var pool = SegmentPool()
    /// The last `containsItem` answer (shared by the source's copies).
    var itemMemo = ItemIDMemo()
    /// Set while the rows shown are a partial answer
    /// (`DataSource.setSearchPartially`): how many texts of its sample
    /// matched. The rows are not the query's match set: nothing narrows
    /// from them, and highlights are read from the rows' own texts.
    var partialMatchCount: Int?
    /// The sample partial answers rank, kept for this snapshot's keystrokes.
    var partialSample = PartialSampleMemo()
    /// The fields the texts of `index` (and of the prebuild, the splices
    /// and the match sets) are made of; nil: the items' `text`.
    var fields: SearchFields?
}

extension SearchCache {
    /// The search text of `item` in this cache's texts.
    /// - Complexity: O(length of the text), plus reading the fields.
    func text(of item: Item) -> String? {
        fields.map { $0.text(of: item) } ?? item.text
    }

    /// `text(of:)` as a splice carries it: the item itself when its own
    /// text is searched (no string made).
    func splicedText(of item: Item) -> SplicedText {
        fields.map { .string($0.text(of: item)) } ?? .item(item)
    }

    /// Keys the cache by `fields`: another field set drops every text kept
    /// (index, background builds and splices, match sets), which the next
    /// search rebuilds from the new fields. The storage pool and the
    /// placeholder answer stay.
    /// - Complexity: O(1)
    mutating func key(fields newFields: SearchFields?) {
        guard newFields != fields else { return }
        var fresh = SearchCache()
        fresh.pool = pool
        fresh.itemMemo = itemMemo
        fresh.fields = newFields
        fresh.rowSources = rowSources
        self = fresh
    }

    /// Makes `index` (of `snapshot`, which this cache is for) the index.
    /// - Complexity: O(sections)
    mutating func adopt(_ index: SearchIndex, of snapshot: Snapshot) {
        self.index = index
        prebuild = nil
        var starts = [0]
        starts.reserveCapacity(snapshot.sections.count + 1)
        for section in snapshot.sections { starts.append((starts.last ?? 0) + section.items.count) }
        sectionStarts = starts
        recent = RecentMatchSets()
    }

    /// Takes the match set moved through the last edit (waiting for it)
    /// as the newest recent set.
    mutating func adoptMovedMatches() {
        guard let moved = movedMatches else { return }
        movedMatches = nil
        if let set = moved.build.value() ?? nil, set.indexCount == sectionStarts.last { recent.remember(set, scope: moved.scope) }
    }

    /// Adopts a finished background build, so an edit can carry it.
    mutating func adoptFinishedPrebuild(of snapshot: Snapshot) {
        guard index == nil, let prebuild, prebuild.isReady, let built = prebuild.value() else { return }
        adopt(built, of: snapshot)
    }
}

/// Whether one id is an item of the full snapshot, remembered: a search
/// with a placeholder checks its id on every keystroke, and the answer only
/// changes with the snapshot (which replaces the `SearchCache` holding this).
final class ItemIDMemo: Sendable {
    private let last = Mutex<(id: String, isItem: Bool)?>(nil)

    init() {}

    /// The remembered answer, when it was "not an item".
    var knownNonItem: String? {
        last.withLock { $0 }.flatMap { $0.isItem ? nil : $0.id }
    }

    /// A memo that already knows `id` is not an item.
    init(nonItem id: String) {
        last.withLock { $0 = (id, false) }
    }

    /// The remembered answer for `id`, else `compute()`'s, remembered.
    func isItem(_ id: String, compute: () -> Bool) -> Bool {
        if let known = last.withLock({ $0 }), known.id.utf8.elementsEqual(id.utf8) { return known.isItem }
        let answer = compute()
        last.withLock { $0 = (id, answer) }
        return answer
    }
}
