import Foundation
import DiffableProtocol

/// The Swift stdlib baseline: `newIDs.difference(from: oldIDs).inferringMoves()`
/// on the flat `[String]` id arrays of a workload.
///
/// `CollectionDifference` is Myers' O((n + m) · D) algorithm, so on the large
/// workloads it takes seconds to hours. Slow baselines therefore run once, in a
/// child process (this executable with `--stdlib-child`) that is killed when
/// its budget is spent; the row then says "> budget".
enum StdlibBaseline {
    enum Plan {
        /// In this process: median of `runs` (after one warm-up run).
        case inProcess(runs: Int)
        /// Once, in a child process, killed after `budget` ms of diffing
        /// (workload generation in the child is not counted).
        case child(budget: Double)
        case skip(String)
    }

    /// Baselines already measured in this run, by workload arguments (the
    /// 10-section variant has the same flat arrays as the 1-section one).
    nonisolated(unsafe) private static var cache: [[String]: Baseline] = [:]

    @inline(never) static func run(_ oldIDs: [String], _ newIDs: [String]) -> Int {
        newIDs.difference(from: oldIDs).inferringMoves().count
    }

    static func measure(_ workload: ClassicWorkload, plan: Plan, context: BenchContext) -> Baseline {
        if let cached = cache[workload.arguments] {
            context.reporter.note("stdlib baseline: same flat id arrays as measured above, reused")
            return cached
        }
        let result: Baseline
        switch context.noBaseline ? .skip("--no-baseline") : plan {
        case .skip(let reason):
            result = .skipped(reason)
            context.reporter.note("stdlib baseline skipped: \(reason)")
        case .inProcess(let runs):
            let (oldIDs, newIDs) = workload.flatIDs()
            var changes = 0
            let sample = sampleRuns(runs: runs) { changes = run(oldIDs, newIDs) }
            context.reporter.note("stdlib baseline: median of \(runs) in-process runs (\(changes) changes)")
            result = .measured(sample)
        case .child(let budget):
            result = runChild(workload, budget: budget, context: context)
        }
        cache[workload.arguments] = result
        return result
    }

    private static func runChild(_ workload: ClassicWorkload, budget: Double, context: BenchContext) -> Baseline {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: context.selfPath)
        process.arguments = ["--stdlib-child"] + workload.arguments
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch {
            context.reporter.note("stdlib baseline: could not start child: \(error)")
            return .skipped("child failed")
        }
        let fd = output.fileHandleForReading.fileDescriptor
        var text = ""
        // Wait for "ready" (workload generated), then start the budget clock.
        while !text.contains("\n") {
            guard let chunk = readChunk(fd) else { break }
            text += chunk
        }
        let start = nowNanoseconds()
        while process.isRunning, Double(nowNanoseconds() - start) / 1e6 < budget {
            usleep(5_000)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            context.reporter.note("stdlib baseline: one run in a child process, killed after the \(formatMilliseconds(budget / 1000)) s budget", keep: true)
            return .exceeded(budget: budget)
        }
        while let chunk = readChunk(fd) { text += chunk }
        let lines = text.split(separator: "\n")
        guard lines.count >= 2, let ms = Double(lines[1].split(separator: " ")[0]) else {
            context.reporter.note("stdlib baseline: child gave no result (\(text))")
            return .skipped("child failed")
        }
        context.reporter.note("stdlib baseline: one run in a child process (\(lines[1].split(separator: " ").dropFirst().joined(separator: " ")))")
        return .measured(Sample([ms]))
    }

    private static func readChunk(_ fd: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n], as: UTF8.self)
    }

    /// Entry point of the child: build the workload, say "ready", diff once,
    /// print "<ms> (<changes> changes)".
    static func childMain(_ arguments: [String]) -> Int32 {
        guard let workload = ClassicWorkload(arguments: arguments) else { return 2 }
        let (oldIDs, newIDs) = workload.flatIDs()
        print("ready")
        fflush(nil)
        var changes = 0
        let ms = timeMilliseconds { changes = run(oldIDs, newIDs) }
        print("\(ms) \(changes) changes")
        fflush(nil)
        return 0
    }
}
