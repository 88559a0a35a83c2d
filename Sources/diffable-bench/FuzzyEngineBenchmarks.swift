import DiffableEngine
import Foundation
import DiffableProtocol

/// The `fuzzy.*` pickers in process: the same corpus, window and keys as
/// `FuzzyPickerBenchmarks`, each key one `DataSource.setSearch` (what the
/// daemon runs for a `search` request, without JSON and the pipe), so a
/// profiler sees the engine alone. Background work starts after each key
/// as the server starts it after writing the reply.
enum FuzzyEngineBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "fuzzy.paths-engine-1m",
                  summary: "fuzzy.paths-1m in process: DataSource.setSearch per key, no pipe") { context in
            try run(context, label: "paths-engine", lines: try Corpora.fileSystemPaths(1_000_000),
                    queries: ["main", "swift", "readme", "conf", "libsw", "init.py", "src/", ".json"])
        },
    ]

    static func run(_ context: BenchContext, label: String, lines: [String], queries allQueries: [String]) throws {
        let r = context.reporter
        let queries = ProcessInfo.processInfo.environment["DIFFABLE_BENCH_QUERIES"]
            .map { $0.split(separator: ",").map(String.init) } ?? allQueries
        let window = Viewport(start: 0, count: FuzzyPickerBenchmarks.window)
        var source = DataSource(name: "c")
        let items = lines.enumerated().map { Item(id: String($0.offset), text: $0.element) }
        source.prepareViewport(window)
        let snapshot = Snapshot(sections: [Section(id: "list", items: items)])
        let applyMs = try timeMilliseconds { _ = try source.apply(snapshot) }
        r.row("fuzzy.\(label) apply", Sample([applyMs]))
        // What the first key after `search ""` waits for when it comes
        // before the background build is done: folding, byte sets, masks.
        r.row("fuzzy.\(label) search index build (two threads)", Sample((0..<context.runs(full: 5, quick: 3)).map { _ in
            timeMilliseconds { blackHole(SearchIndex(snapshot: snapshot)) }
        }))
        // The same without the bonus masks (a substring search's index):
        // the difference is what the masks and word pairs cost.
        r.row("fuzzy.\(label) search index build without masks", Sample((0..<context.runs(full: 5, quick: 3)).map { _ in
            timeMilliseconds { blackHole(SearchIndex(snapshot: snapshot, bonusMasks: false)) }
        }))
        // Paths come grouped by folder (the corpus is sorted), and a text's
        // masks resume after the prefix it shares with the one before; the
        // same lines shuffled show the build of a list in no such order.
        do {
            var rng = SplitMix64(seed: 0x5F1F)
            let shuffled = Snapshot(sections: [Section(id: "list", items: items.shuffled(using: &rng))])
            r.row("fuzzy.\(label) search index build, the lines shuffled", Sample((0..<context.runs(full: 5, quick: 3)).map { _ in
                timeMilliseconds { blackHole(SearchIndex(snapshot: shuffled)) }
            }))
        }
        func search(_ text: String) -> Double {
            BackgroundBuilds.holdStarts()
            source.prepareViewport(window)
            let ms = timeMilliseconds {
                blackHole(source.setSearch(SearchSettings(query: SearchQuery(text: text, mode: .fuzzy, order: .score))))
            }
            BackgroundBuilds.releaseHeldStarts()
            return ms
        }
        let runs = context.runs(full: 10, quick: 3)
        r.keystrokeHeader()
        for (q, query) in queries.enumerated() {
            let keys = (1...query.count).map { String(query.prefix($0)) }
            var times: [[Double]] = Array(repeating: [], count: keys.count)
            for round in 0..<runs {
                if q > 0 || round > 0 {
                    // Drops the kept match sets (as the pipe rows' edit does).
                    let last = lines.count - 1
                    _ = try source.edit([.setContent([ContentUpdate(id: String(last), content: nil, text: lines[last])],
                                                     style: .reload)])
                    Thread.sleep(forTimeInterval: 1.5)
                }
                _ = search("")
                Thread.sleep(forTimeInterval: 0.3)
                for (k, key) in keys.enumerated() {
                    if k > 0 { Thread.sleep(forTimeInterval: 0.05) }
                    times[k].append(search(key))
                }
                _ = search("")
            }
            for (k, key) in keys.enumerated() {
                r.keystroke("fuzzy.\(label) \"\(key)\"", Sample(times[k]), median: 16, p90: 50, worst: 100)
            }
        }
    }
}
