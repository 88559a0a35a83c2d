/// Reporting the changes once elements are matched (`DifferenceBuilder`):
/// sections, then items from the new side (inserts, moves, what stays) and
/// the old side (deletes, reloads). These passes read the flat link arrays
/// and flags only, never the items themselves.
extension DifferenceBuilder {
    // MARK: Sections

    mutating func diffSections() {
        for (o, n) in oldSectionToNew.enumerated() where n < 0 {
            result.sectionDeletes.append(o)
        }
        var survivors: [Int32] = []
        survivors.reserveCapacity(newSections.count)
        for (n, o) in newSectionToOld.enumerated() {
            if o < 0 {
                result.sectionInserts.append(n)
            } else {
                survivors.append(Int32(truncatingIfNeeded: o))
            }
        }
        var solver = LongestIncreasingSubsequence()
        var stays: [Bool] = []
        _ = solver.mark(survivors, into: &stays)
        var rank = 0
        for (n, o) in newSectionToOld.enumerated() where o >= 0 {
            let headerChanged = oldSections[o].header != newSections[n].header
            if stays[rank] {
                if headerChanged { result.sectionReloads.append(.init(old: o, new: n)) }
            } else {
                result.sectionMoves.append(.init(from: o, to: n, headerChanged: headerChanged))
            }
            rank += 1
        }
    }

    // MARK: Items

    /// Walks the new side: classifies each item of a surviving new section as
    /// inserted, staying or moved, and reports inserts and moves in order.
    /// Reads the flat arrays only (through buffer pointers: this is one of
    /// the diff's three passes over every row).
    mutating func diffItemsNewSide() {
        var fate = [UInt8](repeating: Fate.deleted, count: oldToNew.count)
        var inserts = result.itemInserts, moves = result.itemMoves
        var solver = LongestIncreasingSubsequence()
        var candidates: [Int32] = []
        var stays: [Bool] = []
        let (oldStart, newStart, oldSectionToNew) = (self.oldStart, self.newStart, self.oldSectionToNew)
        newToOld.withUnsafeBufferPointer { newToOld in
            oldSectionOf.withUnsafeBufferPointer { oldSectionOf in
                contentChanged.withUnsafeBufferPointer { contentChanged in
                    fate.withUnsafeMutableBufferPointer { fate in
                        // As `oldSection(of:)`, through the buffer.
                        @inline(__always) func sectionOf(_ o: Int) -> Int {
                            oldSectionOf.isEmpty ? 0 : Int(oldSectionOf[o])
                        }
                        for n in newSectionToOld.indices {
                            let o = newSectionToOld[n]
                            guard o >= 0 else { continue }  // rows of inserted sections are implied
                            let oBase = oldStart[o]
                            let nBase = newStart[n]
                            let rows = 0..<(newStart[n + 1] - nBase)

                            // Items that were already in this section: old rows
                            // in new order. When they are increasing (nothing
                            // moved within the section, the common case) they
                            // all stay, and one pass reports the section; a
                            // pass that meets a decrease is undone, and a
                            // longest increasing run decides what stays in a
                            // second pass (which sets every fate it touches
                            // again).
                            let (insertMark, moveMark) = (inserts.count, moves.count)
                            var ranked = false
                            let (oLow, oHigh) = (oBase, oldStart[o + 1])
                            while true {
                                var rank = 0, last = -1, decreased = false
                                var next = rows.lowerBound
                                while next < rows.upperBound {
                                    // In order, eight rows linked to eight
                                    // consecutive old rows of this section
                                    // all stay (most rows of most applies).
                                    if !ranked, next + 8 <= rows.upperBound,
                                       let first = Self.diagonalBlock(newToOld, at: nBase + next),
                                       first > last, first >= oLow, first + 8 <= oHigh {
                                        Self.markStays(fate, first)
                                        last = first + 7
                                        next += 8
                                        continue
                                    }
                                    let r = next
                                    next += 1
                                    let match = Int(newToOld[nBase + r])
                                    guard match >= 0 else {
                                        inserts.append(ItemPath(section: n, row: r))
                                        continue
                                    }
                                    let fromSection = sectionOf(match)
                                    if fromSection == o {
                                        let stay: Bool
                                        if ranked {
                                            stay = stays[rank]
                                            rank += 1
                                        } else {
                                            if match <= last { decreased = true; break }
                                            last = match
                                            stay = true
                                        }
                                        if stay {
                                            fate[match] = Fate.stays
                                            continue
                                        }
                                    } else if oldSectionToNew[fromSection] < 0 {
                                        // Out of a deleted section: its old row is implied deleted.
                                        inserts.append(ItemPath(section: n, row: r))
                                        continue
                                    }
                                    fate[match] = Fate.moves
                                    moves.append(.init(
                                        from: ItemPath(section: fromSection, row: match - oldStart[fromSection]),
                                        to: ItemPath(section: n, row: r), contentChanged: contentChanged[match]))
                                }
                                guard decreased else { break }
                                inserts.removeSubrange(insertMark...)
                                moves.removeSubrange(moveMark...)
                                candidates.removeAll(keepingCapacity: true)
                                for r in rows {
                                    let match = Int(newToOld[nBase + r])
                                    if match >= 0, sectionOf(match) == o {
                                        candidates.append(Int32(truncatingIfNeeded: match - oBase))
                                    }
                                }
                                _ = solver.mark(candidates, into: &stays)
                                ranked = true
                            }
                        }
                    }
                }
            }
        }
        oldFate = fate
        result.itemInserts = inserts
        result.itemMoves = moves
    }

