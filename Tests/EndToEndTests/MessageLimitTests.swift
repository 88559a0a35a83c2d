import Foundation
import Testing

/// Nothing a client sends, or fails to read, makes the daemon hold more than
/// a bounded amount: a message over `--max-message-bytes` is skipped and
/// answered, and a client that never reads its answers is held back.
@Suite(.serialized) struct MessageLimitTests {
    static let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#

    static func probe(_ id: Int) -> String { #"{"jsonrpc":"2.0","id":\#(id),"method":"sources"}"# }
    static func probeAnswer(_ id: Int) -> String { #"{"jsonrpc":"2.0","id":\#(id),"result":{"sources":[]}}"# }

    /// An `apply` of `count` items, with its id first or last.
    static func apply(id: String, count: Int, idFirst: Bool) -> String {
        let items = (0..<count).map { #"{"id":"item-\#($0)","content":{"text":"item number \#($0)"}}"# }.joined(separator: ",")
        let params = #""params":{"source":"big","sections":[{"id":"s","items":[\#(items)]}]}"#
        return idFirst ? #"{"jsonrpc":"2.0","id":\#(id),"method":"apply",\#(params)}"#
                       : #"{"jsonrpc":"2.0","method":"apply",\#(params),"id":\#(id)}"#
    }

    @Test(arguments: [false, true])
    func aMessageOverTheLimitIsAnsweredAndTheNextOneServed(lsp: Bool) throws {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("diffable-\(UUID()).trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        // The first is whole within the bytes kept of it; the second's id
        // comes after more than those bytes.
        let idFirst = Self.apply(id: #""big-1""#, count: 40, idFirst: true)
        let idLast = Self.apply(id: "7", count: 200, idFirst: false)
        let fits = Self.apply(id: "8", count: 5, idFirst: true)
        #expect(idFirst.utf8.count > 1000 && idFirst.utf8.count < 4096 && idLast.utf8.count > 4096 && fits.utf8.count < 1000)
        let session = [Self.initialize, idFirst, Self.probe(2), idLast, Self.probe(3), fits]
        let input = lsp ? DaemonProcess.lspFramed(session) : Array((session.joined(separator: "\n") + "\n").utf8)
        let output = try DaemonProcess.run(input, arguments: ["--max-message-bytes", "1000", "--trace", trace.path])
        #expect(output.status == 0, "\(output.stderr)")
        let answers = lsp ? try DaemonProcess.lspBodies(output.stdout) : output.lines
        try #require(answers.count == 6, "\(answers)")

        func expectTooLarge(_ answer: String, id: String, size: Int) {
            #expect(answer.hasPrefix(#"{"jsonrpc":"2.0","id":\#(id),"error":{"code":1010,"message":"Message of \#(size) bytes is over the limit of 1000 bytes (--max-message-bytes)"#), "\(answer)")
            #expect(answer.hasSuffix(#""data":{"limit":1000,"size":\#(size)}}}"#), "\(answer)")
        }
        expectTooLarge(answers[1], id: #""big-1""#, size: idFirst.utf8.count)
        #expect(answers[2] == Self.probeAnswer(2))
        expectTooLarge(answers[3], id: "null", size: idLast.utf8.count)
        #expect(answers[4] == Self.probeAnswer(3))
        #expect(answers[5].hasPrefix(#"{"jsonrpc":"2.0","id":8,"result":{"source":"big","version":1"#), "\(answers[5].prefix(200))")
        #expect(output.stderr.contains("over --max-message-bytes 1000"), "\(output.stderr)")

        // The trace records the skipped messages, and replays to the same answers.
        let replay = try DaemonProcess.run([], arguments: ["replay", trace.path])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdoutText.contains("6 responses matched"), "\(replay.stdoutText)")
    }

    @Test func aBadLimitIsAUsageError() throws {
        for value in ["0", "-5", "lots"] {
            let output = try DaemonProcess.run([], arguments: ["--max-message-bytes", value])
            #expect(output.status == 2)
            #expect(output.stderr.contains("--max-message-bytes needs a positive number of bytes"), "\(output.stderr)")
        }
    }

    /// A client writes 90 MiB of small requests from a thread and reads
    /// nothing. The daemon's answers fill stdout and block it; the reader
    /// then stops reading once its queue is full (64 MiB), so the client's
    /// writes block too, before the 90 MiB are through, and the daemon's
    /// memory stays bounded. Then the client reads: every request is
    /// answered.
    @Test func aClientThatNeverReadsIsHeldBackNotBuffered() throws {
        let binary = try #require(DaemonProcess.binary)
        signal(SIGPIPE, SIG_IGN)  // a daemon that died shows as a failed write, not a dead test runner
        let process = Process()
        process.executableURL = binary
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        DispatchQueue.global().async { _ = stderr.fileHandleForReading.readDataToEndOfFile() }

        // ~2 KB per request: 90 MiB is ~46,000 of them, which a debug
        // build answers in seconds. Their ids are long, so each takes its
        // size or more in memory once parsed.
        let padding = String(repeating: "x", count: 2000)
        var block: [UInt8] = []
        var requests = 0
        while block.count < 1 << 20 {
            block += Array(#"{"jsonrpc":"2.0","id":"\#(padding)-\#(requests)","method":"sources"}"#.utf8) + [0x0A]
            requests += 1
        }
        let blocks = 90
        let chunk = block
        let writer = Writer(fd: stdin.fileHandleForWriting.fileDescriptor)
        Thread {
            writer.write(Array((Self.initialize + "\n").utf8))
            for _ in 0..<blocks { writer.write(chunk) }
            try? stdin.fileHandleForWriting.close()
            writer.finish()
        }.start()

        // Wait until the writer is stuck (no progress for 2 s) or done. A
        // slow machine only makes the daemon absorb its share later: the
        // writer cannot get through while nobody reads the answers.
        var last = -1
        var stillSince = Date()
        let started = Date()
        while true {
            let (written, finished) = writer.progress
            if finished { break }
            if written != last {
                last = written
                stillSince = Date()
            } else if Date().timeIntervalSince(stillSince) >= 2 {
                break
            }
            try #require(Date().timeIntervalSince(started) < 600, "hang detector: the writer neither finished nor stopped")
            usleep(50_000)
        }
        let rss = try Self.residentMiB(process.processIdentifier)
        let (written, finished) = writer.progress
        #expect(!finished, "the daemon read all \(written) bytes without anyone reading its answers (RSS \(rss) MiB)")
        // At most the queue's 64 MiB, the pipes' 1 MiB each and a read.
        #expect(written < 80 << 20, "the daemon read \(written) bytes ahead")
        // What the queue may hold (64 MiB) plus the daemon itself, with room to spare.
        #expect(rss < 250, "RSS \(rss) MiB while the writer is blocked after \(written) bytes")

        // Now read: the writer gets through, and every request is answered.
        var answers = 0
        var wrong: [String] = []
        var pending: [UInt8] = []
        let ending = Array(#","result":{"sources":[]}}"#.utf8)
        while true {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            pending += chunk
            var start = 0
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                let line = pending[start..<newline]
                if answers > 0 && !line.suffix(ending.count).elementsEqual(ending) {
                    if wrong.count < 3 { wrong.append(String(decoding: line.prefix(300), as: UTF8.self)) }
                }
                answers += 1
                start = newline + 1
            }
            pending.removeSubrange(..<start)
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(writer.progress.finished)
        #expect(answers == 1 + blocks * requests, "answers: \(answers) of \(1 + blocks * requests)")
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(pending.isEmpty)
    }

    /// The resident set of process `pid`, from /proc (Linux).
    static func residentMiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? ""))
        return kilobytes / 1024
    }
}

/// Writes to a pipe with plain blocking writes, counting what got through.
private final class Writer: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var written = 0
    private var finished = false

    init(fd: Int32) { self.fd = fd }

    var progress: (written: Int, finished: Bool) {
        lock.lock()
        defer { lock.unlock() }
        return (written, finished)
    }

    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let n = Foundation.write(fd, base + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
                lock.lock()
                written += n
                lock.unlock()
            }
        }
    }

    func finish() {
        lock.lock()
        finished = true
        lock.unlock()
    }
}
