import Testing
@testable import DiffableServer
import DiffableTestSupport
@testable import DiffableProtocol

/// `--max-message-bytes`: a body over the limit is skipped as it streams in,
/// reported once with its size and first bytes, and the messages after it
/// come through, however the stream is cut.
@Suite struct FramerLimitTests {
    static let limit = 64

    /// Feeds `chunks` to a framer with `limit`, draining after each append,
    /// then calls `finish()` until nil.
    static func run(_ chunks: [[UInt8]], limit: Int = limit) -> [FramedMessage] {
        var framer = MessageFramer(maxMessageBytes: limit)
        var out: [FramedMessage] = []
        for chunk in chunks {
            framer.append(chunk)
            while let m = framer.next() { out.append(m) }
            // Nothing over the limit is ever held: at most the limit, the
            // `\r` of a line end, a header block, and the chunk just added.
            if framer.bufferedByteCount > limit + 1 + chunk.count + MessageFramer.maxHeaderBlockSize {
                Issue.record("buffered \(framer.bufferedByteCount) bytes")
            }
        }
        while let m = framer.finish() { out.append(m) }
        return out
    }

    /// The same messages for the whole stream, every two-way cut, and byte by byte.
    static func expectSplitInvariant(_ stream: [UInt8], _ expected: [FramedMessage],
                                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run([stream]) == expected, sourceLocation: sourceLocation)
        for cut in 0...stream.count {
            let result = run([Array(stream[..<cut]), Array(stream[cut...])])
            if result != expected {
                Issue.record("cut at \(cut) gave \(result)", sourceLocation: sourceLocation)
                return
            }
        }
        #expect(run(stream.map { [$0] }) == expected, sourceLocation: sourceLocation)
    }

    static func tooLarge(_ body: [UInt8], size: Int? = nil) -> FramedMessage {
        .tooLarge(OversizedMessage(size: size ?? body.count, limit: limit, head: Array(body.prefix(OversizedMessage.headSize))))
    }

    static func request(id: Int, padding: Int) -> [UInt8] {
        utf8(#"{"jsonrpc":"2.0","id":\#(id),"method":"apply","params":{"pad":""#
            + String(repeating: "p", count: padding) + #""}}"#)
    }

    static func lsp(_ body: [UInt8]) -> [UInt8] { utf8("Content-Length: \(body.count)\r\n\r\n") + body }

    @Test func linesOverTheLimitAreSkipped() {
        let big = Self.request(id: 7, padding: 100)
        let exact = utf8(#"{"id":1,"pad":""#) + [UInt8](repeating: UInt8(ascii: "q"), count: 64 - 17) + utf8(#""}"#)
        let oneOver = exact + utf8(" ")
        #expect(exact.count == Self.limit)
        let blank = [UInt8](repeating: 0x20, count: 100)
        let huge = Self.request(id: 8, padding: 5000)  // more than the kept head
        var stream = big + utf8("\n{\"id\":2}\n") + exact + utf8("\r\n") + oneOver + utf8("\r\n")
        stream += blank + utf8("\n") + huge + utf8("\r\n[3]\n") + big  // the last line ends at EOF
        Self.expectSplitInvariant(stream, [
            Self.tooLarge(big), .body(utf8("{\"id\":2}")), .body(exact), Self.tooLarge(oneOver),
            Self.tooLarge(blank), Self.tooLarge(huge), .body(utf8("[3]")), Self.tooLarge(big),
        ])
    }

    @Test func contentLengthBodiesOverTheLimitAreSkipped() {
        let big = Self.request(id: 7, padding: 100)
        let exact = [UInt8](repeating: UInt8(ascii: "1"), count: 64)
        let oneOver = [UInt8](repeating: UInt8(ascii: "1"), count: 65)
        let huge = Self.request(id: 8, padding: 5000)
        let cut = Array(huge.prefix(300))
        let stream = Self.lsp(big) + Self.lsp(utf8("{\"id\":2}")) + Self.lsp(exact) + Self.lsp(oneOver)
            + Self.lsp(huge) + Self.lsp(utf8("[3]"))
            + utf8("Content-Length: \(huge.count)\r\n\r\n") + cut  // input ends inside it
        Self.expectSplitInvariant(stream, [
            Self.tooLarge(big), .body(utf8("{\"id\":2}")), .body(exact), Self.tooLarge(oneOver),
            Self.tooLarge(huge), .body(utf8("[3]")), Self.tooLarge(cut, size: huge.count),
        ])
    }

    /// A body with an unusable header is reported as such, not as too large,
    /// and skipped all the same.
    @Test func aHeaderErrorComesFirst() {
        let big = Self.request(id: 7, padding: 100)
        let stream = utf8("Content-Type: a; charset=latin-1\r\nContent-Length: \(big.count)\r\n\r\n") + big + Self.lsp(utf8("{}"))
        let result = Self.run([stream])
        #expect(result.count == 2)
        if case .malformed(let why)? = result.first { #expect(why.contains("latin-1")) } else { Issue.record("\(result)") }
        #expect(result.last == .body(utf8("{}")))
    }

    @Test func theDefaultLimitIsOneGiB() {
        #expect(MessageFramer().maxMessageBytes == 1 << 30)
        // Only the declared length is looked at: nothing is buffered to know it.
        let result = Self.run([utf8("Content-Length: 2000000000\r\n\r\n{\"id\":1")], limit: MessageFramer.defaultMaxMessageBytes)
        #expect(result == [.tooLarge(OversizedMessage(size: 2_000_000_000, limit: 1 << 30, head: utf8("{\"id\":1")))])
    }

    /// Random soup of short and long lines or frames: never more buffered
    /// than the limit allows, and the same result however it is cut.
    @Test(arguments: [false, true])
    func randomStreamsAreSplitInvariant(lsp: Bool) {
        var rng = SplitMix64(seed: lsp ? 7 : 11)
        let pieces = ["{}", "[1]", "{\"id\":\"x\"}", String(repeating: "a", count: 63), String(repeating: "b", count: 64),
                      String(repeating: "c", count: 65), String(repeating: "d", count: 300), " ", "\r"].map(utf8)
        for _ in 0..<150 {
            var stream: [UInt8] = []
            for _ in 0..<Int.random(in: 1...12, using: &rng) {
                var body: [UInt8] = lsp ? [] : [UInt8(ascii: "{")]
                for _ in 0..<Int.random(in: 1...3, using: &rng) { body += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
                if lsp {
                    stream += Self.lsp(body)
                } else {
                    stream += body + (Bool.random(using: &rng) ? utf8("\n") : utf8("\r\n"))
                }
            }
            let whole = Self.run([stream])
            let cut = Int.random(in: 0...stream.count, using: &rng)
            #expect(Self.run([Array(stream[..<cut]), Array(stream[cut...])]) == whole)
            #expect(Self.run(stream.chunked(Int.random(in: 1...70, using: &rng))) == whole)
        }
    }
}

/// The id of a message too large to read, from its first bytes.
@Suite struct RequestIDScannerTests {
    @Test(arguments: [
        (#"{"jsonrpc":"2.0","id":12,"method":"apply","params":{"#, JSON.number("12")),
        (#" { "id" : "a\"b}" , "method":"x""#, JSON.string("a\"b}")),
        (#"{"jsonrpc":"2.0","method":"apply","params":{"id":5,"s":[{"id":"n"}]},"id":-3.5e2,"x"#, JSON.number("-3.5e2")),
        (#"{"a":[1,{"b":"]}"}],"c":{"id":{}},"d":"\\","id":"é"}"#, JSON.string("é")),
        (#"{"id":"x\u0041"}"#, JSON.string("xA")),
    ])
    func idIsFound(_ head: String, _ id: JSON) {
        #expect(RequestIDScanner.id(in: utf8(head)) == id)
    }

    @Test(arguments: [
        #"{"jsonrpc":"2.0","method":"apply","params":{"id":5"#,  // the id, if any, comes later
        #"{"id":123"#,  // the number may go on
        #"{"id":"abc"#,  // the string is cut
        #"{"id":null,"method":"x"}"#, #"{"id":[1],"x":1}"#, #"{"id":true}"#,
        #"[{"id":1}]"#, #"{"method":"x"}"#, "", "{", #"{"id""#, #"{"id":"#, #"{"a":1 "id":2}"#, #"{"a":{"b":[1,2"#,
        #"{"id":1x}"#, #"{"\u0069d":1}"#,
    ])
    func noIdIsGuessed(_ head: String) {
        #expect(RequestIDScanner.id(in: utf8(head)) == nil)
    }

    @Test func deepNestingIsSteppedOver() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(RequestIDScanner.id(in: utf8(#"{"a":\#(deep),"id":4}"#)) == .number("4"))
        #expect(RequestIDScanner.id(in: utf8(#"{"a":"# + String(repeating: "{", count: 100_000))) == nil)
    }
}
