import Foundation
import DiffableProtocol

/// Extended fuzzy queries (several terms, fzf's operators) typed key by key,
/// and a list that streams in under an active query, on the viewport rows'
/// 1M names and paths, through the pipe, with a 50-row window (issue 30's
/// targets). `fzf --filter` runs on the same lines and queries in the same
/// run, for the ratio.
enum ExtendedSearchBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "extended.pipe-1m",
                  summary: "1M names and paths, 50-row window: multi-term fuzzy queries typed key by key (order score, no limit), and fzf --filter on the same lines") { context in
            try keystrokes(context, items: 1_000_000, window: 50)
        },
        Benchmark(name: "extended.fields-1m",
                  summary: "1M {name, path} contents, 50-row window: a search of fields (index built from them), another field set, fuzzy keystrokes over name and path") { context in
            try fields(context, items: 1_000_000, window: 50)
        },
        Benchmark(name: "extended.stream-1m",
                  summary: "1M names and paths appended in batches of 10,000 under a fuzzy query (order score), 50-row window: each append, and keystrokes during the stream") { context in
            try stream(context, items: 1_000_000, batch: 10_000, window: 50)
        },
    ]

    static let queries = ["src swift$", "'view !test", "^lib | ^app"]

    /// A file picker over `fields` (search.md, Fields): 1M items whose
    /// content is `{name, path}` (a person's name is its own name under
    /// `people/`): the first search of fields (the index built from them),
    /// another field set (built again), and fuzzy keystrokes over name and
    /// path.
    static func fields(_ context: BenchContext, items: Int, window: Int) throws {
        let r = context.reporter
        let lines = ViewportBenchmarks.corpus(items)
        let daemon = try connect(context)
        defer { daemon.close() }
        let rows = lines.enumerated().map { k, line -> String in
            let path = line.contains("/") ? line : "people/\(line)"
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return #"{"id":"r\#(k)","content":{"name":"\#(name)","path":"\#(path)"}}"#
        }
        let apply = Array(#"{"jsonrpc":"2.0","id":2,"method":"apply","params":{"source":"c","viewport":{"start":0,"count":\#(window)},"sections":[{"id":"list","items":[\#(rows.joined(separator: ","))]}]}}"#.utf8) + [0x0A]
        _ = try daemon.exchange(apply, id: 2)
        let request = Requester(daemon).send
        func search(_ text: String, _ fields: String) -> String {
            #""method":"search","params":{"source":"c","query":"\#(text)","mode":"fuzzy","order":"score","fields":\#(fields),"viewport":{"start":0,"count":\#(window)}}"#
        }
        let both = #"["name","path"]"#
        var builds: [Double] = []
        var switches: [Double] = []
        for _ in 0..<context.runs(full: 3, quick: 1) {
            builds.append(try request(search("zq", both)).ms)
            switches.append(try request(search("zq", #"["path"]"#)).ms)
            _ = try request(#""method":"edit","params":{"source":"c","ops":[{"op":"setContent","items":[{"id":"r0","content":{"name":"x","path":"x"}}]}]}"#)
            _ = try request(#""method":"apply","params":{"source":"c","viewport":{"start":0,"count":\#(window)},"sections":[{"id":"list","items":[\#(rows.joined(separator: ","))]}]}"#)
        }
        r.row("extended.fields-1m first search of fields (index built from name, path)", Sample(builds))
        r.row("extended.fields-1m another field set (index built from path)", Sample(switches))
        let words = ["v", "vi", "vie", "view", "view ", "view s", "view sr", "view src"]
        var times: [[Double]] = Array(repeating: [], count: words.count)
        for round in 0..<context.runs(full: 5, quick: 2) {
            try ViewportBenchmarks.forgetRecentMatches(round: round + 1, request: request)
            _ = try request(search("zq", both))
            for (k, text) in words.enumerated() {
                Thread.sleep(forTimeInterval: 0.05)
                times[k].append(try request(search(text, both)).ms)
            }
        }
        for (k, text) in words.enumerated() {
            r.row("extended.fields-1m \"\(text)\" over name, path", Sample(times[k]), target: .ms(10))
        }
    }

    static func connect(_ context: BenchContext) throws -> DaemonConnection {
        let daemon = try DaemonConnection(path: context.daemonPath)
        _ = try daemon.exchange(Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"initializationOptions":{"supersedeSearches":false}}}"#.utf8) + [0x0A], id: 1)
        return daemon
    }

    static func item(_ k: Int, _ text: String) -> String { #"{"id":"r\#(k)","content":{"text":"\#(text)"}}"# }

    static func search(_ text: String, window: Int) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return #""method":"search","params":{"source":"c","query":"\#(escaped)","mode":"fuzzy","order":"score","viewport":{"start":0,"count":\#(window)}}"#
    }

    static func keystrokes(_ context: BenchContext, items: Int, window: Int) throws {
        let r = context.reporter
        let lines = ViewportBenchmarks.corpus(items)
        let daemon = try connect(context)
        defer { daemon.close() }
        let rows = lines.enumerated().map { item($0.offset, $0.element) }
        let apply = Array(#"{"jsonrpc":"2.0","id":2,"method":"apply","params":{"source":"c","viewport":{"start":0,"count":\#(window)},"sections":[{"id":"list","items":[\#(rows.joined(separator: ","))]}]}}"#.utf8) + [0x0A]
        _ = try daemon.exchange(apply, id: 2)
        let request = Requester(daemon).send
        let runs = context.runs(full: 5, quick: 2)
        var round = 0
        var lastKey: [String: Sample] = [:]
        for query in queries {
            let prefixes = (1...query.count).map { String(query.prefix($0)) }
            var times: [[Double]] = Array(repeating: [], count: prefixes.count)
            for _ in 0..<runs {
                round += 1
                try ViewportBenchmarks.forgetRecentMatches(round: round, request: request)
                for (k, text) in prefixes.enumerated() {
                    Thread.sleep(forTimeInterval: 0.05)
                    times[k].append(try request(search(text, window: window)).ms)
                }
                _ = try request(#""method":"search","params":{"source":"c","query":""}"#)
            }
            for (k, text) in prefixes.enumerated() {
                r.row("extended.pipe-1m \"\(text)\"", Sample(times[k]), target: .ms(10))
            }
            lastKey[query] = Sample(times[prefixes.count - 1])
        }
        try fzfRows(context, lines: lines, ours: lastKey)
    }

    /// `fzf --filter` over the same lines: its whole run (reading 1M lines,
    /// matching, printing the matches), and its matching time, the run
    /// less that of a query no line can match (a character none holds, so
    /// its prefilter rejects every line at once). Ours / fzf's matching
    /// time for the whole query.
    static func fzfRows(_ context: BenchContext, lines: [String], ours: [String: Sample]) throws {
        let r = context.reporter
        let fzf = "/usr/bin/fzf"
        guard FileManager.default.isExecutableFile(atPath: fzf) else {
            r.note("extended.pipe-1m: no fzf at \(fzf) (protocol/tools/install-test-tools installs it): fzf rows skipped")
            return
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("diffable-bench-fzf-\(getpid()).txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        func run(_ query: String) throws -> Double {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: fzf)
            process.arguments = ["--filter", query]
            process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
            process.standardInput = try FileHandle(forReadingFrom: url)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let start = nowNanoseconds()
            try process.run()
            process.waitUntilExit()
            return Double(nowNanoseconds() - start) / 1e6
        }
        let runs = context.runs(full: 5, quick: 2)
        let idle = Sample(try (0..<runs).map { _ in try run("~") })
        r.row("extended.pipe-1m fzf --filter \"~\" (reads 1M lines, matches none)", idle)
        for query in queries {
            let whole = Sample(try (0..<runs).map { _ in try run(query) })
            r.row("extended.pipe-1m fzf --filter \"\(query)\" (read + match + print)", whole)
            let matching = whole.median - idle.median
            r.value("extended.pipe-1m fzf matching time \"\(query)\"", matching, unit: "ms")
            if let ours = ours[query], matching > 0 {
                r.value("extended.pipe-1m ours / fzf matching \"\(query)\" (last key)", 100 * ours.median / matching,
                        unit: "%", target: Target(limit: 10, unit: "%"))
            }
        }
    }

    /// An empty source with a window and a fuzzy query; `items` lines
    /// appended in `batch`es (`edit appendItems`), each answered with the
    /// window's diff; every tenth batch, two keystrokes.
    static func stream(_ context: BenchContext, items: Int, batch: Int, window: Int) throws {
        let r = context.reporter
        let lines = ViewportBenchmarks.corpus(items)
        let daemon = try connect(context)
        defer { daemon.close() }
        let request = Requester(daemon).send
        _ = try request(#""method":"apply","params":{"source":"c","viewport":{"start":0,"count":\#(window)},"sections":[{"id":"list","items":[]}]}"#)
        _ = try request(search("view", window: window))
        var appends: [Double] = []
        var keys: [Double] = []
        var start = 0
        var batches = 0
        while start < items {
            let end = min(start + batch, items)
            let body = (start..<end).map { item($0, lines[$0]) }.joined(separator: ",")
            appends.append(try request(#""method":"edit","params":{"source":"c","ops":[{"op":"appendItems","section":"list","items":[\#(body)]}]}"#).ms)
            start = end
            batches += 1
            if batches % 10 == 0 {
                Thread.sleep(forTimeInterval: 0.05)
                keys.append(try request(search("vie", window: window)).ms)
                Thread.sleep(forTimeInterval: 0.05)
                keys.append(try request(search("view", window: window)).ms)
            }
        }
        let tenth = max(appends.count / 10, 1)
        r.row("extended.stream-1m append \(batch) under \"view\" (every batch)", Sample(appends), target: .ms(10))
        r.row("extended.stream-1m append, the first \(tenth) batches", Sample(Array(appends.prefix(tenth))))
        r.row("extended.stream-1m append, the last \(tenth) batches", Sample(Array(appends.suffix(tenth))))
        r.row("extended.stream-1m keystroke during the stream (\"vie\", \"view\")", Sample(keys), target: .ms(10))
    }
}
