import Foundation
import Testing

/// `diffable replay` on the traces users attach to bug reports: messages
/// without an id (malformed ones too) expect no answer, a trace cut inside
/// its last record still replays, and an empty trace is an error.
struct TraceReplayTests {
    static func temporary() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("diffable-\(UUID()).trace")
    }

    static func record(_ session: [String]) throws -> [UInt8] {
        let trace = temporary()
        defer { try? FileManager.default.removeItem(at: trace) }
        let run = try DaemonProcess.run(lines: session, arguments: ["--trace", trace.path])
        #expect(run.status == 0)
        return [UInt8](try Data(contentsOf: trace))
    }

    static func replay(_ bytes: [UInt8]) throws -> DaemonProcess.Output {
        let trace = temporary()
        defer { try? FileManager.default.removeItem(at: trace) }
        try Data(bytes).write(to: trace)
        return try DaemonProcess.run([], arguments: ["replay", trace.path])
    }

    @Test func messagesWithoutAnIdExpectNoAnswerAndACutTraceReplays() throws {
        let bytes = try Self.record([
            #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#,
            #"{"jsonrpc":"1.0","method":"x"}"#,
            #"{"method":"apply","params":{}}"#,
            #"[{"jsonrpc":"2.0","method":"initialized"}]"#,
            #"{"jsonrpc":"2.0","id":2,"method":"apply","params":{"source":"p","sections":[{"id":"a","items":["g"]}]}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"sources"}"#,
        ])
        let whole = try Self.replay(bytes)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdoutText.contains("responses matched"), "\(whole.stdoutText)")

        // Cut at every byte of the last record: what comes before replays.
        let lastStart = (bytes.dropLast().lastIndex(of: 0x0A) ?? -1) + 1
        for cut in lastStart + 1..<bytes.count - 1 {
            let replayed = try Self.replay(Array(bytes[..<cut]))
            #expect(replayed.status == 0, "cut at \(cut): \(replayed.stderr)")
            #expect(replayed.stderr.contains("truncated record"), "cut at \(cut): \(replayed.stderr)")
        }
    }

    @Test func anEmptyTraceIsAnError() throws {
        let empty = try Self.replay([])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("no incoming message"), "\(empty.stderr)")
    }
}
