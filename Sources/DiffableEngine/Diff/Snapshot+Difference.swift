extension Snapshot {
    /// The difference from this snapshot to `new`, in UIKit batch form.
    ///
    /// Elements are matched by id (Heckel-style symbol table: ids are unique,
    /// so every id present on both sides is one match). Among the matched
    /// sections, and among the matched items that stay in their section, a
    /// longest increasing subsequence of old positions (read in new order)
    /// stays put; every other match is a move, so the number of moves is
    /// minimal. See `Changeset` for the coordinate rules.
    ///
    /// Both snapshots are assumed valid (see `validationIssues()`); invalid
    /// input does not trap, but repeated ids are then matched arbitrarily.
    ///
    /// - Complexity: O(n + m log m) expected, n = sections + items of both
    ///   snapshots, m = matched items that changed position. Ids are never
    ///   hashed here: each item carries its id's hash (`Item.idHash`). Ids
    ///   that keep their place relative to their neighbours in a matched
    ///   section are compared in place; the rest meet in a hash table.
    public func difference(to new: Snapshot) -> Changeset {
        var builder = DifferenceBuilder(old: self, new: new, hashID: nil)
        return builder.build()
    }

    /// `difference(to:)` with a custom id hash for the table (tests use a
    /// weak one to make ids collide).
    func difference(to new: Snapshot, hashingIDsWith hashID: @escaping (String) -> Int) -> Changeset {
        var builder = DifferenceBuilder(old: self, new: new, hashID: hashID)
        return builder.build()
    }
}

/// Working state of one `difference(to:)` call: flat arrays indexed by
/// "flat" item positions (position of an item in the concatenation of all
/// sections of its snapshot).
struct DifferenceBuilder {
    let oldSections: [Section]
    let newSections: [Section]
    /// `oldStart[s]` is the flat index of the first item of old section `s`;
    /// one extra trailing element holds the item count.
    var oldStart: [Int] = []
    var newStart: [Int] = []
    /// Section matching: new index of each old section / old index of each
    /// new section, or -1.
    var oldSectionToNew: [Int] = []
    var newSectionToOld: [Int] = []
    /// Item matching by flat index, or -1.
    var oldToNew: [Int32] = []
    var newToOld: [Int32] = []
    /// Old section of each old flat index; empty when there is one old
    /// section (read through `oldSection(of:)`).
    var oldSectionOf: [Int32] = []
    /// Fate of each old item: `Fate.deleted` unless found to stay or move.
    var oldFate: [UInt8] = []
    /// Whether each matched old item's content differs from its match's,
    /// found when the match is made (the items are being read then), so the
    /// later passes run over these flat arrays and never reread the items.
    var contentChanged: [Bool] = []
    var result = Changeset()

    enum Fate {
        static let deleted: UInt8 = 0
        static let stays: UInt8 = 1
        static let moves: UInt8 = 2
    }

    /// Hash of an id for the symbol table: the item's stored `idHash`
    /// unless a test replaces it (to force collisions).
    let customHashID: ((String) -> Int)?

    @inline(__always) func hashID(_ item: UnsafePointer<Item>) -> Int {
        if let customHashID { return customHashID(item.pointee.id) }
        // The stored 32 bits, spread over 64 (`IDTable` probes from the low
        // bits and tags with the high ones).
        return Int(truncatingIfNeeded: UInt64(item.pointee.idHash) &* 0x9E37_79B9_7F4A_7C15)
    }

    init(old: Snapshot, new: Snapshot, hashID: ((String) -> Int)?) {
        oldSections = old.sections
        newSections = new.sections
        self.customHashID = hashID
    }

    mutating func build() -> Changeset {
        matchSections()
        matchItems()
        diffSections()
        diffItemsNewSide()
        diffItemsOldSide()
        return result
    }

    // MARK: Matching

    private static func starts(of sections: [Section]) -> [Int] {
        var starts = [Int]()
        starts.reserveCapacity(sections.count + 1)
        var total = 0
        starts.append(0)
        for section in sections {
            total += section.items.count
            starts.append(total)
        }
        return starts
    }

    private mutating func matchSections() {
        oldSectionToNew = [Int](repeating: -1, count: oldSections.count)
        newSectionToOld = [Int](repeating: -1, count: newSections.count)
        var table = [String: Int](minimumCapacity: oldSections.count)
        for (index, section) in oldSections.enumerated() {
            table[section.id] = index
        }
        for (index, section) in newSections.enumerated() {
            if let old = table[section.id], oldSectionToNew[old] < 0 {
                oldSectionToNew[old] = index
                newSectionToOld[index] = old
            }
        }
    }

