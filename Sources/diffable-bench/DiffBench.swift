import DiffableEngine
import Foundation

/// `diffable-bench diff [items] [sections]`: median time of
/// `Snapshot.difference(to:)` between two 1M-item snapshots that differ by a
/// few hundred moves, inserts and deletes.
func runDiffBench(total: Int, sectionCount: Int) {
    let per = total / sectionCount
    let old = Snapshot(sections: (0..<sectionCount).map { s in
        Section(id: "s\(s)", items: (0..<per).map { Item(id: "i\(s)_\($0)") })
    })
    var newSections = old.sections.map { $0.items.map { $0 } }  // distinct buffers, as after a parse
    var seed: UInt64 = 42
    func next(_ n: Int) -> Int {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return Int((seed >> 33) % UInt64(n))
    }
    for k in 0..<300 {
        let s = next(sectionCount), t = next(sectionCount)
        if !newSections[s].isEmpty {
            let item = newSections[s].remove(at: next(newSections[s].count))
            newSections[t].insert(item, at: next(newSections[t].count + 1))
        }
        newSections[t].insert(Item(id: "new\(k)"), at: next(newSections[t].count + 1))
        if !newSections[s].isEmpty { newSections[s].remove(at: next(newSections[s].count)) }
    }
    let new = Snapshot(sections: zip(old.sections, newSections).map { Section(id: $0.id, items: $1) })
    func measure(_ label: String, _ a: Snapshot, _ b: Snapshot) {
        var times: [Double] = []
        for _ in 0..<7 {
            let start = now()
            let c = a.difference(to: b)
            times.append(now() - start)
            precondition(!c.isEmpty)
        }
        times.sort()
        print("\(label): median \(String(format: "%.1f", times[times.count / 2])) ms, min \(String(format: "%.1f", times[0])) ms")
    }
    measure("difference \(total) items in \(sectionCount) sections", old, new)
    // After edits, large sections are chunked (see `ItemList`).
    var chunkedOld = old, chunkedNew = new
    chunkedOld.chunkify()
    chunkedNew.chunkify()
    measure("difference, chunked sections", chunkedOld, chunkedNew)
}

func runAccessBench() {
    let array = (0..<1_000_000).map { Item(id: "i\($0)") }
    let list = ItemList(array)
    func time(_ label: String, _ body: () -> Int) {
        var best = Double.infinity, r = 0
        for _ in 0..<5 { let t = now(); r &+= body(); best = min(best, now() - t) }
        print("\(label): \(String(format: "%.2f", best)) ms (\(r))")
    }
    time("array subscript") { var s = 0; for i in array.indices { s &+= array[i].id.utf8.count }; return s }
    time("list subscript") { var s = 0; for i in list.indices { s &+= list[i].id.utf8.count }; return s }
    time("list count loop") { var s = 0, i = 0; while i < list.count { s &+= list[i].id.utf8.count; i += 1 }; return s }
    time("array ==") { var s = 0; for i in 1..<array.count where array[i].id == array[i - 1].id { s += 1 }; return s }
    time("list ==") { var s = 0; for i in 1..<list.count where list[i].id == list[i - 1].id { s += 1 }; return s }
}
