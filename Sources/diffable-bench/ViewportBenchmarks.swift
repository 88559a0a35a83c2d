import Foundation
import DiffableProtocol

/// A frontend that draws 50 rows of a 1M-line corpus (names and paths)
/// through a viewport, over the pipe: keystrokes (fuzzy, ranked, no limit),
/// scrolling, the first apply, an edit outside the window. Round trips from
/// the first request byte to the last response byte.
enum ViewportBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "viewport.pipe-1m",
                  summary: "1M names and paths, 50-row window: apply, fuzzy keystrokes (order score, no limit), scrolling, an edit outside the window") { context in
            try run(context, items: 1_000_000, window: 50)
        },
        Benchmark(name: "viewport.picker-1m",
                  summary: "the terminal people picker at 1M names, 34-row window: substring keystrokes in source order with a placeholder, Backspace, clearing") { context in
            try picker(context, items: 1_000_000, window: 34)
        },
    ]

    /// Half people's names, half file paths, deterministic.
    static func corpus(_ n: Int) -> [String] {
        let names = SearchBenchmarks.texts(n / 2)
        let dirs = ["src", "Sources", "lib", "tests", "docs", "app", "internal", "pkg", "cmd", "web"]
        let parts = ["view", "model", "grid", "render", "search", "store", "router", "sheet", "table", "cell", "graph"]
        var rng = SplitMix64(seed: 0xF11E)
        func pick(_ list: [String]) -> String { list[Int(truncatingIfNeeded: rng.next() >> 1) % list.count] }
        let paths = (0..<(n - n / 2)).map { i in "\(pick(dirs))/\(pick(parts))/\(pick(parts))_\(pick(parts))\(i % 9973).swift" }
        return names + paths
    }

    static func run(_ context: BenchContext, items: Int, window: Int) throws {
        let r = context.reporter
        let daemon = try DaemonConnection(path: context.daemonPath)
        defer { daemon.close() }
        _ = try daemon.exchange(Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"initializationOptions":{"supersedeSearches":false}}}"#.utf8) + [0x0A], id: 1)
        let rows = corpus(items).enumerated().map { #"{"id":"r\#($0.offset)","content":{"text":"\#($0.element)"}}"# }
        let apply = Array(#"{"jsonrpc":"2.0","id":2,"method":"apply","params":{"source":"c","viewport":{"start":0,"count":\#(window)},"sections":[{"id":"list","items":[\#(rows.joined(separator: ","))]}]}}"#.utf8) + [0x0A]
        let (applied, _, applyMs) = try daemon.exchange(apply, id: 2)
        r.row("viewport.pipe-1m first apply with a window", Sample([applyMs]), target: .ms(400))
        r.value("viewport.pipe-1m first apply reply", Double(applied.count) / 1024, unit: "KB", target: Target(limit: 64, unit: "KB"))
        let request = Requester(daemon).send
        let runs = context.runs(full: 5, quick: 2)
        var round = 0
        // Typed: the next key a short pause after the last reply (shorter
        // than a fast typist's), so the daemon finishes work for the next
        // key meanwhile. Scripted: sent back to back.
        for typed in [true, false] {
            for word in [["g", "gr", "gra"], ["s", "sr"], ["v", "vi", "vie", "view"]] {
                var times: [[Double]] = Array(repeating: [], count: word.count)
                var sizes: [Int] = Array(repeating: 0, count: word.count)
                for _ in 0..<runs {
                    round += 1
                    try forgetRecentMatches(round: round, request: request)
                    for (k, text) in word.enumerated() {
                        if typed { Thread.sleep(forTimeInterval: 0.05) }
                        let (bytes, ms) = try request(#""method":"search","params":{"source":"c","query":"\#(text)","mode":"fuzzy","order":"score","viewport":{"start":0,"count":\#(window)}}"#)
                        times[k].append(ms)
                        sizes[k] = bytes
                    }
                    _ = try request(#""method":"search","params":{"source":"c","query":""}"#)
                }
                for (k, text) in word.enumerated() {
                    let first = k == 0 ? " (first keystroke from the unfiltered list)" : ""
                    if typed {
                        r.row("viewport.pipe-1m fuzzy \"\(text)\"\(first) reply \(sizes[k]) B", Sample(times[k]), target: .ms(10))
                    } else {
                        r.row("viewport.pipe-1m fuzzy \"\(text)\" sent back to back (scripted; no target)", Sample(times[k]))
                    }
                }
            }
        }
        var scrolls: [Double] = []
        var rng = SplitMix64(seed: 7)
        for _ in 0..<context.runs(full: 30, quick: 10) {
            let start = Int(truncatingIfNeeded: rng.next() >> 1) % (items - window)
            scrolls.append(try request(#""method":"viewport","params":{"source":"c","start":\#(start),"count":\#(window)}"#).ms)
            scrolls.append(try request(#""method":"viewport","params":{"source":"c","start":\#(start + window),"count":\#(window)}"#).ms)
        }
        r.row("viewport.pipe-1m scroll by one page anywhere", Sample(scrolls), target: .ms(1))
        _ = try request(#""method":"viewport","params":{"source":"c","start":500000,"count":\#(window)}"#)
        var edits: [Double] = []
        var editBytes = 0
        for k in 0..<context.runs(full: 20, quick: 5) {
            let (bytes, ms) = try request(#""method":"edit","params":{"source":"c","ops":[{"op":"setContent","items":[{"id":"r\#(900_000 + k)","content":{"text":"edited \#(k)"}}]}]}"#)
            edits.append(ms)
            editBytes = bytes
        }
        r.row("viewport.pipe-1m edit of one item outside the window, reply \(editBytes) B", Sample(edits), target: .ms(0.2))
    }

    /// Makes the next keystroke a scan from scratch: the daemon keeps the
    /// matches of recent queries (a Backspace reuses them) until the
    /// snapshot changes, so a round starts with an edit outside the window
    /// and a query of its own that rebuilds the search index (not measured).
    /// `placeholder`: the search's placeholder member, checked once per
    /// snapshot (not an item id) and so also checked here.
    /// `pause`: the time between the edit and that query (a person's).
    /// Returns the edit's round trip and the next keystroke's.
    @discardableResult
    static func forgetRecentMatches(round: Int, placeholder: String = "", pause: TimeInterval = 0,
                                    request: (String) throws -> (bytes: Int, ms: Double)) throws -> (edit: Double, next: Double) {
        let edit = try request(#""method":"edit","params":{"source":"c","ops":[{"op":"setContent","items":[{"id":"r\#(990_000 + round)","content":{"text":"round \#(round)"}}]}]}"#).ms
        if pause > 0 { Thread.sleep(forTimeInterval: pause) }
        let next = try request(#""method":"search","params":{"source":"c","query":"zq"\#(placeholder)}"#).ms
        _ = try request(#""method":"search","params":{"source":"c","query":""}"#)
        return (edit, next)
    }
}

extension ViewportBenchmarks {
    /// The TUI's people picker (`protocol/examples/tui`): an "added" section
    /// and 1M people, filtered in place by substring (source order, no
    /// limit, a placeholder), drawn through a 34-row window. Each round
    /// starts with an edit (`forgetRecentMatches`: no recent matches; the
    /// keystroke after it rebuilds the index), types "m", "mi", "mil", goes
    /// back with two Backspaces and clears.
    static func picker(_ context: BenchContext, items: Int, window: Int) throws {
        let r = context.reporter
        let daemon = try DaemonConnection(path: context.daemonPath)
        defer { daemon.close() }
        _ = try daemon.exchange(Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"initializationOptions":{"supersedeSearches":false}}}"#.utf8) + [0x0A], id: 1)
        let rows = SearchBenchmarks.texts(items).enumerated().map { #"{"id":"r\#($0.offset)","content":{"text":"\#($0.element)"}}"# }
        let apply = Array(#"{"jsonrpc":"2.0","id":2,"method":"apply","params":{"source":"c","viewport":{"start":0,"count":\#(window)},"sections":[{"id":"added","items":[]},{"id":"list","items":[\#(rows.joined(separator: ","))]}]}}"#.utf8) + [0x0A]
        _ = try daemon.exchange(apply, id: 2)
        let request = Requester(daemon).send
        let steps: [(query: String, what: String)] = [
            ("m", "first letter"), ("mi", "narrowing"), ("mil", "narrowing"),
            ("mi", "Backspace"), ("m", "Backspace"), ("", "clearing"),
        ]
        var times: [[Double]] = Array(repeating: [], count: steps.count)
        var edits: [Double] = []
        var afterEdit: [Double] = []
        var enters: [Double] = []
        var afterEnter: [Double] = []
        let placeholder = #","sections":["list"],"placeholder":{"id":"none","content":{"text":"No results"}}"#
        func search(_ query: String) throws -> Double {
            try request(#""method":"search","params":{"source":"c","query":"\#(query)"\#(placeholder),"viewport":{"start":0,"count":\#(window)}}"#).ms
        }
        // The app declares its search field right after the apply (an empty
        // query); the index is built in the background while the person
        // reads the first screen (a second here), so the first letter does
        // not wait for it. One sample per apply.
        _ = try search("")
        Thread.sleep(forTimeInterval: 1)
        let firstLetter = try search("m")
        _ = try search("")
        let runs = context.runs(full: 7, quick: 2)
        for round in 0..<runs {
            // The next key comes a fast typist's 0.1 s after the edit: the
            // index is spliced in the background meanwhile.
            let (edit, next) = try forgetRecentMatches(round: round, placeholder: placeholder, pause: 0.1, request: request)
            if round > 0 { edits.append(edit); afterEdit.append(next) }  // round 0 builds the first index
            for (k, step) in steps.enumerated() { times[k].append(try search(step.query)) }
        }
        // A scripted client's next query, sent with no pause, waits for
        // the rest of that splice.
        var rightAfterEdit: [Double] = []
        for round in runs..<(2 * runs) {
            rightAfterEdit.append(try forgetRecentMatches(round: round, placeholder: placeholder, request: request).next)
        }
        // Enter on a person while "mi" filters: delete + append to "added"
        // in one edit (the picker's move), answered with the filtered diff.
        for round in 0..<runs {
            _ = try search("mi")
            let id = "r\(500_000 + round)"
            enters.append(try request(#""method":"edit","params":{"source":"c","ops":[{"op":"deleteItems","ids":["\#(id)"]},{"op":"appendItems","section":"added","items":[{"id":"\#(id)","content":{"text":"moved \#(round)"}}]}]}"#).ms)
            // The next key, a fast typist's 0.1 s later: the index was
            // spliced in the background meanwhile; the query narrows.
            Thread.sleep(forTimeInterval: 0.1)
            afterEnter.append(try search("mil"))
        }
        r.row("viewport.picker-1m first letter after the apply (index built in the background; one sample)",
              Sample([firstLetter]), target: .ms(16))
        r.row("viewport.picker-1m edit of one item, no search active", Sample(edits), target: .ms(0.5))
        r.row("viewport.picker-1m first keystroke 0.1 s after that edit (index spliced in the background)", Sample(afterEdit),
              target: .ms(16))
        r.row("viewport.picker-1m query sent right after that edit (waits for the splice; no target)", Sample(rightAfterEdit))
        r.row("viewport.picker-1m Enter under \"mi\": move a person to \"added\" (edit, filtered diff)", Sample(enters),
              target: .ms(16))
        r.row("viewport.picker-1m \"mil\" 0.1 s after that Enter (index spliced in the background)", Sample(afterEnter),
              target: .ms(16))
        for (k, step) in steps.enumerated() {
            r.row("viewport.picker-1m substring \"\(step.query)\" (\(step.what))", Sample(times[k]), target: .ms(16))
        }
    }
}

/// Numbered requests to a daemon (ids from 11 on): the reply's size and
/// round trip; an error reply throws.
final class Requester {
    private let daemon: DaemonConnection
    private var id = 10

    init(_ daemon: DaemonConnection) { self.daemon = daemon }

    /// `body`: the members after `"id"` (`"method":…,"params":…`).
    func send(_ body: String) throws -> (bytes: Int, ms: Double) {
        id += 1
        let (answer, _, ms) = try daemon.exchange(Array(#"{"jsonrpc":"2.0","id":\#(id),\#(body)}"#.utf8) + [0x0A], id: id)
        guard !answer.starts(with: Array(#"{"jsonrpc":"2.0","id":\#(id),"error""#.utf8)) else {
            throw ApplyRequest.Mismatch(description: String(decoding: answer.prefix(300), as: UTF8.self))
        }
        return (answer.count, ms)
    }
}
