import DiffableServer
import Foundation
import DiffableProtocol

/// Over the pipe: the release `diffable` binary as a frontend sees it
/// (newline-delimited framing). Times are from writing the first request byte
/// to reading the last response byte.
enum PipeBenchmarks {
    static let all: [Benchmark] = [
        apply("pipe.apply-10k", items: 10_000, target: nil, runs: (25, 5), memoryTarget: nil),
        apply("pipe.apply-100k", items: 100_000, target: 50, runs: (15, 5), memoryTarget: nil),
        apply("pipe.apply-1m", items: 1_000_000, target: 500, runs: (5, 1), memoryTarget: 250),
        // The ids people use (issue 13): heap strings, not inline small ones.
        apply("pipe.apply-100k-uuid", items: 100_000, target: 30, runs: (15, 5), memoryTarget: nil, ids: .uuid),
        apply("pipe.apply-1m-uuid", items: 1_000_000, target: 300, runs: (5, 1), memoryTarget: 150, ids: .uuid),
        apply("pipe.apply-1m-path", items: 1_000_000, target: 300, runs: (5, 1), memoryTarget: 150, ids: .path),
    ]

    /// Initial apply of `items` items (all inserts), then applies that each
    /// change the content of 1% of the items (alternating between two
    /// prepared request bodies, so every apply really changes 1%).
    static func apply(
        _ name: String, items: Int, target: Double?, runs: (full: Int, quick: Int), memoryTarget: Double?,
        ids: ClassicWorkload.IDStyle = .short
    ) -> Benchmark {
        let changed = items / 100
        let idKind = ids == .short ? "" : ids == .uuid ? " with UUID ids" : " with path-like ids"
        let summary = "apply of \(items) items\(idKind) (~40-byte content) over a pipe, then applies changing 1% (\(changed)) of the contents"
            + (target.map { "; target ≤ \(Int($0)) ms" } ?? "")
        return Benchmark(name: name, summary: summary) { context in
            let r = context.reporter
            let bodies = [ApplyRequest.body(id: 2, items: items, edited: false, ids: ids),
                          ApplyRequest.body(id: 3, items: items, edited: true, ids: ids)]
            r.note("request size \(String(format: "%.1f", Double(bodies[0].count) / 1e6)) MB")
            let daemon = try DaemonConnection(path: context.daemonPath)
            defer { daemon.close() }
            _ = try daemon.roundTrip(Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.utf8) + [0x0A])

            let (initialResponse, initialMs) = try daemon.roundTrip(bodies[0])
            try ApplyRequest.check(initialResponse, version: 1, inserted: items, reloaded: 0)
            r.row("\(name) initial apply (all inserts)", Sample([initialMs]))
            r.note("initial response \(String(format: "%.1f", Double(initialResponse.count) / 1e6)) MB")

            // Warm-up: state becomes the edited body.
            let (warm, _) = try daemon.roundTrip(bodies[1])
            try ApplyRequest.check(warm, version: 2, inserted: 0, reloaded: changed)
            var times: [Double] = []
            var version = 2
            for run in 0..<context.runs(full: runs.full, quick: runs.quick) {
                let (response, ms) = try daemon.roundTrip(bodies[run % 2])
                version += 1
                times.append(ms)
                if run < 2 { try ApplyRequest.check(response, version: version, inserted: 0, reloaded: changed) }
            }
            r.row("\(name) apply changing 1%", Sample(times), target: target.map(Target.ms))
            // Steady state: the daemon frees a replaced snapshot on a background
            // thread after answering, then trims the heap; give it a moment.
            Thread.sleep(forTimeInterval: 1.0)
            if let memory = daemon.memory() {
                r.value("\(name) daemon VmRSS after", memory.rss, unit: "MB",
                        target: memoryTarget.map(Target.mb))
                r.value("\(name) daemon VmHWM (peak)", memory.peak, unit: "MB")
                r.note(String(format: "peak / steady state = %.2f (target ≤ 2)", memory.peak / max(1, memory.rss)))
            }
        }
    }
}

