import DiffableEngine
import DiffableProtocol

/// Engine only: `Snapshot.difference(to:)` and `Changeset.steps(from:to:)`,
/// no JSON, no I/O.
enum EngineBenchmarks {
    static let all: [Benchmark] = [
        classic(
            "engine.classic-100k", ClassicWorkload(count: 100_000, deletes: 10_000, inserts: 10_000, moves: 2_000),
            target: 10, runs: (15, 5), baseline: { $0.quick ? .child(budget: 15_000) : .child(budget: 60_000) }),
        classic(
            "engine.classic-100k-10sec",
            ClassicWorkload(count: 100_000, deletes: 10_000, inserts: 10_000, moves: 2_000, sections: 10),
            target: 10, runs: (15, 5), baseline: { $0.quick ? .child(budget: 15_000) : .child(budget: 60_000) }),
        classic(
            "engine.classic-1m", ClassicWorkload(count: 1_000_000, deletes: 100_000, inserts: 100_000, moves: 20_000),
            target: 150, runs: (5, 1),
            baseline: { $0.quick ? .skip("quick mode (Myers O(n·D): hours at this size)") : .child(budget: 20_000) }),
        classic(
            "engine.one-change-1m", ClassicWorkload(count: 1_000_000, deletes: 1, inserts: 1, moves: 0),
            target: 60, runs: (9, 3), baseline: { $0.quick ? .inProcess(runs: 1) : .inProcess(runs: 5) }),
        // The ids users have (issue 13). DifferenceKit 1.3.0's StagedChangeset on the
        // same workloads, measured elsewhere on this kind of machine, is printed
        // beside as a fixed reference.
        classic(
            "engine.uuid-100k", ClassicWorkload(count: 100_000, deletes: 10_000, inserts: 10_000, moves: 2_000, ids: .uuid),
            target: 8, runs: (15, 5), baseline: { $0.quick ? .skip("quick mode") : .child(budget: 60_000) },
            differenceKit: 82.1),
        classic(
            "engine.path-100k", ClassicWorkload(count: 100_000, deletes: 10_000, inserts: 10_000, moves: 2_000, ids: .path),
            target: 8, runs: (15, 5), baseline: { _ in .skip("see engine.uuid-100k") }),
        classic(
            "engine.uuid-100k-10sec",
            ClassicWorkload(count: 100_000, deletes: 10_000, inserts: 10_000, moves: 2_000, sections: 10, ids: .uuid),
            target: 8, runs: (15, 5), baseline: { _ in .skip("see engine.uuid-100k") }, differenceKit: 85.2),
        classic(
            "engine.uuid-1m", ClassicWorkload(count: 1_000_000, deletes: 100_000, inserts: 100_000, moves: 20_000, ids: .uuid),
            target: 117, runs: (5, 1), baseline: { _ in .skip("Myers O(n·D): hours at this size") }, differenceKit: 1173),
        classic(
            "engine.uuid-one-change-1m", ClassicWorkload(count: 1_000_000, deletes: 1, inserts: 1, moves: 0, ids: .uuid),
            target: 10, runs: (9, 3), baseline: { $0.quick ? .inProcess(runs: 1) : .inProcess(runs: 5) }, differenceKit: 991),
    ]

    static func classic(
        _ name: String, _ workload: ClassicWorkload, target: Double, runs: (full: Int, quick: Int),
        baseline: @escaping @Sendable (BenchContext) -> StdlibBaseline.Plan, differenceKit: Double? = nil
    ) -> Benchmark {
        Benchmark(name: name, summary: workload.description + ", target ≤ \(Int(target)) ms") { context in
            let r = context.reporter
            let (old, new, _, _) = workload.snapshots()
            let count = context.runs(full: runs.full, quick: runs.quick)

            var changeset = old.difference(to: new)  // warm-up
            var stepCount = changeset.steps(from: old, to: new).count
            var differenceTimes: [Double] = [], stepsTimes: [Double] = [], totals: [Double] = []
            for _ in 0..<count {
                let d = timeMilliseconds { changeset = old.difference(to: new) }
                let s = timeMilliseconds { stepCount = changeset.steps(from: old, to: new).count }
                differenceTimes.append(d)
                stepsTimes.append(s)
                totals.append(d + s)
            }
            // Correctness, outside the timed region: both forms replay to `new`
            // (the steps replayer moves rows in an Array, O(n) per move: too slow
            // to run on the 1M-item workloads every time).
            let replayChecked = workload.count <= 200_000
            if replayChecked {
                let steps = changeset.steps(from: old, to: new)
                guard (try? old.applyingBatch(changeset, contentFrom: new)) == new,
                      (try? old.applyingSteps(steps, contentFrom: new)) == new
                else { throw ReplayMismatch(name: name) }
            }
            r.note("changeset: \(changeset.itemDeletes.count) deletes, \(changeset.itemInserts.count) inserts, "
                   + "\(changeset.itemMoves.count) moves, \(changeset.itemReloads.count) reloads; \(stepCount) steps" + (replayChecked ? "; both forms replay to new" : "; replay check skipped at this size"))
            let base = StdlibBaseline.measure(workload, plan: baseline(context), context: context)
            r.row("\(name) difference(to:)", Sample(differenceTimes), target: .ms(target), baseline: base)
            r.row("\(name) steps(from:to:)", Sample(stepsTimes))
            r.row("\(name) difference + steps", Sample(totals), target: .ms(target), baseline: base)
            if let differenceKit {
                r.note(String(format: "DifferenceKit 1.3.0 StagedChangeset, measured elsewhere on this kind of machine: %.1f ms "
                              + "(fixed reference, not this run); difference(to:) median / that = %.2f",
                              differenceKit, Sample(differenceTimes).median / differenceKit))
            }
            // What `apply` runs on every incoming snapshot before diffing it.
            var issues = 0
            r.row("\(name) validationIssues() of new", sampleRuns(runs: count) { issues = new.validationIssues().count })
            if issues != 0 { throw ReplayMismatch(name: name + " (unexpected validation issues)") }
        }
    }
}

struct ReplayMismatch: Error, CustomStringConvertible {
    var name: String
    var description: String { "\(name): the changeset or steps do not replay old into new" }
}
