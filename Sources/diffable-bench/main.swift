import DiffableProtocol
/// diffable-bench — release-build benchmarks of the diffable engine and daemon.
///
/// Usage:
///
///     swift build -c release && swift run -c release diffable-bench [--quick] [--only NAME] [--list] [--no-baseline] [--daemon PATH]
///
/// - `--quick`: fewer runs; the 1M cases run once and their slow stdlib
///   baselines are skipped or given a shorter budget (well under a minute).
/// - `--only NAME`: only the benchmarks whose name contains NAME
///   (e.g. `--only engine`, `--only pipe.apply-1m`). `--list` lists them.
/// - `--no-baseline`: skip the stdlib baselines (for profiling with perf).
/// - `--daemon PATH`: the `diffable` binary for the pipe benchmarks; by
///   default the one next to this executable (same build directory).
///
/// Every row prints the median, min and max of its runs in ms (one warm-up run
/// is discarded), the target and whether the median meets it. Engine rows also
/// print the Swift stdlib baseline measured in the same run,
/// `newIDs.difference(from: oldIDs).inferringMoves()` on the flat `[String]`
/// id arrays, and the ratio ours / stdlib (smaller is better). That baseline is
/// Myers' O((n + m) · D) diff: where it would take minutes it runs once in a
/// child process with a time budget and the row says "> budget" (the ratio is
/// then an upper bound), or it is skipped with the reason printed.
///
/// Benchmarks:
/// - `engine.*` — `Snapshot.difference(to:)` and `Changeset.steps(from:to:)`
///   timed separately and summed, on the classic workload (n ids; delete n/10,
///   insert n/10, move n/50, seeded PRNG) at 100k (also cut into 10 sections)
///   and 1M, and on 1M ids with one delete and one insert (each row prints
///   its target).
/// - `pipe.*` — the release `diffable` daemon over stdin/stdout pipes
///   (newline-delimited JSON): the initial apply of 100k / 1M items, then
///   applies that change 1% of the contents (with their targets),
///   from writing the first request byte to reading the last response byte;
///   and the daemon's VmRSS holding the 1M-item source (target ≤ 250 MB;
///   ≤ 150 MB with UUID and path-like ids).
/// - `patch.pipe-10k` — field-level updates through the daemon: 10k ticker
///   rows of 20 fields, 1% changing one field per tick, sent as an `apply`
///   (replies under `updates: "content"` vs `"patch"`), as an `edit` of
///   `patchContent` ops, and 60 ticks a second against a 50-row window.
///
/// Adding benchmarks: see `Benchmark` and `BenchmarkRegistry` in Registry.swift
/// (one file per group, one line in `BenchmarkRegistry.groups`).
import Foundation

func executablePath() -> String {
    if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
    return CommandLine.arguments[0]
}

func mainEntry() -> Int32 {
    var arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "--stdlib-child" {
        return StdlibBaseline.childMain(Array(arguments.dropFirst()))
    }
    var quick = false
    var only: String?
    var daemon: String?
    var noBaseline = false
    while !arguments.isEmpty {
        let argument = arguments.removeFirst()
        switch argument {
        case "--quick": quick = true
        case "--no-baseline": noBaseline = true
        case "--only" where !arguments.isEmpty: only = arguments.removeFirst()
        case "--daemon" where !arguments.isEmpty: daemon = arguments.removeFirst()
        case "--list":
            for benchmark in BenchmarkRegistry.all { print("\(benchmark.name)  — \(benchmark.summary)") }
            return 0
        case "-h", "--help":
            print("usage: diffable-bench [--quick] [--only NAME] [--list] [--no-baseline] [--daemon PATH]")
            return 0
        default:
            FileHandle.standardError.write(Data("diffable-bench: unknown argument \(argument)\nusage: diffable-bench [--quick] [--only NAME] [--list] [--no-baseline] [--daemon PATH]\n".utf8))
            return 2
        }
    }
    let selfPath = executablePath()
    let daemonPath = daemon ?? URL(fileURLWithPath: selfPath).deletingLastPathComponent().appendingPathComponent("diffable").path
    let selected = BenchmarkRegistry.selected(only)
    guard !selected.isEmpty else {
        FileHandle.standardError.write(Data("diffable-bench: no benchmark matches \(only ?? "")\n".utf8))
        return 2
    }
    #if DEBUG
    print("WARNING: debug build; numbers are meaningless. Use `swift run -c release diffable-bench`.")
    #endif
    let context = BenchContext(quick: quick, daemonPath: daemonPath, selfPath: selfPath, reporter: Reporter(), noBaseline: noBaseline)
    print("diffable-bench (\(quick ? "quick" : "full") mode, \(ProcessInfo.processInfo.activeProcessorCount) cores); times in ms; daemon: \(daemonPath)")
    let start = nowNanoseconds()
    var failures = 0
    for benchmark in selected {
        context.reporter.begin(benchmark)
        do {
            try benchmark.run(context)
        } catch {
            failures += 1
            print("   FAILED: \(error)")
        }
    }
    let seconds = Double(nowNanoseconds() - start) / 1e9
    print("")
    print("Targets met: \(context.reporter.met), not met: \(context.reporter.missed); \(failures) benchmark(s) failed; total \(String(format: "%.1f", seconds)) s")
    return failures == 0 ? 0 : 1
}

exit(mainEntry())
