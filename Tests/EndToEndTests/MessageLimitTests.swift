import Foundation
import Testing

/// A message over `--max-message-bytes` is skipped, never held whole, and
/// answered; the messages after it are served.
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
}
