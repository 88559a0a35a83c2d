import DiffableEngine

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
    ]

    static func classic(
        _ name: String, _ workload: ClassicWorkload, target: Double, runs: (full: Int, quick: Int),
        baseline: @escaping @Sendable (BenchContext) -> StdlibBaseline.Plan
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