    /// The old row linked to `links[at]` when `links[at ..< at + 8]` are
    /// eight consecutive old rows (`m, m + 1, …, m + 7`, m ≥ 0); else nil.
    /// - Precondition: `at + 8 <= links.count`.
    @inline(__always)
    static func diagonalBlock(_ links: UnsafeBufferPointer<Int32>, at: Int) -> Int? {
        guard let base = links.baseAddress else { return nil }
        let m = base[at]
        guard m >= 0, m <= Int32.max - 7 else { return nil }
        let raw = UnsafeRawPointer(base + at)
        // Two links per word; m + 7 fits, so no lane carries into the next.
        let pair = UInt64(UInt32(bitPattern: m)) | UInt64(UInt32(bitPattern: m + 1)) << 32
        let step: UInt64 = 2 | 2 << 32
        guard raw.loadUnaligned(as: UInt64.self) == pair,
              raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == pair &+ step,
              raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) == pair &+ 2 &* step,
              raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self) == pair &+ 3 &* step
        else { return nil }
        return Int(m)
    }

    /// Sets the fates of old rows `first ..< first + 8` to `Fate.stays`.
    /// - Precondition: `first + 8 <= fate.count`.
    @inline(__always)
    static func markStays(_ fate: UnsafeMutableBufferPointer<UInt8>, _ first: Int) {
        guard let base = fate.baseAddress else { return }
        UnsafeMutableRawPointer(base + first).storeBytes(of: Self.eightStays, as: UInt64.self)
    }

    static let eightStays = UInt64(Fate.stays) &* 0x0101_0101_0101_0101

    /// Walks the old side: reports deletes and, for items that stay, reloads.
    /// Reads the flat arrays only, not the items.
    mutating func diffItemsOldSide() {
        oldFate.withUnsafeBufferPointer { oldFate in contentChanged.withUnsafeBufferPointer { contentChanged in
            diffItemsOldSide(oldFate, contentChanged)
        } }
    }

    private mutating func diffItemsOldSide(_ oldFate: UnsafeBufferPointer<UInt8>,
                                           _ contentChanged: UnsafeBufferPointer<Bool>) {
        guard let fates = oldFate.baseAddress, let changes = contentChanged.baseAddress else { return }
        let (fateWords, changeWords) = (UnsafeRawPointer(fates), UnsafeRawPointer(changes))
        for o in oldSections.indices {
            let n = oldSectionToNew[o]
            guard n >= 0 else { continue }  // rows of deleted sections are implied
            let oBase = oldStart[o]
            let nBase = newStart[n]
            let count = oldStart[o + 1] - oBase
            var r = 0
            while r < count {
                // Eight rows that stay unchanged report nothing.
                if r + 8 <= count,
                   fateWords.loadUnaligned(fromByteOffset: oBase + r, as: UInt64.self) == Self.eightStays,
                   changeWords.loadUnaligned(fromByteOffset: oBase + r, as: UInt64.self) == 0 {
                    r += 8
                    continue
                }
                defer { r += 1 }
                switch oldFate[oBase + r] {
                case Fate.deleted:
                    result.itemDeletes.append(ItemPath(section: o, row: r))
                case Fate.stays where contentChanged[oBase + r]:
                    result.itemReloads.append(.init(
                        old: ItemPath(section: o, row: r),
                        new: ItemPath(section: n, row: Int(oldToNew[oBase + r]) - nBase)))
                default:
                    break
                }
            }
        }
    }
}
