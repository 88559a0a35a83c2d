import DiffableServer
import Foundation
import DiffableProtocol

/// What the transport itself costs: a stream of tiny pipelined requests
/// (an editor asking `sources` and `selection` on every cursor move, a test
/// harness firing thousands of small calls) in both framings, notifications
/// that need no answer, and one large `apply` framed each way.
enum TransportBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "transport.tiny-requests",
                  summary: "pipelined `sources` and `selection` requests and notifications, one message per line and Content-Length; target ≥ 300,000 requests/s") { context in
            try tinyRequests(context)
        },
        Benchmark(name: "transport.apply-framing-1m",
                  summary: "a 1M-item apply changing 1% (UUID ids), one message per line vs Content-Length (interleaved); target: the same cost") { context in
            try applyFraming(context)
        },
    ]

    enum Framing: String, CaseIterable {
        case lines = "one message per line"
        case contentLength = "Content-Length"

        func frame(_ body: [UInt8]) -> [UInt8] {
            switch self {
            case .lines: body + [0x0A]
            case .contentLength: Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
            }
        }

        /// The bytes that end every reply in this framing's output: the
        /// newline after a line, the blank line before a body.
        var marker: [UInt8] { self == .lines ? [0x0A] : Array("\r\n\r\n".utf8) }
    }

    static func tinyRequests(_ context: BenchContext) throws {
        let r = context.reporter
        let count = context.quick ? 50_000 : 200_000
        let initialize = #"{"jsonrpc":"2.0","id":"init","method":"initialize"}"#
        let apply = #"{"jsonrpc":"2.0","id":"apply","method":"apply","params":{"source":"s","sections":[{"id":"a","items":["x","y"]}]}}"#
        for framing in Framing.allCases {
            var requests: [Double] = [], notifications: [Double] = []
            for _ in 0..<context.runs(full: 5, quick: 2) {
                var stream = framing.frame(Array(initialize.utf8)) + framing.frame(Array(apply.utf8))
                for i in 1...count {
                    let body = i % 2 == 0
                        ? #"{"jsonrpc":"2.0","id":\#(i),"method":"sources"}"#
                        : #"{"jsonrpc":"2.0","id":\#(i),"method":"selection","params":{"source":"s"}}"#
                    stream += framing.frame(Array(body.utf8))
                }
                requests.append(Double(count) / (try timedSession(context, stream, replies: count + 2, framing)))
                // Notifications get no answer: one request at the end says when all are handled.
                var quiet = framing.frame(Array(initialize.utf8))
                for _ in 0..<count {
                    quiet += framing.frame(Array(#"{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"off"}}"#.utf8))
                }
                quiet += framing.frame(Array(#"{"jsonrpc":"2.0","id":1,"method":"sources"}"#.utf8))
                notifications.append(Double(count) / (try timedSession(context, quiet, replies: 2, framing)))
            }
            r.note(String(format: "transport.tiny-requests %@: %.0f requests/s (median of %d; min %.0f, max %.0f), %.0f notifications/s",
                          framing.rawValue, median(requests), requests.count, requests.min() ?? 0, requests.max() ?? 0,
                          median(notifications)), keep: true)
        }
    }

    /// Starts a daemon, writes `stream` from a second thread, reads until
    /// `replies` replies arrived; answers the seconds from the first byte
    /// written to the last reply read.
    static func timedSession(_ context: BenchContext, _ stream: [UInt8], replies: Int, _ framing: Framing) throws -> Double {
        let daemon = try DaemonConnection(path: context.daemonPath)
        defer { daemon.close() }
        let fd = daemon.writeFD
        let start = nowNanoseconds()
        let writer = Thread {
            stream.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count, let base = raw.baseAddress {
                    let n = write(fd, base + offset, min(raw.count - offset, 1 << 16))
                    if n < 0 { if errno == EINTR { continue } else { return } }
                    offset += n
                }
            }
        }
        writer.start()
        let marker = framing.marker
        var seen = 0, matched = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while seen < replies {
            let n = chunk.withUnsafeMutableBytes { read(daemon.readFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw DaemonConnection.Failure(description: "daemon closed its output after \(seen) replies") }
            for i in 0..<n {
                if chunk[i] == marker[matched] {
                    matched += 1
                    if matched == marker.count { seen += 1; matched = 0 }
                } else {
                    matched = chunk[i] == marker[0] ? 1 : 0
                }
            }
        }
        return Double(nowNanoseconds() - start) / 1e9
    }

    static func applyFraming(_ context: BenchContext) throws {
        let r = context.reporter
        let items = context.quick ? 200_000 : 1_000_000
        let bodies = [false, true].map { edited in
            var body = ApplyRequest.body(id: 2, items: items, edited: edited, ids: .uuid)
            if body.last == 0x0A { body.removeLast() }
            return body
        }
        // One daemon per framing, both holding the source; their requests
        // alternate (each framing goes first in every other round), so a
        // change in the machine's speed weighs on both alike.
        var daemons: [Framing: DaemonConnection] = [:]
        defer { daemons.values.forEach { $0.close() } }
        for framing in Framing.allCases {
            let daemon = try DaemonConnection(path: context.daemonPath)
            daemons[framing] = daemon
            _ = try exchange(daemon, framing.frame(Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.utf8)), framing)
            _ = try exchange(daemon, framing.frame(bodies[0]), framing)
        }
        var times: [Framing: [Double]] = [:]
        for run in 0..<context.runs(full: 8, quick: 2) {
            let order = run % 2 == 0 ? Framing.allCases : Framing.allCases.reversed()
            for framing in order {
                guard let daemon = daemons[framing] else { continue }
                times[framing, default: []].append(try exchange(daemon, framing.frame(bodies[(run + 1) % 2]), framing))
            }
        }
        let lines = Sample(times[.lines] ?? []), framed = Sample(times[.contentLength] ?? [])
        r.row("transport.apply-framing-1m one message per line", lines)
        r.row("transport.apply-framing-1m Content-Length", framed)
        r.note(String(format: "Content-Length / one message per line: %.2f× (medians)", framed.median / lines.median), keep: true)
    }

    /// Sends one request and reads its one reply; milliseconds.
    static func exchange(_ daemon: DaemonConnection, _ request: [UInt8], _ framing: Framing) throws -> Double {
        let start = nowNanoseconds()
        try daemon.send(request)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while !complete(received, framing) {
            let n = chunk.withUnsafeMutableBytes { read(daemon.readFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw DaemonConnection.Failure(description: "daemon closed its output") }
            received += chunk[0..<n]
        }
        guard received.count < 200 || !String(decoding: received.prefix(200), as: UTF8.self).contains("\"error\"") else {
            throw DaemonConnection.Failure(description: String(decoding: received.prefix(300), as: UTF8.self))
        }
        return Double(nowNanoseconds() - start) / 1e6
    }

    /// Whether `bytes` hold one whole reply.
    static func complete(_ bytes: [UInt8], _ framing: Framing) -> Bool {
        switch framing {
        case .lines:
            return bytes.last == 0x0A
        case .contentLength:
            let separator = Array("\r\n\r\n".utf8)
            guard bytes.count > separator.count,
                  let end = (0...(min(bytes.count, 64) - separator.count)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }),
                  let length = Int(String(decoding: bytes[16..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces))
            else { return false }
            return bytes.count >= end + 4 + length
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
