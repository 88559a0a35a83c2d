/// The changes of one or more edits to a list of texts, in UIKit batch
/// coordinates: the texts at `removed` (positions before, ascending,
/// distinct) leave, then the texts of `inserted` come in at their positions
/// after (ascending, distinct). A changed text leaves and comes back.
///
/// An edit records one (`SearchCache.carried`); edits made while no search
/// reads the index compose into one (`followed(by:)`), so the next search
/// copies the index once (`SearchIndex.splicing`) however many edits came
/// before it, and a search whose rows only need moving through the edit
/// (`translating`) never touches the index at all.
struct IndexSplice: Sendable {
    var removed: [Int]
    var inserted: [(at: Int, text: SplicedText)]

    /// How the number of texts changes.
    var countChange: Int { inserted.count - removed.count }

    /// Whether the splice only adds texts after the first `count` (which
    /// then keep their positions): a list streaming in.
    /// - Complexity: O(1)
    func onlyAppends(after count: Int) -> Bool {
        removed.isEmpty && (inserted.first.map { $0.at >= count } ?? true)
    }

    /// Removed plus inserted texts.
    var changeCount: Int { removed.count + inserted.count }

    /// Where the texts at `positions` (before, ascending) are after the
    /// splice; removed ones are left out. Nil when `positions` are not
    /// ascending.
    /// - Complexity: O(positions + changes)
    func translating(_ positions: [Int]) -> [Int]? {
        translatingKeepingRemoved(positions)?.compactMap { $0 }
    }

    /// Where each of `positions` (ascending) is after the splice: nil for
    /// a removed one.
    /// Nil when `positions` are not ascending.
    /// - Complexity: O(positions + changes)
    func translatingKeepingRemoved(_ positions: [Int]) -> [Int?]? {
        var out: [Int?] = []
        out.reserveCapacity(positions.count)
        var r = 0, k = 0, last = Int.min
        for p in positions {
            guard p > last else { return nil }
            last = p
            while r < removed.count && removed[r] < p { r += 1 }
            if r < removed.count && removed[r] == p { out.append(nil); continue }
            let kept = p - r
            while k < inserted.count && inserted[k].at <= kept + k { k += 1 }
            out.append(kept + k)
        }
        return out
    }

    /// The splice that makes what `self` then `next` make (`next` in the
    /// coordinates `self` leaves).
    /// - Complexity: O(changes of both)
    func followed(by next: IndexSplice) -> IndexSplice {
        // Positions between the two splices ("middle") hold either a text
        // `self` inserted or an original one.
        let insertedAt = inserted.map(\.at)
        var dropsInsert = [Bool](repeating: false, count: inserted.count)
        var removedOriginals: [Int] = []  // middle positions
        var i = 0
        for m in next.removed {
            while i < insertedAt.count && insertedAt[i] < m { i += 1 }
            if i < insertedAt.count && insertedAt[i] == m { dropsInsert[i] = true } else { removedOriginals.append(m) }
        }
        // Middle position of an original -> its position before `self`.
        var mapped: [Int] = []
        mapped.reserveCapacity(removedOriginals.count)
        i = 0
        var r = 0
        for m in removedOriginals {
            while i < insertedAt.count && insertedAt[i] < m { i += 1 }
            let kept = m - i  // among the originals `self` kept
            while r < removed.count && removed[r] <= kept + r { r += 1 }
            mapped.append(kept + r)
        }
        // `self`'s surviving inserts, carried to the positions after `next`.
        var survivors: [(at: Int, text: SplicedText)] = []
        var carried = IndexSplice(removed: next.removed, inserted: next.inserted)
        let survivingAt = insertedAt.indices.filter { !dropsInsert[$0] }
        let landed = carried.translating(survivingAt.map { insertedAt[$0] }) ?? []
        for (k, at) in zip(survivingAt, landed) { survivors.append((at, inserted[k].text)) }
        carried.removed = Self.merged(removed, mapped)
        carried.inserted = Self.merged(survivors, next.inserted)
        return carried
    }

    /// Two ascending lists of distinct positions, merged.
    private static func merged(_ a: [Int], _ b: [Int]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i] < b[j]) { out.append(a[i]); i += 1 } else { out.append(b[j]); j += 1 }
        }
        return out
    }

    private static func merged(_ a: [(at: Int, text: SplicedText)], _ b: [(at: Int, text: SplicedText)]) -> [(at: Int, text: SplicedText)] {
        var out: [(at: Int, text: SplicedText)] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i].at < b[j].at) { out.append(a[i]); i += 1 } else { out.append(b[j]); j += 1 }
        }
        return out
    }
}

/// A text a splice brings in: an item's own search text, read from the
/// item's bytes where they are (a list streaming in makes no string per
/// row), or a text made of the item's fields.
enum SplicedText: Sendable {
    case item(Item)
    case string(String?)

    /// The text as a string (a copy for `item`).
    var string: String? {
        switch self {
        case .item(let item): item.text
        case .string(let text): text
        }
    }

    /// Its UTF-8 length. - Complexity: O(1) for `item`
    var utf8Count: Int {
        switch self {
        case .item(let item): item.withTextBytes { $0.count } ?? 0
        case .string(let text): text?.utf8.count ?? 0
        }
    }
}