    private mutating func matchItems() {
        oldStart = Self.starts(of: oldSections)
        newStart = Self.starts(of: newSections)
        let oldCount = oldStart.last ?? 0
        let newCount = newStart.last ?? 0
        oldToNew = [Int32](repeating: -1, count: oldCount)
        newToOld = [Int32](repeating: -1, count: newCount)
        contentChanged = [Bool](repeating: false, count: oldCount)
        // One old section (a flat list): every row's section is 0, and the
        // array stays empty (see `oldSection(of:)`).
        if oldSections.count > 1 {
            oldSectionOf = [Int32](repeating: 0, count: oldCount)
            for s in oldSections.indices.dropFirst() {  // section 0's rows are already 0
                let section = Int32(truncatingIfNeeded: s)
                for o in oldStart[s]..<oldStart[s + 1] { oldSectionOf[o] = section }
            }
        }

        // 1. Walk each matched section pair in step, comparing ids in place
        //    (no hashing): equal ids are the match (ids are unique), and a
        //    bounded look-ahead resynchronizes after a run of inserts, deletes
        //    or moves. The walk gives up when mismatches dominate (shuffles); the
        //    common suffix is then matched from the end.
        var unmatchedOld = oldCount
        for n in newSections.indices {
            let o = newSectionToOld[n]
            guard o >= 0 else { continue }
            let a = oldSections[o].items
            let b = newSections[n].items
            let (oBase, nBase) = (oldStart[o], newStart[n])
            unmatchedOld -= oldToNew.withUnsafeMutableBufferPointer { oldToNew in
                newToOld.withUnsafeMutableBufferPointer { newToOld in
                    contentChanged.withUnsafeMutableBufferPointer { changed in
                        let links = Links(oldToNew: oldToNew, newToOld: newToOld, contentChanged: changed)
                        let linked = a.withContiguousStorageIfAvailable { a in
                            b.withContiguousStorageIfAvailable { b in Self.walk(a, oBase, b, nBase, links) }
                        } ?? nil
                        // Mapped or chunked: through retain-free readers.
                        return linked ?? a.withReader { a in
                            b.withReader { b in Self.walk(a, oBase, b, nBase, links) }
                        }
                    }
                }
            }
        }
        guard unmatchedOld > 0, newCount > 0 else { return }
        // Links pair one old row with one new row.
        let unmatchedNew = newCount - (oldCount - unmatchedOld)

        // 2. Symbol table of the remaining ids of the smaller side (hash ->
        //    flat index, keys not stored), probed with the other side's ids;
        //    an entry whose hash matches is taken once its id is compared.
        //    Tabling the smaller side keeps the table in cache when one side
        //    is much smaller (a search that filters 1M rows down to 50).
        var hashed: [Int32] = []  // new flat indices linked through the table
        if unmatchedNew * 4 < unmatchedOld {
            for (n, o) in hashMatch(table: newSections, newStart, newToOld, count: unmatchedNew,
                                    probe: oldSections, oldStart, oldToNew,
                                    sameID: { n, o in Self.sameID(newItem(Int(n)), oldItem(Int(o))) }) {
                link(old: Int(o), new: Int(n))
                hashed.append(n)
            }
            hashed.sort()
        } else {
            for (o, n) in hashMatch(table: oldSections, oldStart, oldToNew, count: unmatchedOld,
                                    probe: newSections, newStart, newToOld,
                                    sameID: { o, n in Self.sameID(oldItem(Int(o)), newItem(Int(n))) }) {
                link(old: Int(o), new: Int(n))
                hashed.append(n)
            }
        }
        compareContent(hashed)
    }

    /// The old section of flat index `o`.
    @inline(__always) func oldSection(of o: Int) -> Int {
        oldSectionOf.isEmpty ? 0 : Int(oldSectionOf[o])
    }

    /// The old item at flat index `o`.
    private static func sameID(_ a: Item, _ b: Item) -> Bool {
        withUnsafePointer(to: a) { x in withUnsafePointer(to: b) { y in Item.sameID(x, y) } }
    }

    private func oldItem(_ o: Int) -> Item {
        let s = oldSection(of: o)
        return oldSections[s].items[o - oldStart[s]]
    }

