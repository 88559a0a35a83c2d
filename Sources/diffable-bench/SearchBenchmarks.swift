import DiffableEngine
import Foundation
import DiffableProtocol

/// Search keystrokes: the engine index alone, and through the daemon over
/// the pipe (apply, then one `search` request per keystroke).
enum SearchBenchmarks {
    static let all: [Benchmark] = [
        engine("search.engine-1m", items: 1_000_000, firstTarget: 30, narrowTarget: 5),
        engine("search.engine-100k", items: 100_000, firstTarget: 5, narrowTarget: 5),
        pipe("search.pipe-1m", items: 1_000_000),
    ]

    /// "Firstname Lastname 123456"-style texts from a seeded generator.
    static func texts(_ n: Int) -> [String] {
        let first = ["James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William",
                     "Elizabeth", "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah"]
        let last = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
                    "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Taylor", "Moore", "Lee"]
        var rng = SplitMix64(seed: 0x5EED)
        func next() -> Int { Int(truncatingIfNeeded: rng.next() >> 1) }
        return (0..<n).map { _ in "\(first[next() % first.count]) \(last[next() % last.count]) \(100_000 + next() % 900_000)" }
    }

    static let keystrokes = ["j", "jo", "joh", "john", "johns"]

    static func engine(_ name: String, items: Int, firstTarget: Double, narrowTarget: Double) -> Benchmark {
        Benchmark(name: name, summary: "fuzzy, ranked, limit 50, \(items) texts; first keystroke ≤ \(Int(firstTarget)) ms, narrowing ≤ \(Int(narrowTarget)) ms") { context in
            let r = context.reporter
            let all = texts(items)
            var index = SearchIndex()
            let build = sampleRuns(runs: context.runs(full: 3, quick: 1)) { index = SearchIndex(texts: all) }
            r.row("\(name) index build", build)
            let runs = context.runs(full: 9, quick: 3)
            var previous: SearchMatchSet?
            for (k, text) in keystrokes.enumerated() {
                let query = SearchQuery(text: text, mode: .fuzzy, order: .score, limit: 50)
                var matches: SearchMatchSet?
                let last = previous
                let sample = sampleRuns(runs: runs) {
                    matches = index.evaluate(query, narrowing: last, among: nil).matches
                }
                r.row("\(name) \"\(text)\" (\(k == 0 ? "first" : "narrowing"), \(matches?.count ?? 0) matches)", sample,
                      target: .ms(k == 0 ? firstTarget : narrowTarget))
                previous = matches
            }
        }
    }

    /// The daemon: apply `items` people into a "list" section, then type a
    /// query one keystroke per request (fuzzy, limit 50), then clear it.
    static func pipe(_ name: String, items: Int) -> Benchmark {
        Benchmark(name: name, summary: "search requests over the pipe on \(items) items (fuzzy, limit 50), one per keystroke") { context in
            let r = context.reporter
            let daemon = try DaemonConnection(path: context.daemonPath)
            defer { daemon.close() }
            _ = try daemon.roundTrip(Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"initializationOptions":{"supersedeSearches":false}}}"#.utf8) + [0x0A])
            let people = texts(items).enumerated().map { #"{"id":"p\#($0.offset)","content":{"text":"\#($0.element)"}}"# }
            let apply = #"{"jsonrpc":"2.0","id":2,"method":"apply","params":{"source":"p","sections":[{"id":"bar","items":["search"]},{"id":"list","items":[\#(people.joined(separator: ","))]}]}}"#
            _ = try daemon.roundTrip(Array(apply.utf8) + [0x0A])
            var id = 10
            var times: [Int: [Double]] = [:]
            for _ in 0..<context.runs(full: 5, quick: 2) {
                for (k, text) in (keystrokes + [""]).enumerated() {
                    id += 1
                    let request = #"{"jsonrpc":"2.0","id":\#(id),"method":"search","params":{"source":"p","query":"\#(text)","sections":["list"],"mode":"fuzzy","limit":50}}"#
                    let (_, ms) = try daemon.roundTrip(Array(request.utf8) + [0x0A])
                    times[k, default: []].append(ms)
                }
            }
            for (k, text) in (keystrokes + [""]).enumerated() {
                let label = text.isEmpty ? "clear the query (1M rows come back)" : "\"\(text)\""
                let target: Target? = text.isEmpty ? nil : .ms(k == 0 ? 30 : 5)
                r.row("\(name) \(label)", Sample(times[k] ?? []), target: target)
            }
        }
    }
}
