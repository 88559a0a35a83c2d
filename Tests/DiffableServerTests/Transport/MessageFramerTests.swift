import Testing
@testable import DiffableServer
import DiffableTestSupport
@testable import DiffableProtocol

/// Feeds `chunks`, draining after each append, then calls `finish()` until nil.
private func run(_ chunks: [[UInt8]]) -> (messages: [FramedMessage], mode: MessageFramer.Mode) {
    var framer = MessageFramer()
    var out: [FramedMessage] = []
    for chunk in chunks {
        framer.append(chunk)
        while let m = framer.next() { out.append(m) }
    }
    while let m = framer.finish() { out.append(m) }
    return (out, framer.mode)
}

private func lsp(_ body: String, headers: [String]? = nil, eol: String = "\r\n") -> [UInt8] {
    let bytes = utf8(body)
    let lines = headers ?? ["Content-Length: \(bytes.count)"]
    return utf8(lines.map { $0 + eol }.joined() + eol) + bytes
}

/// Asserts the same result for the whole stream, every two-way split, and byte-by-byte feeding.
private func expectSplitInvariant(_ stream: [UInt8], _ expected: [FramedMessage],
                                  mode: MessageFramer.Mode, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(run([stream]).messages == expected, sourceLocation: sourceLocation)
    #expect(run([stream]).mode == mode, sourceLocation: sourceLocation)
    for cut in 0...stream.count {
        let result = run([Array(stream[..<cut]), Array(stream[cut...])]).messages
        if result != expected {
            Issue.record("split at \(cut) gave \(result)", sourceLocation: sourceLocation)
            return
        }
    }
    #expect(run(stream.map { [$0] }).messages == expected, sourceLocation: sourceLocation)
}

