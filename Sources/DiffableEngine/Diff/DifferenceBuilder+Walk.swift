/// Step 1 of matching items (`DifferenceBuilder.matchItems`): walking a
/// matched section pair in step, comparing ids in place.
///
/// Most applies change little: the old and new rows of a section are the
/// same ids in the same order, with a few runs inserted, deleted or moved.
/// Walking both lists together links equal ids without hashing anything;
/// after a mismatch a bounded look-ahead finds where the lists agree again.
/// Only what the walk cannot align goes to the hash table (step 2).
///
/// Cost: O(rows) id comparisons when few rows change; each mismatch costs up
/// to `2 × lookAhead` more (`2 × startLookAhead` once per section). A
/// comparison reads the items' stored id hashes (`Item.idHash`) first, so a
/// mismatch costs two loads from the item arrays, not a read of each id's
/// out-of-line bytes (the hash is computed once, when the item is stored,
/// not again by every walk that compares it).
extension DifferenceBuilder {
    /// Window of the walk's look-ahead after a mismatch.
    static let lookAhead = 32
    /// The window before the first link of a section pair: a section's start
    /// is where rows crossing from a neighbouring section pile up (every
    /// insert or delete before it shifts the cut), often more than
    /// `lookAhead` of them; a wider search once per section finds the
    /// aligned run instead of giving the section up to the hash table.
    static let startLookAhead = 2048

    /// After a mismatch at `a[i]`/`b[j]`: the smallest `d` in 1…`window`
    /// with `b[j + d] == a[i]` (returns `(0, d)`) or `a[i + d] == b[j]`
    /// (returns `(d, 0)`), checking both at each distance; nil when neither
    /// occurs within the window.
    /// - Complexity: O(d) id comparisons.
    @inline(__always)
    private static func resync<A: ItemAddressing, B: ItemAddressing>(
        _ a: A, _ i: Int, _ b: B, _ j: Int, window: Int
    ) -> (Int, Int)? {
        var d = 1
        while d <= window {
            let inNew = j + d < b.count, inOld = i + d < a.count
            guard inNew || inOld else { return nil }
            if inNew, sameID(b.address(j + d), a.address(i)) { return (0, d) }
            if inOld, sameID(a.address(i + d), b.address(j)) { return (d, 0) }
            d += 1
        }
        return nil
    }

    /// Whether two items have the same id: their stored hashes first, so
    /// that most mismatches never read the ids' bytes.
    @inline(__always)
    static func sameID(_ x: UnsafePointer<Item>, _ y: UnsafePointer<Item>) -> Bool {
        Item.sameID(x, y)
    }

    mutating func link(old o: Int, new n: Int) {
        oldToNew[o] = Int32(truncatingIfNeeded: n)
        newToOld[n] = Int32(truncatingIfNeeded: o)
    }

    /// The link arrays and `contentChanged`, borrowed for the walk (every
    /// flat index the walk forms is inside its section's range).
    struct Links {
        let oldToNew: UnsafeMutableBufferPointer<Int32>
        let newToOld: UnsafeMutableBufferPointer<Int32>
        let contentChanged: UnsafeMutableBufferPointer<Bool>
    }

    /// Step 1 of `matchItems` for one matched section pair (old items `a`
    /// at flat `oBase`, new items `b` at flat `nBase`); returns the number of
    /// links made. Generic so that contiguous sections (the common case) run
    /// over buffer pointers and other forms over `ItemList.Reader`s: no
    /// per-row form checks, no id copies. Two rows stored at one address
    /// are the same item (storage an edit did not touch is shared by both
    /// snapshots): they link without their id or content being read, which
    /// saves a cache miss per row when the rows are scattered over a large
    /// section (a search's mapped rows).
    /// - Complexity: O(a.count + b.count) id comparisons, times the
    ///   look-ahead after a mismatch.
    static func walk<A: ItemAddressing, B: ItemAddressing>(
        _ a: A, _ oBase: Int, _ b: B, _ nBase: Int, _ links: Links
    ) -> Int {
        let (oldToNew, newToOld, changed) = (links.oldToNew, links.newToOld, links.contentChanged)
        @inline(__always) func link(_ i: Int, _ j: Int, sameItem: Bool = false) {
            let (o, n) = (oBase + i, nBase + j)
            oldToNew[o] = Int32(truncatingIfNeeded: n)
            newToOld[n] = Int32(truncatingIfNeeded: o)
            if !sameItem && !Item.sameContent(a.address(i), b.address(j)) { changed[o] = true }
        }
        var i = 0
        var j = 0
        var linked = 0
        var misses = 0
        while i < a.count, j < b.count {
            let (itemA, itemB) = (a.address(i), b.address(j))
            if itemA == itemB {
                link(i, j, sameItem: true)
                linked += 1
                i += 1
                j += 1
            } else if Self.sameID(itemA, itemB) {
                link(i, j)
                linked += 1
                i += 1
                j += 1
            } else if let (skipOld, skipNew) = Self.resync(
                a, i, b, j, window: linked == 0 && misses == 0 ? Self.startLookAhead : Self.lookAhead) {
                // a[i ..< i + skipOld] went elsewhere, or b[j ..< j + skipNew]
                // came from elsewhere: the nearer resynchronization wins,
                // so a lone delete or insert costs two compares, not a window.
                i += skipOld
                j += skipNew
            } else {
                misses += 1
                if misses > 16, misses > linked / 4 { break }
                i += 1
                j += 1
            }
        }
        var x = a.count - 1
        var y = b.count - 1
        while x >= i, y >= j, oldToNew[oBase + x] < 0, newToOld[nBase + y] < 0 {
            let sameItem = a.address(x) == b.address(y)
            guard sameItem || Self.sameID(a.address(x), b.address(y)) else { break }
            link(x, y, sameItem: sameItem)
            linked += 1
            x -= 1
            y -= 1
        }
        return linked
    }

}
