import DiffableServer
import Foundation
import DiffableProtocol

/// Field-level updates (issue 32) over the pipe: a ticker of 10,000 rows of
/// 20-field content where 1% of the rows change one field per tick. The
/// tick sent as a whole `apply` answered with `updates: "content"` and with
/// `"patch"`; as one `edit` of 100 `patchContent` ops (`echo: "ids"` and
/// `"full"`); and 60 such edits a second against a 50-row window.
enum PatchBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "patch.pipe-10k",
                  summary: "10k ticker rows of 20 fields, 100 rows changing one field per tick: apply under updates content vs patch, edit of 100 patchContent ops, 60 ticks/s against a 50-row window") { context in
            try run(context)
        },
    ]

    static let rows = 10_000
    static let changedPerTick = 100

    /// The ticker's state: what the daemon holds, kept by the benchmark so
    /// every request is computed from it (numbers as integer hundredths so
    /// their lexemes stay two-decimal, as a feed writes them).
    struct Ticker {
        struct Row {
            var symbol: String
            var name: String
            var exchange: String
            var price: Int, change: Int, changePct: Int, open: Int, high: Int, low: Int, close: Int
            var volume: Int, avgVolume: Int, marketCap: Int
            var pe: Int, eps: Int, dividend: Int, yield: Int, bid: Int, ask: Int
        }

        var rows: [Row]
        var rng = SplitMix64(seed: 0x7_1C_4E_12)

        init(count: Int) {
            let exchanges = ["NASDAQ", "NYSE", "ARCA", "BATS"]
            let words = ["Global", "Systems", "Energy", "Holdings", "Bio", "Micro", "Capital", "Motors", "Foods", "Networks"]
            var rng = SplitMix64(seed: 0xC0FFEE)
            func uniform(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
            rows = (0..<count).map { i in
                let price = uniform(500...90_000)
                let close = price - uniform(-400...400)
                let change = price - close
                let volume = uniform(10_000...80_000_000)
                let eps = uniform(-500...1_500)
                return Row(
                    symbol: Ticker.id(i),
                    name: "\(words[i % words.count]) \(words[(i / 10) % words.count]) \(i) Inc.",
                    exchange: exchanges[i % exchanges.count],
                    price: price, change: change, changePct: change * 10_000 / max(1, close),
                    open: close + uniform(-200...200), high: price + uniform(0...300), low: price - uniform(0...300),
                    close: close, volume: volume, avgVolume: volume + uniform(-5_000...5_000_000),
                    marketCap: price * uniform(1_000_000...30_000_000),
                    pe: eps > 0 ? price * 100 / eps : 0, eps: eps, dividend: uniform(0...400),
                    yield: uniform(0...600), bid: price - uniform(1...5), ask: price + uniform(1...5))
            }
        }

        static func id(_ i: Int) -> String {
            let digits = String(i)
            return "T" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
        }

        /// `12345` → `123.45`, `-5` → `-0.05`.
        static func hundredths(_ value: Int) -> String {
            let magnitude = abs(value)
            let cents = magnitude % 100
            return (value < 0 ? "-" : "") + "\(magnitude / 100)." + (cents < 10 ? "0" : "") + "\(cents)"
        }

        func content(_ i: Int) -> String {
            let r = rows[i]
            let h = Ticker.hundredths
            return #"{"symbol":"\#(r.symbol)","name":"\#(r.name)","exchange":"\#(r.exchange)","currency":"USD","#
                + #""price":\#(h(r.price)),"change":\#(h(r.change)),"changePct":\#(h(r.changePct)),"#
                + #""open":\#(h(r.open)),"high":\#(h(r.high)),"low":\#(h(r.low)),"close":\#(h(r.close)),"#
                + #""volume":\#(r.volume),"avgVolume":\#(r.avgVolume),"marketCap":\#(r.marketCap),"#
                + #""pe":\#(h(r.pe)),"eps":\#(h(r.eps)),"dividend":\#(h(r.dividend)),"yield":\#(h(r.yield)),"#
                + #""bid":\#(h(r.bid)),"ask":\#(h(r.ask))}"#
        }

        /// `[{"id":"quotes","items":[…]}]`: the whole list as `apply` sends it.
        func sections() -> String {
            var out = #"[{"id":"quotes","items":["#
            out.reserveCapacity(rows.count * 380)
            for i in rows.indices {
                if i > 0 { out += "," }
                out += #"{"id":"\#(rows[i].symbol)","content":\#(content(i))}"#
            }
            return out + "]}]"
        }

        /// One tick: `changedPerTick` distinct rows each get a new price.
        /// Returns the `patchContent` ops that say the same.
        mutating func tick() -> [String] {
            var picked = Set<Int>()
            while picked.count < PatchBenchmarks.changedPerTick { picked.insert(Int.random(in: 0..<rows.count, using: &rng)) }
            return picked.sorted().map { i in
                var step = Int.random(in: -25...25, using: &rng)
                if step == 0 { step = 1 }
                rows[i].price = max(1, rows[i].price + step)
                return #"{"op":"patchContent","id":"\#(rows[i].symbol)","patch":[{"op":"replace","path":"/price","value":\#(Ticker.hundredths(rows[i].price))}]}"#
            }
        }
    }

    static func line(_ text: String) -> [UInt8] { Array(text.utf8) + [0x0A] }

    /// Sends one numbered request; an error reply throws.
    static func send(_ daemon: DaemonConnection, _ request: [UInt8], id: Int) throws -> (reply: [UInt8], ms: Double) {
        let (answer, _, ms) = try daemon.exchange(request, id: id)
        guard !answer.starts(with: Array(#"{"jsonrpc":"2.0","id":\#(id),"error""#.utf8)) else {
            throw ApplyRequest.Mismatch(description: String(decoding: answer.prefix(300), as: UTF8.self))
        }
        return (answer, ms)
    }

    /// The rows of a batch reply's `items.reload`, checked: `changedPerTick`
    /// of them, each carrying exactly `carries` (`"patch"`, `"content"` or
    /// nothing when `nil`); the rows of a patch run (`rows`, `patches`)
    /// carry a patch.
    static func checkReloads(_ reply: [UInt8], carries: String?) throws {
        let json = try JSONParser.parse(reply)
        var count = 0
        for run in json["result"]?["batch"]?["items"]?["reload"]?.arrayValue ?? [] {
            if let rows = run["rows"]?.arrayValue {
                guard carries == "patch", run["patches"]?.arrayValue?.count == rows.count else {
                    throw ApplyRequest.Mismatch(description: "a patch run where rows carry \(carries ?? "nothing"): \(String(decoding: reply.prefix(300), as: UTF8.self))")
                }
                count += rows.count
                continue
            }
            for item in run["items"]?.arrayValue ?? [] {
                count += 1
                let has = item["patch"] != nil ? "patch" : item["content"] != nil ? "content" : nil
                guard has == carries else {
                    throw ApplyRequest.Mismatch(description: "a reloaded row carries \(has ?? "nothing"), expected \(carries ?? "nothing"): \(String(decoding: reply.prefix(300), as: UTF8.self))")
                }
            }
        }
        guard count == changedPerTick else {
            throw ApplyRequest.Mismatch(description: "expected \(changedPerTick) reloaded rows, got \(count): \(String(decoding: reply.prefix(300), as: UTF8.self))")
        }
    }

    static func percentile(_ sample: Sample, _ p: Double) -> Double {
        guard !sample.values.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sample.values.count)).rounded(.up)) - 1
        return sample.values[min(sample.values.count - 1, max(0, rank))]
    }

    static func run(_ context: BenchContext) throws {
        let r = context.reporter
        var ticker = Ticker(count: rows)
        let daemon = try DaemonConnection(path: context.daemonPath)
        defer { daemon.close() }
        var id = 1
        _ = try send(daemon, line(#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#), id: 1)

        // 1. The tick as a whole `apply`, to two sources holding the same
        // rows: "c" answered under `updates: "content"`, "p" under "patch".
        func apply(_ source: String, _ updates: String, _ sections: String) throws -> (reply: [UInt8], ms: Double) {
            id += 1
            return try send(daemon, line(#"{"jsonrpc":"2.0","id":\#(id),"method":"apply","params":{"source":"\#(source)","updates":"\#(updates)","sections":\#(sections)}}"#), id: id)
        }
        let initial = ticker.sections()
        r.note("apply request \(String(format: "%.2f", Double(initial.utf8.count) / 1e6)) MB, \(initial.utf8.count / rows) bytes per row")
        _ = try apply("c", "content", initial)
        _ = try apply("p", "patch", initial)
        let applyRuns = context.runs(full: 21, quick: 5)
        var contentMs: [Double] = [], patchMs: [Double] = [], ratioMs: [Double] = []
        var contentBytes: [Double] = [], patchBytes: [Double] = [], ratioBytes: [Double] = []
        for run in -1..<applyRuns {
            _ = ticker.tick()
            let sections = ticker.sections()
            // Alternate which source goes first, so neither always follows the other.
            var c: (reply: [UInt8], ms: Double) = ([], 0), p: (reply: [UInt8], ms: Double) = ([], 0)
            if run % 2 == 0 {
                c = try apply("c", "content", sections)
                p = try apply("p", "patch", sections)
            } else {
                p = try apply("p", "patch", sections)
                c = try apply("c", "content", sections)
            }
            if run < 2 {
                try checkReloads(c.reply, carries: "content")
                try checkReloads(p.reply, carries: "patch")
            }
            guard run >= 0 else { continue }  // warm-up
            contentMs.append(c.ms); patchMs.append(p.ms); ratioMs.append(p.ms / c.ms)
            contentBytes.append(Double(c.reply.count)); patchBytes.append(Double(p.reply.count))
            ratioBytes.append(Double(p.reply.count) / Double(c.reply.count) * 100)
        }
        r.row("patch.pipe-10k apply tick, updates: \"content\"", Sample(contentMs))
        r.row("patch.pipe-10k apply tick, updates: \"patch\"", Sample(patchMs))
        r.value("patch.pipe-10k apply tick reply, updates: \"content\"", Sample(contentBytes).median, unit: "B")
        r.value("patch.pipe-10k apply tick reply, updates: \"patch\"", Sample(patchBytes).median, unit: "B")
        r.value("patch.pipe-10k apply tick reply bytes, patch / content", Sample(ratioBytes).median, unit: "%",
                target: Target(limit: 15, unit: "%"))
        r.value("patch.pipe-10k apply tick time, patch / content (median of per-tick ratios)", Sample(ratioMs).median, unit: "×",
                target: Target(limit: 1.1, unit: "×"))

        // 2. The same tick as one `edit` of 100 `patchContent` ops to "p".
        let editRuns = context.runs(full: 51, quick: 11)
        for echo in ["ids", "full"] {
            var ms: [Double] = [], requestBytes: [Double] = [], replyBytes: [Double] = []
            for run in -5..<editRuns {
                let ops = ticker.tick()
                id += 1
                let request = line(#"{"jsonrpc":"2.0","id":\#(id),"method":"edit","params":{"source":"p","updates":"patch","echo":"\#(echo)","ops":[\#(ops.joined(separator: ","))]}}"#)
                let (reply, elapsed) = try send(daemon, request, id: id)
                if run < 0 {
                    try checkReloads(reply, carries: echo == "ids" ? nil : "patch")
                    continue
                }
                ms.append(elapsed)
                requestBytes.append(Double(request.count - 1) / Double(changedPerTick))
                replyBytes.append(Double(reply.count) / Double(changedPerTick))
            }
            r.row("patch.pipe-10k edit tick, 100 patchContent, echo: \"\(echo)\"", Sample(ms), target: .ms(1))
            r.value("patch.pipe-10k edit tick request per changed row, echo: \"\(echo)\"", Sample(requestBytes).median, unit: "B",
                    target: Target(limit: 100, unit: "B"))
            r.value("patch.pipe-10k edit tick reply per changed row, echo: \"\(echo)\"", Sample(replyBytes).median, unit: "B",
                    target: Target(limit: 100, unit: "B"))
        }
        // Both sources agree with the benchmark's model (outside the timings).
        id += 1
        let (snapshot, _) = try send(daemon, line(#"{"jsonrpc":"2.0","id":\#(id),"method":"snapshot","params":{"source":"p"}}"#), id: id)
        let held = try JSONParser.parse(snapshot)["result"]?["sections"]?.arrayValue?.first?["items"]?.arrayValue ?? []
        for i in [0, 1, rows / 2, rows - 1] where i < held.count {
            guard let content = held[i]["content"], JSONWriter.string(content) == ticker.content(i) else {
                throw ApplyRequest.Mismatch(description: "row \(i) of \"p\" differs from the model after the patchContent ticks")
            }
        }

        try sustained(context, ticker: &ticker)
    }

    /// 60 ticks a second of the `edit` workload against a fresh daemon
    /// whose source has a 50-row window; each tick is sent at its slot (or
    /// as soon as the previous reply is in, when that is later).
    static func sustained(_ context: BenchContext, ticker: inout Ticker) throws {
        let r = context.reporter
        let seconds = context.quick ? 5 : 60
        let rate = 60
        let daemon = try DaemonConnection(path: context.daemonPath)
        defer { daemon.close() }
        _ = try send(daemon, line(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"initializationOptions":{"updates":"patch"}}}"#), id: 1)
        _ = try send(daemon, line(#"{"jsonrpc":"2.0","id":2,"method":"apply","params":{"source":"w","viewport":{"start":0,"count":50},"sections":\#(ticker.sections())}}"#), id: 2)
        Thread.sleep(forTimeInterval: 0.5)
        let start = daemon.memory()
        let total = seconds * rate
        let period = 1_000_000_000 / UInt64(rate)
        var latencies: [Double] = []
        var answered = 0, late = 0, windowUpdates = 0
        var afterOneSecond: (rss: Double, peak: Double)?
        var trace: [String] = []
        let warmUpSeconds = context.quick ? 1 : 10
        var warmedUp: Double?
        let traceEvery = (context.quick ? 1 : 10) * rate
        let begin = nowNanoseconds()
        for k in 0..<total {
            let slot = begin + UInt64(k) * period
            let now = nowNanoseconds()
            if now < slot {
                let wait = slot - now
                var ts = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
                nanosleep(&ts, nil)
            } else if now - slot > period {
                late += 1
            }
            let ops = ticker.tick()
            let id = 10 + k
            let (reply, ms) = try send(daemon, line(#"{"jsonrpc":"2.0","id":\#(id),"method":"edit","params":{"source":"w","ops":[\#(ops.joined(separator: ","))]}}"#), id: id)
            guard reply.starts(with: Array(#"{"jsonrpc":"2.0","id":\#(id),"result":{"source":"w","version":"#.utf8)) else {
                throw ApplyRequest.Mismatch(description: "tick \(k): \(String(decoding: reply.prefix(300), as: UTF8.self))")
            }
            answered += 1
            latencies.append(ms)
            if k < 600, reply.count > 120 {  // a window `update` step: count its rows (first 10 s)
                let steps = try JSONParser.parse(reply)["result"]?["window"]?["steps"]?.arrayValue ?? []
                for step in steps { windowUpdates += step["rows"]?.arrayValue?.count ?? 0 }
            }
            if k == rate - 1 { afterOneSecond = daemon.memory() }
            if (k + 1) % traceEvery == 0, let now = daemon.memory() {
                trace.append(String(format: "%.1f", now.rss))
                if k + 1 == warmUpSeconds * rate { warmedUp = now.rss }
            }
        }
        let elapsed = Double(nowNanoseconds() - begin) / 1e9
        let end = daemon.memory()
        let sample = Sample(latencies)
        r.value("patch.pipe-10k sustained \(rate)/s for \(seconds) s: ticks answered (of \(total))", Double(answered), unit: "ticks")
        r.value("patch.pipe-10k sustained: ticks sent over a period after their slot", Double(late), unit: "ticks")
        r.row("patch.pipe-10k sustained: tick latency (p50)", sample)
        r.value("patch.pipe-10k sustained: tick latency p99", percentile(sample, 99), unit: "ms")
        r.note(String(format: "%d ticks in %.2f s; %d window rows updated in the first %d ticks", answered, elapsed, windowUpdates, min(total, 600)))
        r.note("VmRSS every \(traceEvery / rate) s (MB): " + trace.joined(separator: ", "))
        if let start, let end {
            r.value("patch.pipe-10k sustained: daemon VmRSS at start", start.rss, unit: "MB")
            if let afterOneSecond { r.value("patch.pipe-10k sustained: daemon VmRSS after 1 s", afterOneSecond.rss, unit: "MB") }
            r.value("patch.pipe-10k sustained: daemon VmRSS at end", end.rss, unit: "MB")
            // The first tick builds the edit index, and every row moves
            // once from the `apply`'s arenas into storage of its own (the
            // arenas given back once their last row has moved): growth
            // bounded by the source's size, over by the first 10 s (600
            // ticks rewrite 99.7 % of the rows at least once). Flat is
            // judged after that.
            r.value("patch.pipe-10k sustained: VmRSS growth, end vs start (first rewrite of every row included)",
                    (end.rss / start.rss - 1) * 100, unit: "%")
            if let warmedUp = warmedUp {
                r.value("patch.pipe-10k sustained: VmRSS growth, end vs after \(warmUpSeconds) s", (end.rss / warmedUp - 1) * 100,
                        unit: "%", target: Target(limit: 5, unit: "%"))
            }
        }
    }
}