/// Builds and checks `apply` messages of the pipe benchmarks.
enum ApplyRequest {
    /// `{"jsonrpc":"2.0","id":…,"method":"apply","params":{"source":"bench","sections":[{"id":"all","items":[…]}]}}\n`
    /// with items `{"id":"p0000042","content":{"text":"Firstname Lastname 0000042"}}` (ids in the
    /// given style: `p0000042`, a UUID or a path); when `edited`, every 100th item
    /// (index % 100 == 37) reads "Lastname Firstname …" instead.
    static func body(id: Int, items: Int, edited: Bool, ids: ClassicWorkload.IDStyle = .short) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: items * 72 + 256)
        w.beginObject()
        w.key(raw: "jsonrpc"); w.appendString("2.0")
        w.key(raw: "id"); w.appendInt(id)
        w.key(raw: "method"); w.appendString("apply")
        w.key(raw: "params")
        w.beginObject()
        w.key(raw: "source"); w.appendString("bench")
        w.key(raw: "sections")
        w.beginArray()
        w.beginObject()
        w.key(raw: "id"); w.appendString("all")
        w.key(raw: "items")
        w.beginArray()
        for i in 0..<items {
            let digits = String(i)
            let number = String(repeating: "0", count: max(0, 7 - digits.count)) + digits
            w.beginObject()
            w.key(raw: "id"); w.appendString(ids == .short ? "p" + number : ids.id(i, prefix: "i"))
            w.key(raw: "content")
            w.beginObject()
            w.key(raw: "text")
            w.appendString(edited && i % 100 == 37 ? "Lastname Firstname \(number)" : "Firstname Lastname \(number)")
            w.endObject()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.endArray()
        w.endObject()
        w.endObject()
        var bytes = w.bytes
        bytes.append(0x0A)
        return bytes
    }

    struct Mismatch: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses a response (outside the timed region) and checks version and row counts.
    static func check(_ response: [UInt8], version: Int, inserted: Int, reloaded: Int) throws {
        let json = try JSONParser.parse(response)
        guard let result = json["result"] else {
            throw Mismatch(description: "not a result: \(String(decoding: response.prefix(300), as: UTF8.self))")
        }
        guard result["version"]?.intValue == version else {
            throw Mismatch(description: "expected version \(version): \(String(decoding: response.prefix(300), as: UTF8.self))")
        }
        let batch = result["batch"]
        var insertedRows = 0
        for run in batch?["sections"]?["insert"]?.arrayValue ?? [] {
            for section in run["sections"]?.arrayValue ?? [] { insertedRows += section["items"]?.arrayValue?.count ?? 0 }
        }
        for run in batch?["items"]?["insert"]?.arrayValue ?? [] { insertedRows += run["items"]?.arrayValue?.count ?? 0 }
        var reloadedRows = 0
        for run in batch?["items"]?["reload"]?.arrayValue ?? [] { reloadedRows += run["items"]?.arrayValue?.count ?? 0 }
        guard insertedRows == inserted, reloadedRows == reloaded else {
            throw Mismatch(description: "expected \(inserted) inserted / \(reloaded) reloaded rows, got \(insertedRows) / \(reloadedRows)")
        }
    }
}

/// A running daemon on a pair of pipes, one request at a time.
final class DaemonConnection {
    let process = Process()
    let writeFD: Int32
    let readFD: Int32
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    /// Read but not yet consumed by `nextLine` (see LifecycleBenchmarks).
    var pending: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        try process.run()
        writeFD = stdinPipe.fileHandleForWriting.fileDescriptor
        readFD = stdoutPipe.fileHandleForReading.fileDescriptor
    }

    /// Writes one framed request and reads one response line; returns the
    /// response (without its newline) and the elapsed milliseconds from the
    /// first byte written to the last byte read.
    func roundTrip(_ request: [UInt8]) throws -> (response: [UInt8], ms: Double) {
        let start = nowNanoseconds()
        try request.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(writeFD, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw Failure(description: "write to daemon failed: errno \(errno)")
                }
                offset += n
            }
        }
        var used = 0
        while true {
            if used == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
            let n = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress! + used, $0.count - used) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "read from daemon failed: errno \(errno)")
            }
            if n == 0 { throw Failure(description: "daemon closed its output") }
            used += n
            if buffer[used - 1] == 0x0A { break }
        }
        let ms = Double(nowNanoseconds() - start) / 1e6
        return (Array(buffer[0..<(used - 1)]), ms)
    }

    /// Resident and peak resident memory of the daemon, in MB (from /proc).
    func memory() -> (rss: Double, peak: Double)? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        else { return nil }
        func field(_ name: String) -> Double? {
            for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                if parts.count >= 2, let kb = Double(parts[1]) { return kb / 1024 }
            }
            return nil
        }
        guard let rss = field("VmRSS"), let peak = field("VmHWM") else { return nil }
        return (rss, peak)
    }

    /// Closes stdin (end of input ends the daemon) and waits for it.
    func close() {
        try? stdinPipe.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
