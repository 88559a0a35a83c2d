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
                        for n in newSectionToOld.indices {
                            let o = newSectionToOld[n]
                            guard o >= 0 else { continue }  // rows of inserted sections are implied
                            let oBase = oldStart[o]
                            let nBase = newStart[n]
                            let rows = 0..<(newStart[n + 1] - nBase)
                            let section = Int32(truncatingIfNeeded: o)

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
                            while true {
                                var rank = 0, last = -1, decreased = false
                                for r in rows {
                                    let match = Int(newToOld[nBase + r])
                                    guard match >= 0 else {
                                        inserts.append(ItemPath(section: n, row: r))
                                        continue
                                    }
                                    let fromSection = Int(oldSectionOf[match])
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
                                    if match >= 0, oldSectionOf[match] == section {
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

    /// Walks the old side: reports deletes and, for items that stay, reloads.
    /// Reads the flat arrays only, not the items.
    mutating func diffItemsOldSide() {
        for o in oldSections.indices {
            let n = oldSectionToNew[o]
            guard n >= 0 else { continue }  // rows of deleted sections are implied
            let oBase = oldStart[o]
            let nBase = newStart[n]
            for r in 0..<(oldStart[o + 1] - oBase) {
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