@Suite struct MessageFramerTests {
    @Test func lspMessagesWithVariedHeaders() {
        let bodies = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#,
            #"{"id":"é😀","text":"a\r\n\r\nContent-Length: 3\r\n\r\n"}"#,
            #"{"id":3}"#,
            #"{"id":4,"x":[]}"#,
            #"{"id":5}"#,
            "",
            #"{"id":7}"#,
        ]
        func n(_ i: Int) -> Int { utf8(bodies[i]).count }
        var stream: [UInt8] = []
        // Vim: Content-Type before Content-Length.
        stream += lsp(bodies[0], headers: ["Content-Type: application/vim-jsonrpc; charset=utf-8", "Content-Length: \(n(0))"])
        stream += lsp(bodies[1])
        stream += lsp(bodies[2], headers: ["content-length: \(n(2))", "content-type: application/json; CHARSET=\"UTF8\""])
        stream += lsp(bodies[3], headers: ["CONTENT-LENGTH:\(n(3))", "X-Custom: whatever"], eol: "\n")
        stream += utf8("\r\n")  // stray blank line between messages
        stream += lsp(bodies[4], headers: ["Content-Length:   \(n(4))  ", "Content-Type: application/vscode-jsonrpc"])
        stream += lsp(bodies[5])
        stream += lsp(bodies[6], headers: ["Content-Type: text/plain", "Content-Length: \(n(6))"])
        expectSplitInvariant(stream, bodies.map { .body(utf8($0)) }, mode: .contentLength)
    }

    @Test func malformedHeadersResync() {
        let good = #"{"id":"ok"}"#
        var stream: [UInt8] = []
        stream += utf8("Content-Type: application/json\r\n\r\n")         // missing length
        stream += lsp(good)
        stream += utf8("Content-Length: abc\r\n\r\n")                     // invalid length
        stream += utf8("Content-Length: -1\r\n\r\n")
        stream += utf8("Content-Length: 99999999999999999999\r\n\r\n")
        stream += utf8("Content-Length: 99999999999999999999\r\n\r\n")
        stream += lsp(good)
        stream += lsp("{\"x\":1}", headers: ["Content-Length: 7", "Content-Type: application/json; charset=latin-1"])
        stream += lsp(good)
        stream += lsp("{\"y\":2}", headers: ["Content-Length: 7", "garbage line without colon"])
        stream += lsp(good)
        let results = run([stream]).messages
        #expect(results.count == 11)
        let bodies = results.filter { if case .body = $0 { true } else { false } }
        #expect(bodies == Array(repeating: .body(utf8(good)), count: 4))
        guard results.count == 11 else { return }
        for i in [0, 2, 3, 4, 5, 7, 9] {
            guard case .malformed = results[i] else {
                Issue.record("expected malformed at \(i): \(results[i])")
                continue
            }
        }
        if case .malformed(let why) = results[7] { #expect(why.contains("latin-1")) } else { Issue.record("charset") }
        if case .malformed(let why) = results[0] { #expect(why.contains("Content-Length")) } else { Issue.record("length") }
        expectSplitInvariant(stream, results, mode: .contentLength)
    }

    @Test func oversizedHeaderBlockIsDiscarded() {
        let good = #"{"id":1}"#
        var stream = [UInt8](repeating: UInt8(ascii: "X"), count: 70_000) + utf8("\r\n\r\n") + lsp(good)
        var results = run([stream]).messages
        #expect(results.count == 2)
        #expect(results.last == .body(utf8(good)))
        #expect(run(stream.chunked(1000)).messages == results)
        // Many small header lines adding up past the limit.
        stream = utf8(String(repeating: "X-Pad: 0123456789\r\n", count: 4000) + "\r\n") + lsp(good)
        results = run([stream]).messages
        #expect(results.count == 2)
        #expect(results.last == .body(utf8(good)))
        #expect(run(stream.chunked(777)).messages == results)
        // A discarded partial line ending exactly at a chunk boundary with \r.
        stream = [UInt8](repeating: UInt8(ascii: "X"), count: 70_000) + utf8("\r\nmore\r\n\r\n") + lsp(good)
        #expect(run(stream.chunked(70_001)).messages == results)
        #expect(run(stream.chunked(65_537)).messages == results)
    }

    @Test func ndjsonWithCRLFAndBlankLines() {
        let stream = utf8(" \n{\"id\":1}\r\n\n  \r\n[{\"id\":2},{\"id\":3}]\n{\"t\":\"é\"}\r\n\r\n{\"id\":4}\n")
        let expected: [FramedMessage] = [
            .body(utf8("{\"id\":1}")), .body(utf8("[{\"id\":2},{\"id\":3}]")),
            .body(utf8("{\"t\":\"é\"}")), .body(utf8("{\"id\":4}")),
        ]
        expectSplitInvariant(stream, expected, mode: .lineDelimited)
    }

    /// Messages of at least `handOverSize` that fill the buffer are handed
    /// over instead of copied: the bodies, and the messages after them, must
    /// be the same however the stream is cut.
    @Test func largeNDJSONMessagesAreHandedOverIntact() {
        let big = utf8("{\"k\":\"") + [UInt8](repeating: UInt8(ascii: "x"), count: MessageFramer.handOverSize) + utf8("\"}")
        let bigCRLF = utf8("[") + [UInt8](repeating: UInt8(ascii: "7"), count: MessageFramer.handOverSize + 3) + utf8("]")
        let stream = big + utf8("\n") + utf8("{\"id\":2}\n") + bigCRLF + utf8("\r\n") + big + utf8("\n")
        let expected: [FramedMessage] = [.body(big), .body(utf8("{\"id\":2}")), .body(bigCRLF), .body(big)]
        // Whole; one message per chunk (the hand-over case); ragged chunks.
        #expect(run([stream]).messages == expected)
        let perMessage = [big + utf8("\n"), utf8("{\"id\":2}\n"), bigCRLF + utf8("\r\n"), big + utf8("\n")]
        #expect(run(perMessage).messages == expected)
        for size in [1 << 16, 1 << 20, (1 << 20) + 5, 3_000_001] {
            #expect(run(stream.chunked(size)).messages == expected, "chunks of \(size)")
        }
        // A large message whose newline arrives alone, then a small one.
        #expect(run([big, utf8("\n"), utf8("[1]\n")]).messages == [.body(big), .body(utf8("[1]"))])
    }

    @Test func ndjsonLastLineWithoutNewlineIsDeliveredAtFinish() {
        let stream = utf8("[1]\n{\"id\":2}\r")
        expectSplitInvariant(stream, [.body(utf8("[1]")), .body(utf8("{\"id\":2}"))], mode: .lineDelimited)
        expectSplitInvariant(utf8("{}\n  "), [.body(utf8("{}"))], mode: .lineDelimited)
    }

    @Test func modeDetection() {
        #expect(run([utf8("  \r\n\t[1]\n")]).mode == .lineDelimited)
        #expect(run([utf8("\n\nContent-Length: 2\r\n\r\n{}")]).mode == .contentLength)
        #expect(run([utf8("\n\nContent-Length: 2\r\n\r\n{}")]).messages == [.body(utf8("{}"))])
        #expect(run([utf8(" \n ")]).mode == .undetermined)
        #expect(run([utf8(" \n ")]).messages.isEmpty)
        var framer = MessageFramer()
        #expect(framer.next() == nil)
        #expect(framer.finish() == nil)
    }

    @Test func truncatedMessagesAtEOF() {
        var framer = MessageFramer()
        framer.append(lsp("{}") + utf8("Content-Length: 10\r\n\r\n{\"a\""))
        #expect(framer.next() == .body(utf8("{}")))
        #expect(framer.next() == nil)
        guard case .malformed(let why) = framer.finish() else {
            Issue.record("expected malformed")
            return
        }
        #expect(why.contains("truncated"))
        #expect(framer.finish() == nil)

        #expect(run([utf8("Content-Length: 10\r\nContent-Ty")]).messages.count == 1)
        #expect(run([utf8("Content-Length: 10\r\n")]).messages.count == 1)
        #expect(run([lsp("{}") + utf8("\r\n \r\n")]).messages == [.body(utf8("{}"))])
        // A rejected body that is cut short was already reported once.
        let skipped = lsp("{\"x\":1}", headers: ["Content-Length: 7", "Content-Type: a; charset=ascii"])
        #expect(run([Array(skipped.dropLast(3))]).messages.count == 1)
    }

    @Test func largeBodiesInChunks() {
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 20_000_000)
        let body = utf8("[\"") + big + utf8("\"]")
        let stream = utf8("Content-Length: \(body.count)\r\n\r\n") + body + lsp("{}")
        let result = run(stream.chunked(65_536)).messages
        #expect(result.count == 2)
        #expect(result.first == .body(body))
        #expect(result.last == .body(utf8("{}")))

        let line = utf8("{\"x\":\"") + big + utf8("\"}")
        let ndjson = line + utf8("\n") + line + utf8("\r\n")
        let lines = run(ndjson.chunked(100_000)).messages
        #expect(lines == [.body(line), .body(line)])
    }

    @Test func bufferDoesNotGrowAcrossManyMessages() {
        var framer = MessageFramer()
        let message = lsp(#"{"jsonrpc":"2.0","method":"ping"}"#)
        var count = 0
        for _ in 0..<20_000 {
            framer.append(message + message.prefix(10))
            while framer.next() != nil { count += 1 }
            framer.append(message.dropFirst(10))
            while framer.next() != nil { count += 1 }
            #expect(framer.bufferedByteCount < message.count * 2)
        }
        #expect(count == 40_000)
    }

    /// Random token soup: results never depend on how the stream is chunked, and nothing crashes.
    @Test func randomStreamsAreSplitInvariant() {
        var rng = SplitMix64(seed: 99)
        let tokens = ["Content-Length: 2", "content-length:0", "Content-Length: 7", "CONTENT-LENGTH: x", "\r\n", "\n",
                      "\r", "{}", "[1]", "abc", ":", " ", "Content-Type: a/b; charset=utf-8", "; charset=koi8-r",
                      "Content-Type: t; charset=\"UTF8\"", "\r\n\r\n", "{\"id\":1}"].map(utf8)
        for round in 0..<300 {
            var stream: [UInt8] = round % 3 == 0 ? utf8("{}\n") : []
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                stream += tokens[Int.random(in: 0..<tokens.count, using: &rng)]
            }
            let whole = run([stream]).messages
            let cut = Int.random(in: 0...stream.count, using: &rng)
            #expect(run([Array(stream[..<cut]), Array(stream[cut...])]).messages == whole)
            #expect(run(stream.map { [$0] }).messages == whole)
        }
    }

    @Test func frameEncoder() {
        let body = utf8(#"{"id":1,"result":"é"}"#)
        let framed = FrameEncoder.frame(body, mode: .contentLength)
        #expect(framed == utf8("Content-Length: \(body.count)\r\n\r\n") + body)
        #expect(FrameEncoder.frame(body, mode: .undetermined) == framed)
        #expect(FrameEncoder.frame(body, mode: .lineDelimited) == body + [0x0A])
        #expect(run([framed + framed]).messages == [.body(body), .body(body)])
        let lines = FrameEncoder.frame(body, mode: .lineDelimited) + FrameEncoder.frame(body, mode: .lineDelimited)
        #expect(run([lines]).messages == [.body(body), .body(body)])
    }
}

extension Array where Element == UInt8 {
    func chunked(_ size: Int) -> [[UInt8]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
