import DiffableServer
import Foundation
import DiffableProtocol

/// What LSP-style work control costs on the largest requests: `$/progress`
/// reporting during a 1M-item `apply`, and how soon a `$/cancelRequest`
/// sent while it runs is answered.
enum LifecycleBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "lifecycle.progress-1m",
                  summary: "apply of 1M items changing 1%, with and without workDoneToken (interleaved); target: progress adds < 2%") { context in
            try progressOverhead(context, items: 1_000_000)
        },
        Benchmark(name: "lifecycle.cancel-1m",
                  summary: "a 1M-item apply cancelled 100 ms after its progress began: time from writing $/cancelRequest to reading -32800") { context in
            try cancelLatency(context, items: 1_000_000)
        },
    ]

    /// `body` with `"workDoneToken":"t"` added as the last member of params.
    static func withToken(_ body: [UInt8]) -> [UInt8] {
        // The body ends `…}}\n`: params' brace, the envelope's brace, newline.
        Array(body[..<(body.count - 3)]) + Array(#","workDoneToken":"t"}}"#.utf8) + [0x0A]
    }

    static func progressOverhead(_ context: BenchContext, items: Int) throws {
        let r = context.reporter
        let plain = [ApplyRequest.body(id: 2, items: items, edited: false), ApplyRequest.body(id: 3, items: items, edited: true)]
        let traced = plain.map(withToken)
        let daemon = try DaemonConnection(path: context.daemonPath)
        defer { daemon.close() }
        _ = try daemon.exchange(Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.utf8) + [0x0A], id: 1)
        _ = try daemon.exchange(plain[0], id: 2)
        var without: [Double] = [], with: [Double] = [], notifications: [Int] = []
        for run in 0..<context.runs(full: 8, quick: 2) {
            let (_, _, ms) = try daemon.exchange(plain[(run + 1) % 2], id: 2 + (run + 1) % 2)
            without.append(ms)
            let (_, count, tokenMs) = try daemon.exchange(traced[run % 2], id: 2 + run % 2)
            with.append(tokenMs)
            notifications.append(count)
        }
        let a = Sample(without), b = Sample(with)
        r.row("lifecycle.progress-1m apply without token", a)
        r.row("lifecycle.progress-1m apply with token", b)
        r.note(String(format: "progress overhead %.1f%% (median with / without − 1); %d notifications per apply",
                      (b.median / a.median - 1) * 100, notifications.sorted()[notifications.count / 2]))
    }

    static func cancelLatency(_ context: BenchContext, items: Int) throws {
        let r = context.reporter
        let body = withToken(ApplyRequest.body(id: 2, items: items, edited: false))
        let daemon = try DaemonConnection(path: context.daemonPath)
        defer { daemon.close() }
        _ = try daemon.exchange(Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.utf8) + [0x0A], id: 1)
        let cancel = Array(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"#.utf8) + [0x0A]
        var latencies: [Double] = []
        for _ in 0..<context.runs(full: 5, quick: 2) {
            try daemon.send(body)
            try daemon.readLine { $0.contains(#""kind":"begin""#) }
            Thread.sleep(forTimeInterval: 0.1)
            let start = nowNanoseconds()
            try daemon.send(cancel)
            let answer = try daemon.readLine { $0.hasPrefix(#"{"jsonrpc":"2.0","id":2,"#) }
            latencies.append(Double(nowNanoseconds() - start) / 1e6)
            guard answer.contains("-32800") else {
                throw ApplyRequest.Mismatch(description: "the cancelled apply answered \(answer.prefix(200))")
            }
        }
        r.row("lifecycle.cancel-1m $/cancelRequest → -32800", Sample(latencies), target: .ms(100))
    }
}

extension DaemonConnection {
    func send(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let n = write(writeFD, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw Failure(description: "write to daemon failed: errno \(errno)")
                }
                offset += n
            }
        }
    }

    /// Reads lines until one satisfies `isWanted`; returns it.
    @discardableResult
    func readLine(until isWanted: (String) -> Bool) throws -> String {
        while true {
            let line = try nextLine()
            let text = String(decoding: line, as: UTF8.self)
            if isWanted(text) { return text }
        }
    }

    /// Sends a request and reads until the response to `id`, counting the
    /// notifications before it; milliseconds from first byte written to the
    /// response's last byte read.
    func exchange(_ request: [UInt8], id: Int) throws -> (response: [UInt8], notifications: Int, ms: Double) {
        let start = nowNanoseconds()
        try send(request)
        let prefix = Array(#"{"jsonrpc":"2.0","id":\#(id),"#.utf8)
        var notifications = 0
        while true {
            let line = try nextLine()
            if line.starts(with: prefix) { return (line, notifications, Double(nowNanoseconds() - start) / 1e6) }
            notifications += 1
        }
    }

    /// The next line of output when one arrives within `seconds`, else nil
    /// (what is read of a longer line stays pending).
    func nextLine(within seconds: Double) throws -> [UInt8]? {
        let deadline = nowNanoseconds() + UInt64(max(0, seconds) * 1e9)
        while pending.firstIndex(of: 0x0A) == nil {
            let now = nowNanoseconds()
            guard now < deadline else { return nil }
            var fd = pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fd, 1, Int32(max(1, (deadline - now) / 1_000_000)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            let n = chunk.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "daemon closed its output") }
            pending.append(contentsOf: chunk[0..<n])
        }
        return try nextLine()
    }

    /// One line of output (without its newline), read byte-buffered.
    private func nextLine() throws -> [UInt8] {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[pending.startIndex..<newline])
                pending.removeSubrange(pending.startIndex...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            let n = chunk.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "daemon closed its output") }
            pending.append(contentsOf: chunk[0..<n])
        }
    }
}
