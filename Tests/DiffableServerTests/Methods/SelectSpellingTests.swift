import Testing
@testable import DiffableServer
@testable import DiffableProtocol
import DiffableTestSupport

/// Through the protocol, ids are their bytes: "\u00e9" and "e\u0301" are two
/// items of a multiple section, selected one after the other, and reported
/// with their own paths while a search hides one of them. Answers are
/// checked as bytes: `String` would call both spellings equal.
@Suite struct SelectSpellingTests {
    static let composed = "\u{e9}", decomposed = "e\u{301}"

    static func send(_ server: Server, _ body: String) -> [UInt8] {
        server.handle(body: utf8(body)) ?? []
    }

    static func contains(_ answer: [UInt8], _ part: String) -> Bool {
        let needle = utf8(part)
        guard !needle.isEmpty, answer.count >= needle.count else { return needle.isEmpty }
        return (0...(answer.count - needle.count)).contains { answer[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test func bothSpellingsAreSelectedAndReportedApart() {
        let server = StrictnessTests.server()
        let (c, d) = (Self.composed, Self.decomposed)
        _ = Self.send(server, #"{"jsonrpc":"2.0","id":1,"method":"apply","params":{"source":"s","sections":[{"id":"A","selection":"multiple","items":[{"id":"\u00e9","content":"one"},{"id":"e\u0301","content":"two"}]}]}}"#)
        let first = Self.send(server, #"{"jsonrpc":"2.0","id":2,"method":"select","params":{"source":"s","ids":["\u00e9"]}}"#)
        #expect(Self.contains(first, #""selected":[{"id":""# + c + #"","path":[0,0]}]"#), "\(String(decoding: first, as: UTF8.self))")
        let second = Self.send(server, #"{"jsonrpc":"2.0","id":3,"method":"select","params":{"source":"s","ids":["e\u0301"]}}"#)
        #expect(Self.contains(second, #""selected":[{"id":""# + d + #"","path":[0,1]}]"#), "\(String(decoding: second, as: UTF8.self))")
        #expect(Self.contains(second, #""version":3"#))

        // The search hides the composed spelling; it stays selected, without a path.
        _ = Self.send(server, #"{"jsonrpc":"2.0","id":4,"method":"search","params":{"source":"s","query":"two"}}"#)
        let query = Self.send(server, #"{"jsonrpc":"2.0","id":5,"method":"selection","params":{"source":"s"}}"#)
        let expected = #""selected":[{"id":""# + c + #"","path":null},{"id":""# + d + #"","path":[0,0]}]"#
        #expect(Self.contains(query, expected), "\(String(decoding: query, as: UTF8.self))")

        let off = Self.send(server, #"{"jsonrpc":"2.0","id":6,"method":"select","params":{"source":"s","action":"toggle","ids":["\u00e9"]}}"#)
        #expect(Self.contains(off, #""deselected":[{"id":""# + c + #"","path":null}]"#), "\(String(decoding: off, as: UTF8.self))")
        #expect(Self.contains(off, #""rows":[{"id":""# + d + #"","path":[0,0]}]"#))
    }
}
