import DiffableServer
import Foundation
import DiffableProtocol

/// A fuzzy file picker and a people picker on real-world lines (issue 33):
/// 1M paths of this machine's file system (long, sharing long prefixes,
/// most of them matching a common query) and 1M names of realistic
/// variety, one section, a 50-row window, `mode: "fuzzy"`, `order:
/// "score"`, no limit, through the pipe. Each query is typed one key at a
/// time at the issue's pace (`keyInterval`, `firstKeyDelay`),
/// after the search field is declared (`search ""`); every key's round
/// trip is a sample. `fzf --filter` runs on the
/// same lines and queries in the same run, and the window is checked
/// against its first 50 lines.
enum FuzzyPickerBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "fuzzy.paths-1m",
                  summary: "1M real file paths (find / -xdev under 3 roots), 50-row window, fuzzy keys typed 50 ms apart vs fzf --filter") { context in
            let lines = try Corpora.fileSystemPaths(1_000_000)
            try run(context, label: "paths", lines: lines,
                    queries: ["main", "swift", "readme", "conf", "libsw", "init.py", "src/", ".json"])
        },
        Benchmark(name: "fuzzy.paths-1m-progressive",
                  summary: "fuzzy.paths-1m with search progressive: the first answer per key, and when the exact window arrives") { context in
            let lines = try Corpora.fileSystemPaths(1_000_000)
            try run(context, label: "paths", lines: lines,
                    queries: ["main", "swift", "readme", "conf", "libsw", "init.py", "src/", ".json"], progressive: true)
        },
        Benchmark(name: "fuzzy.names-1m",
                  summary: "1M people's names of realistic variety, 50-row window, fuzzy keys typed 50 ms apart vs fzf --filter") { context in
            try run(context, label: "names", lines: Corpora.names(1_000_000),
                    queries: ["john", "maria", "smith", "lee", "garcia", "jo sm", "zoe"])
        },
    ]

    static let window = 50
    /// The issue's typing pace: seconds between keys, and before the first.
    static let keyInterval = 0.05
    static let firstKeyDelay = 0.3

    /// `DIFFABLE_BENCH_QUERIES=a,b`: only these queries (for profiling).
    /// `progressive`: keys are sent with `progressive: true`; a partial
    /// answer is followed by its `searchRefined`, waited for until the next
    /// key is due (the last key of a query: until it comes).
    static func run(_ context: BenchContext, label: String, lines: [String], queries allQueries: [String],
                    progressive: Bool = false) throws {
        let r = context.reporter
        let fzf = try requiredFzf()
        let queries = ProcessInfo.processInfo.environment["DIFFABLE_BENCH_QUERIES"]
            .map { $0.split(separator: ",").map(String.init) } ?? allQueries
        let textBytes = lines.reduce(0) { $0 + $1.utf8.count }
        r.note("\(lines.count) lines, \(String(format: "%.1f", Double(textBytes) / 1e6)) MB of text, "
               + "\(String(format: "%.1f", Double(textBytes) / Double(max(lines.count, 1)))) bytes a line; load \(loadAverage())")
        let corpusFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("diffable-bench-\(label)-\(getpid()).txt").path
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: corpusFile))
        defer { try? FileManager.default.removeItem(atPath: corpusFile) }

        let daemon = try DaemonConnection(path: context.daemonPath)
        defer { daemon.close() }
        _ = try daemon.exchange(Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"initializationOptions":{"supersedeSearches":false}}}"#.utf8) + [0x0A], id: 1)
        let (_, _, applyMs) = try daemon.exchange(applyBody(lines), id: 2)
        r.row("fuzzy.\(label)-1m first apply with a window", Sample([applyMs]), target: .ms(600))
        Thread.sleep(forTimeInterval: 1)
        if let memory = daemon.memory() {
            r.value("fuzzy.\(label)-1m daemon VmRSS after the apply", memory.rss, unit: "MB",
                    target: .mb(2.5 * Double(textBytes) / 1_048_576))
            r.note(String(format: "VmRSS / text bytes = %.2f after the apply (target ≤ 2.5), peak %.0f MB",
                          memory.rss * 1_048_576 / Double(textBytes), memory.peak))
        }
        let request = Requester(daemon).send
        let search = #""method":"search","params":{"source":"c","mode":"fuzzy","order":"score","viewport":{"start":0,"count":\#(window)},"#
            + (progressive ? #""progressive":true,"# : "") + #""query":"#
        var nextID = 100_000
        var exactTimes: [[Double]] = []
        var slowestExact: [(key: String, round: Int, ms: Double)] = []
        var late = 0, partials = 0
        /// One key: the answer's time, and (progressive) the exact window's.
        func key(_ text: String, last: Bool) throws -> (answer: Double, exact: Double?) {
            nextID += 1
            let sent = nowNanoseconds()
            let (answer, _, ms) = try daemon.exchange(Array(#"{"jsonrpc":"2.0","id":\#(nextID),\#(search)\#(quoted(text))}}"#.utf8) + [0x0A],
                                                      id: nextID)
            guard progressive else { return (ms, nil) }
            guard answer.starts(with: Array(#"{"jsonrpc":"2.0","id":\#(nextID),"result""#.utf8)) else {
                throw ApplyRequest.Mismatch(description: String(decoding: answer.prefix(300), as: UTF8.self))
            }
            guard String(decoding: answer.suffix(200), as: UTF8.self).contains(#""partial":true"#) else { return (ms, ms) }
            partials += 1
            let wait = last ? 30 : keyInterval
            while let line = try daemon.nextLine(within: wait - Double(nowNanoseconds() - sent) / 1e9) {
                if line.starts(with: Array(#"{"jsonrpc":"2.0","method":"searchRefined""#.utf8)) {
                    return (ms, Double(nowNanoseconds() - sent) / 1e6)
                }
            }
            late += 1
            return (ms, nil)
        }
        func declare() throws { _ = try request(search + #""""# + "}") }
        let runs = context.runs(full: 10, quick: 3)
        var perKey: [[Sample]] = []
        var checks: [(query: String, rows: [String], matches: Int?)] = []
        for (q, query) in queries.enumerated() {
            let keys = (1...query.count).map { String(query.prefix($0)) }
            var times: [[Double]] = Array(repeating: [], count: keys.count)
            var exact: [[Double]] = Array(repeating: [], count: keys.count)
            for round in 0..<runs {
                // Each round starts from scratch: an edit drops the match
                // sets the daemon keeps for a Backspace (it sets an item's
                // text to what it is, so the lines stay fzf's).
                // The edit's index splice runs in the background: a
                // moment for it, as a person takes after an edit.
                if q > 0 || round > 0 {
                    try forget(lines, request: request)
                    Thread.sleep(forTimeInterval: 1.5)
                }
                try declare()
                Thread.sleep(forTimeInterval: firstKeyDelay)
                var answered = nowNanoseconds()
                for (k, text) in keys.enumerated() {
                    if k > 0 {
                        // Keys `keyInterval` apart after each answer (a
                        // wait for a refinement counts towards it).
                        let waited = Double(nowNanoseconds() - answered) / 1e9
                        if waited < keyInterval { Thread.sleep(forTimeInterval: keyInterval - waited) }
                    }
                    let sent = nowNanoseconds()
                    let (ms, exactMs) = try key(text, last: k == keys.count - 1)
                    answered = sent + UInt64(ms * 1e6)
                    times[k].append(ms)
                    if let exactMs {
                        exact[k].append(exactMs)
                        slowestExact.append((text, round, exactMs))
                    }
                }
                if round == 0 { checks.append((query, try windowTexts(daemon), try matchCount(daemon, search, query))) }
                try declare()
            }
            perKey.append(times.map(Sample.init))
            exactTimes.append(exact.flatMap { $0 })
        }
        if progressive {
            let all = exactTimes.flatMap { $0 }
            r.note("progressive: \(partials) partial answers; \(late) refinements not in before the next key (dropped by it)")
            r.keystroke("fuzzy.\(label)-1m progressive: the exact window, every key it came for", Sample(all),
                        median: 100, p90: 100, worst: 100)
            let slowest = slowestExact.sorted { $0.ms > $1.ms }.prefix(5)
                .map { "\"\($0.key)\" (round \($0.round + 1)) \(formatMilliseconds($0.ms)) ms" }
            r.note("the exact window's slowest keys: " + slowest.joined(separator: ", "))
        }
        if let memory = daemon.memory() {
            r.value("fuzzy.\(label)-1m daemon VmRSS with the search index", memory.rss, unit: "MB",
                    target: .mb(2.5 * Double(textBytes) / 1_048_576))
            r.note(String(format: "VmRSS / text bytes = %.2f with the index and kept matches, peak %.0f MB",
                          memory.rss * 1_048_576 / Double(textBytes), memory.peak))
        }

        // fzf on the same lines: each key's query alone (a batch filter
        // reads the input again each time); its input reading measured
        // apart with a query no line can match cheaply. Both are medians
        // of three runs: one run's reading varies by more than a short
        // query's matching time.
        func fzfMedian(_ query: String) throws -> Double {
            Sample(try (0..<3).map { _ in try fzfMilliseconds(fzf, query: query, corpus: corpusFile).ms }).median
        }
        let ingest = try fzfMedian("^\u{7E}\u{7E}\u{7E}\u{7E}\u{7E}")
        r.note("fzf columns: fzf --filter's matching time (its run minus its input reading, "
               + "\(formatMilliseconds(ingest)) ms); ours/fzf: our median over it")
        r.keystrokeHeader()
        var everything: [Double] = []
        for (q, query) in queries.enumerated() {
            let keys = (1...query.count).map { String(query.prefix($0)) }
            var all: [Double] = []
            for (k, key) in keys.enumerated() {
                let sample = perKey[q][k]
                all += sample.values
                var fzfMatching: Double?
                if !context.quick || k == keys.count - 1 {
                    fzfMatching = max(try fzfMedian(key) - ingest, 1)
                }
                r.keystroke("fuzzy.\(label)-1m \"\(key)\"", sample, median: 16, p90: 50, worst: 100, fzf: fzfMatching,
                            fzfRatio: 0.02)
            }
            everything += all
            r.keystroke("fuzzy.\(label)-1m every key of \"\(query)\"", Sample(all), median: 16, p90: 50, worst: 100)
        }
        r.keystroke("fuzzy.\(label)-1m every key of every query", Sample(everything), median: 16, p90: 50, worst: 100)

        // The window must show exactly fzf's first rows, and count its matches.
        for check in checks {
            let (expected, count) = try fzfTop(fzf, query: check.query, corpus: corpusFile, rows: window)
            if expected != check.rows {
                let k = (0..<min(expected.count, check.rows.count)).first { expected[$0] != check.rows[$0] }
                    ?? min(expected.count, check.rows.count)
                r.note("MISMATCH \"\(check.query)\": window row \(k) is \(check.rows.dropFirst(k).first ?? "-"), "
                       + "fzf's \(expected.dropFirst(k).first ?? "-")", keep: true)
            } else if check.matches != count {
                r.note("MISMATCH \"\(check.query)\": \(check.matches ?? -1) matches, fzf \(count)", keep: true)
            } else {
                r.note("\"\(check.query)\": window = fzf's first \(expected.count) of \(count) matches")
            }
        }
        r.note("load after: \(loadAverage())")
    }

    /// `apply` of `lines` as one section, ids "0"…, content `{"text": line}`,
    /// with a 50-row window.
    static func applyBody(_ lines: [String]) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: lines.reduce(0) { $0 + $1.utf8.count + 40 } + 256)
        w.beginObject()
        w.key(raw: "jsonrpc"); w.appendString("2.0")
        w.key(raw: "id"); w.appendInt(2)
        w.key(raw: "method"); w.appendString("apply")
        w.key(raw: "params")
        w.beginObject()
        w.key(raw: "source"); w.appendString("c")
        w.key(raw: "viewport")
        w.beginObject()
        w.key(raw: "start"); w.appendInt(0)
        w.key(raw: "count"); w.appendInt(window)
        w.endObject()
        w.key(raw: "sections")
        w.beginArray()
        w.beginObject()
        w.key(raw: "id"); w.appendString("list")
        w.key(raw: "items")
        w.beginArray()
        for (i, line) in lines.enumerated() {
            w.beginObject()
            w.key(raw: "id"); w.appendString(String(i))
            w.key(raw: "content")
            w.beginObject()
            w.key(raw: "text"); w.appendString(line)
            w.endObject()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.endArray()
        w.endObject()
        w.endObject()
        return w.bytes + [0x0A]
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        var w = JSONWriter(reservingCapacity: text.utf8.count + 2)
        w.appendString(text)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// Sets the last item's text to what it is: the source's snapshot
    /// changes, so the daemon drops its kept match sets.
    static func forget(_ lines: [String], request: (String) throws -> (bytes: Int, ms: Double)) throws {
        let last = lines.count - 1
        _ = try request(#""method":"edit","params":{"source":"c","ops":[{"op":"setContent","items":[{"id":"\#(last)","content":{"text":\#(quoted(lines[last]))}}]}]}"#)
    }

    /// The texts of the window's rows (untimed).
    static func windowTexts(_ daemon: DaemonConnection) throws -> [String] {
        let (answer, _, _) = try daemon.exchange(Array(#"{"jsonrpc":"2.0","id":9,"method":"rows","params":{"source":"c","start":0,"count":\#(window)}}"#.utf8) + [0x0A], id: 9)
        let json = try JSONParser.parse(answer)
        return (json["result"]?["rows"]?.arrayValue ?? []).compactMap { $0["content"]?["text"]?.stringValue }
    }

    /// The daemon's match count for `query`, the current query (sent again:
    /// nothing changes; untimed).
    static func matchCount(_ daemon: DaemonConnection, _ search: String, _ query: String) throws -> Int? {
        // Asked exactly (a progressive search could answer from a sample).
        let plain = search.replacingOccurrences(of: #""progressive":true,"#, with: "")
        let (answer, _, _) = try daemon.exchange(Array(#"{"jsonrpc":"2.0","id":8,"#.utf8) + Array(plain.utf8)
                                                 + Array(quoted(query).utf8) + Array("}}\n".utf8), id: 8)
        return try JSONParser.parse(answer)["result"]?["search"]?["matches"]?.intValue
    }

    /// `/usr/bin/fzf` or the first `fzf` on PATH.
    static func fzfPath() -> String? {
        let dirs = ["/usr/bin"] + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return dirs.map { $0 + "/fzf" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `fzfPath()`, or a failure naming the fix: these rows exist for the
    /// ratio to fzf, so a run without fzf fails rather than skip it.
    static func requiredFzf() throws -> String {
        guard let fzf = fzfPath() else {
            throw DaemonConnection.Failure(description: "fzf not found in /usr/bin or on PATH: the fuzzy.* rows compare "
                                           + "with fzf --filter in the same run (apt-get install fzf, or protocol/tools/install-test-tools)")
        }
        return fzf
    }

    /// One `fzf --filter QUERY < corpus`, its output to `output` (or
    /// nowhere); wall-clock milliseconds.
    @discardableResult
    static func fzfMilliseconds(_ fzf: String, query: String, corpus: String,
                                output: String? = nil) throws -> (ms: Double, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: fzf)
        process.arguments = ["--filter", query]
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        guard let input = FileHandle(forReadingAtPath: corpus) else {
            throw DaemonConnection.Failure(description: "cannot read \(corpus)")
        }
        defer { try? input.close() }
        process.standardInput = input
        if let output {
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: output)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        process.standardError = FileHandle.nullDevice
        let start = nowNanoseconds()
        try process.run()
        process.waitUntilExit()
        return (Double(nowNanoseconds() - start) / 1e6, process.terminationStatus)
    }

    /// fzf's first `rows` lines for `query` and its number of matches.
    static func fzfTop(_ fzf: String, query: String, corpus: String, rows: Int) throws -> ([String], Int) {
        let output = corpus + ".out"
        defer { try? FileManager.default.removeItem(atPath: output) }
        try fzfMilliseconds(fzf, query: query, corpus: corpus, output: output)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let all = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        return (all.prefix(rows).map(String.init), all.count)
    }

    /// `/proc/loadavg`'s three load averages.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
