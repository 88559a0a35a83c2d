/// Turns a set of batch moves into sequential Array moves with exact indices.
///
/// The elements live in one or more lists (sections). Each list is described
/// twice, as flat entries: its current order and its final order, where an
/// entry is `-1` for an element that stays (a "stayer") and `m >= 0` for
/// mover `m`. Stayers appear in the same order on both sides. Movers are
/// processed in ascending id order; callers number them by final position.
///
/// Each list gets a slot order fixed in advance: for every gap between
/// consecutive stayers, the source slots of the movers currently in that gap
/// (in current order), then the destination slots of the movers whose target
/// falls in that gap (in final order), then the stayer. The physical order of
/// a list is always its slot order restricted to occupied slots, so a Fenwick
/// tree over slot occupancy gives exact physical indices at every moment.
struct SequentialMovePlanner {
    struct Move: Equatable {
        var fromList: Int
        var from: Int
        var toList: Int
        var to: Int
    }

    /// The moves, in mover id order, or nil when the description is
    /// inconsistent (stayers do not line up, a mover is missing or repeated).
    /// - Parameters:
    ///   - currentStart: `listCount + 1` offsets into `current`.
    ///   - finalStart: `listCount + 1` offsets into `final`.
    /// - Complexity: O(n + k log n), n = entries, k = movers.
    static func plan(
        currentStart: [Int], current: [Int32],
        finalStart: [Int], final: [Int32],
        moverCount: Int
    ) -> [Move]? {
        let listCount = currentStart.count - 1
        guard listCount >= 0, finalStart.count == currentStart.count else { return nil }
        var sourceSlot = [Int](repeating: -1, count: moverCount)
        var sourceList = [Int](repeating: -1, count: moverCount)
        var destSlot = [Int](repeating: -1, count: moverCount)
        var destList = [Int](repeating: -1, count: moverCount)
        var occupancy: [Int32] = []
        occupancy.reserveCapacity(current.count + moverCount)
        var listBase = [Int](repeating: 0, count: listCount + 1)

        for list in 0..<listCount {
            listBase[list] = occupancy.count
            var c = currentStart[list]
            var f = finalStart[list]
            let cEnd = currentStart[list + 1]
            let fEnd = finalStart[list + 1]
            guard c >= 0, c <= cEnd, cEnd <= current.count, f >= 0, f <= fEnd, fEnd <= final.count else { return nil }
            while true {
                while c < cEnd, current[c] >= 0 {
                    let m = Int(current[c])
                    guard m < moverCount, sourceSlot[m] < 0 else { return nil }
                    sourceSlot[m] = occupancy.count
                    sourceList[m] = list
                    occupancy.append(1)
                    c += 1
                }
                while f < fEnd, final[f] >= 0 {
                    let m = Int(final[f])
                    guard m < moverCount, destSlot[m] < 0 else { return nil }
                    destSlot[m] = occupancy.count
                    destList[m] = list
                    occupancy.append(0)
                    f += 1
                }
                if c == cEnd, f == fEnd { break }
                guard c < cEnd, f < fEnd else { return nil }  // stayers must pair up
                occupancy.append(1)
                c += 1
                f += 1
            }
        }
        listBase[listCount] = occupancy.count
        guard !sourceSlot.contains(-1), !destSlot.contains(-1) else { return nil }

        var tree = FenwickTree(occupancy)
        var moves: [Move] = []
        moves.reserveCapacity(moverCount)
        for m in 0..<moverCount {
            let from = tree.prefixSum(sourceSlot[m]) - tree.prefixSum(listBase[sourceList[m]])
            tree.add(-1, at: sourceSlot[m])
            let to = tree.prefixSum(destSlot[m]) - tree.prefixSum(listBase[destList[m]])
            tree.add(1, at: destSlot[m])
            moves.append(Move(fromList: sourceList[m], from: from, toList: destList[m], to: to))
        }
        return moves
    }
}
