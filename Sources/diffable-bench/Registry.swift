import DiffableProtocol
/// What a benchmark run may use: the mode, and where results go.
struct BenchContext {
    /// `--quick`: fewer runs, expensive cases shortened or skipped.
    var quick: Bool
    /// The release `diffable` binary for the pipe benchmarks.
    var daemonPath: String
    /// This executable (for baselines run in a child process with a time budget).
    var selfPath: String
    var reporter: Reporter
    /// `--no-baseline`: skip the stdlib baselines.
    var noBaseline = false

    /// `full` runs in full mode, `quick` in quick mode.
    func runs(full: Int, quick: Int) -> Int { self.quick ? quick : full }
}

/// A named benchmark. `run` measures and reports one or more result rows
/// through `context.reporter`.
///
/// **Adding benchmarks.** Put them in their own file as a
/// `static let` array of `Benchmark` (see `EngineBenchmarks.all`,
/// `PipeBenchmarks.all`), then add that array to `BenchmarkRegistry.groups`
/// below. Names are `group.case`; `--only` matches any part of a name.
struct Benchmark: Sendable {
    let name: String
    /// One line, printed before the rows.
    let summary: String
    let run: @Sendable (BenchContext) throws -> Void
}

enum BenchmarkRegistry {
    /// Every benchmark, in run order. Extension point: append new groups
    /// here (e.g. `EditBenchmarks.all`, `SearchBenchmarks.all`).
    static let groups: [[Benchmark]] = [
        EngineBenchmarks.all,
        PipeBenchmarks.all,
        EditBenchmarks.all,
        SearchBenchmarks.all,
        LifecycleBenchmarks.all,
        ViewportBenchmarks.all,
        ExtendedSearchBenchmarks.all,
        FuzzyPickerBenchmarks.all,
        FuzzyEngineBenchmarks.all,
        OutlineBenchmarks.all,
        PatchBenchmarks.all,
        TransportBenchmarks.all,
    ]

    static var all: [Benchmark] { groups.flatMap { $0 } }

    /// `--only` filter: every benchmark whose name contains `filter`, or
    /// all when `filter` is nil.
    static func selected(_ filter: String?) -> [Benchmark] {
        guard let filter else { return all }
        return all.filter { $0.name.contains(filter) }
    }
}