    /// The new item at flat index `n`.
    /// - Complexity: O(log sections).
    private func newItem(_ n: Int) -> Item {
        var low = 0, high = newSections.count - 1
        while low < high {  // last section whose start is <= n
            let mid = (low + high + 1) >> 1
            if newStart[mid] <= n { low = mid } else { high = mid - 1 }
        }
        return newSections[low].items[n - newStart[low]]
    }

    /// Calls `body` with the flat index and id of every item of `sections`
    /// whose link is still -1, in order.
    private static func forEachUnmatched(
        _ sections: [Section], _ starts: [Int], _ links: [Int32], _ body: (Int32, UnsafePointer<Item>) -> Void
    ) {
        links.withUnsafeBufferPointer { links in
            func visit<C: ItemAddressing>(_ items: C, _ base: Int) {
                var r = 0
                while let next = firstUnlinked(links, from: base + r, end: base + items.count) {
                    r = next - base
                    body(Int32(truncatingIfNeeded: next), items.address(r))
                    r += 1
                }
            }
            for s in sections.indices {
                let items = sections[s].items
                let base = starts[s]
                if items.withContiguousStorageIfAvailable({ visit($0, base) }) == nil {
                    items.withReader { visit($0, base) }
                }
            }
        }
    }

    /// The first index in `from ..< end` whose link is -1 (unlinked), or
    /// nil. Most rows are linked when this runs: it tests two links per
    /// 64-bit load (their sign bits) and looks closer only at a word that
    /// holds one.
    /// - Complexity: O(end - from), about one step per two links.
    @inline(__always)
    private static func firstUnlinked(_ links: UnsafeBufferPointer<Int32>, from: Int, end: Int) -> Int? {
        var i = from
        if let base = links.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 2 <= end {
                let pair = raw.loadUnaligned(fromByteOffset: i * 4, as: UInt64.self)
                if pair & 0x8000_0000_8000_0000 != 0 { break }
                i += 2
            }
        }
        while i < end {
            if links[i] < 0 { return i }
            i += 1
        }
        return nil
    }

    /// Symbol-table matching of the unmatched items of two sides: the
    /// `table` side's ids go in a hash table (`count` entries), the `probe`
    /// side's ids look it up. Returns (table flat index, probe flat index)
    /// pairs of equal ids (`sameID(table flat index, probe flat index)`
    /// decides when hashes agree).
    /// - Complexity: O(unmatched items of both sides) expected.
    private func hashMatch(
        table tableSections: [Section], _ tableStart: [Int], _ tableLinks: [Int32], count: Int,
        probe probeSections: [Section], _ probeStart: [Int], _ probeLinks: [Int32],
        sameID: (Int32, Int32) -> Bool
    ) -> [(Int32, Int32)] {
        var table = IDTable(capacity: count)
        let tableSide = unmatchedHashes(tableSections, tableStart, tableLinks)
        for k in tableSide.flats.indices { table.insert(hash: tableSide.hashes[k], index: tableSide.flats[k]) }
        let probeSide = unmatchedHashes(probeSections, probeStart, probeLinks)
        var pairs: [(Int32, Int32)] = []
        for k in probeSide.flats.indices where pairs.count < count {
            let probe = probeSide.flats[k]
            if let hit = table.take(hash: probeSide.hashes[k], where: { sameID($0, probe) }) { pairs.append((hit, probe)) }
        }
        return pairs
    }

    /// The flat index and id hash of every item of `sections` whose link is
    /// still -1, in order.
    private func unmatchedHashes(
        _ sections: [Section], _ starts: [Int], _ links: [Int32]
    ) -> (flats: [Int32], hashes: [Int]) {
        var flats: [Int32] = [], hashes: [Int] = []
        Self.forEachUnmatched(sections, starts, links) { flat, item in
            flats.append(flat)
            hashes.append(hashID(item))
        }
        return (flats, hashes)
    }

    /// Records whether the contents of the links made through the hash
    /// table (new flat indices, ascending) differ.
    private mutating func compareContent(_ hashed: [Int32]) {
        var cursor = 0
        for s in newSections.indices where cursor < hashed.count {
            let items = newSections[s].items
            let base = newStart[s]
            let end = newStart[s + 1]
            while cursor < hashed.count, Int(hashed[cursor]) < end {
                let n = Int(hashed[cursor])
                let o = Int(newToOld[n])
                let os = oldSection(of: o)
                let old = oldSections[os].items[o - oldStart[os]]
                contentChanged[o] = old.content != items[n - base].content
                cursor += 1
            }
        }
    }

}
