import Testing
@testable import DiffableServer
@testable import DiffableProtocol
import DiffableTestSupport

/// A corrupt message costs only itself: after an unreadable header block or a
/// body that is not JSON (a wrong Content-Length), the next message is found
/// and served, however the bytes are split.
@Suite struct FramerRecoveryTests {
    /// Frames like `StdioSession`: a body that does not parse makes the
    /// framer resynchronize. Returns the bodies that parsed and the count of
    /// everything else.
    static func frame(_ chunks: [[UInt8]]) -> (bodies: [String], failures: Int) {
        var framer = MessageFramer()
        var bodies: [String] = []
        var failures = 0
        func drain() {
            while let framed = framer.next() {
                switch framed {
                case .malformed, .tooLarge: failures += 1
                case .body(let body):
                    if (try? JSONParser.parse(body)) != nil {
                        bodies.append(String(decoding: body, as: UTF8.self))
                    } else {
                        failures += 1
                        framer.resynchronize(after: body)
                    }
                }
            }
        }
        for chunk in chunks {
            framer.append(chunk)
            drain()
        }
        if framer.finish() != nil { failures += 1 }
        return (bodies, failures)
    }

    static let probe = #"{"jsonrpc":"2.0","id":2,"method":"sources"}"#
    static let lost = #"{"jsonrpc":"2.0","id":9,"method":"sources"}"#
    static func framed(_ body: String) -> String { "Content-Length: \(body.utf8.count)\r\n\r\n\(body)" }

    /// Each corruption the issue names, followed by a valid probe.
    static let corruptions: [(name: String, bytes: String)] = [
        ("negative length", "Content-Length: -5\r\n\r\n\(lost)"),
        ("missing length", "Content-Type: application/json\r\n\r\n\(lost)"),
        ("header line without colon", "Content-Length 44\r\n\r\n\(lost)"),
        ("length three bytes short", "Content-Length: \(lost.utf8.count - 3)\r\n\r\n\(lost)"),
        ("length three bytes long", "Content-Length: \(lost.utf8.count + 3)\r\n\r\n\(lost)"),
        ("garbage between messages", "}}]garbage\r\n\r\n"),
        ("body not JSON", framed("{not json")),
        ("conflicting lengths", "Content-Length: 3\r\nContent-Length: 4\r\n\r\n\(lost)"),
    ]

    @Test(arguments: corruptions.indices)
    func probeAfterCorruptionIsServed(_ index: Int) {
        let (name, corruption) = Self.corruptions[index]
        let stream = Array((Self.framed(#"{"id":1}"#) + corruption + Self.framed(Self.probe)).utf8)
        for cut in 0...stream.count {
            let result = Self.frame([Array(stream[..<cut]), Array(stream[cut...])])
            guard result.bodies.first == #"{"id":1}"#, result.bodies.last == Self.probe, result.failures >= 1 else {
                Issue.record("\(name), split at \(cut): \(result)")
                return
            }
        }
        let bytewise = Self.frame(stream.map { [$0] })
        #expect(bytewise.bodies.last == Self.probe, "\(name), byte by byte: \(bytewise)")
    }

    @Test func everyCorruptionInOneStream() {
        var text = Self.framed(#"{"id":1}"#)
        for corruption in Self.corruptions { text += corruption.bytes + Self.framed(Self.probe) }
        let result = Self.frame([Array(text.utf8)])
        #expect(result.bodies.filter { $0 == Self.probe }.count == Self.corruptions.count)
    }

    @Test func headerNameInsideAStringDoesNotLoseTheNextMessage() {
        // The rescan may stop inside a failed body's strings; it still finds
        // the real header that follows.
        let bad = #"{"text":"Content-Length: 3\r\n\r\nabc""#  // unterminated object
        let stream = Array((Self.framed(bad) + Self.framed(Self.probe)).utf8)
        #expect(Self.frame([stream]).bodies.last == Self.probe)
    }
}
