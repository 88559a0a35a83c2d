import Foundation
import Testing

/// `search` through the binary: superseding stale keystrokes, selection of
/// hidden rows, and a large ranked search.
struct SearchTests {
    static let people = #"{"source":"p","sections":[{"id":"added","selection":"multiple"},{"id":"list","selection":"multiple","items":[{"id":"grace","content":{"text":"Grace Elizabeth"}},{"id":"ava","content":{"text":"Ava Grace"}},{"id":"liam","content":{"text":"Liam Thomas"}},{"id":"greta","content":{"text":"Greta Lee"}}]}]}"#

    static func search(_ id: Int, _ query: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"search","params":{"source":"p","query":"\#(query)","sections":["list"]}}"#
    }

    @Test func staleKeystrokesAreSupersededAndTheLastOneWins() throws {
        let output = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#,
            ApplyTests.request(2, "apply", Self.people),
            Self.search(3, "g"), Self.search(4, "gr"), Self.search(5, "gre"),
            ApplyTests.request(6, "snapshot", #"{"source":"p"}"#),
        ])
        #expect(output.lines.count == 6)
        // Whether 3 and 4 ran depends on how far the daemon had read; each is
        // either answered or superseded, and the last keystroke always runs.
        for line in output.lines[2...3] {
            #expect(line.contains(#""result""#) || line.contains(#""code":-32800,"message":"Superseded by a newer search"#))
        }
        #expect(output.lines[safe: 4]?.contains(#""search":{"query":"gre","matches":1,"shown":1}"#) == true)
        #expect(output.lines[safe: 5]?.contains(#"{"id":"list","selection":"multiple","items":[{"id":"greta","content":{"text":"Greta Lee"}}]}"#) == true)
    }

    @Test func hiddenRowsKeepTheirSelection() throws {
        let lines = try ApplyTests.run([
            ApplyTests.request(2, "apply", Self.people),
            ApplyTests.request(3, "select", #"{"source":"p","ids":["liam","grace"]}"#),
            Self.search(4, "gr"),
            ApplyTests.request(5, "selection", #"{"source":"p"}"#),
            Self.search(6, ""),
        ])
        #expect(lines[safe: 2]?.contains(#""selection":{"rows":[{"id":"grace","path":[1,0]}]}"#) == true, "liam hidden, still selected")
        #expect(lines[safe: 3]?.contains(#""selected":[{"id":"grace","path":[1,0]},{"id":"liam","path":null}]"#) == true)
        #expect(lines[safe: 4]?.contains(#""selection":{"rows":[{"id":"grace","path":[1,0]},{"id":"liam","path":[1,2]}]}"#) == true, "liam reappears selected")
    }

    @Test func rankedSearchOverManyItemsIsBoundedByTheLimit() throws {
        let items = (0..<30_000).map { #"{"id":"i\#($0)","content":{"text":"Person \#($0) Name"}}"# }.joined(separator: ",")
        let output = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"initializationOptions":{"supersedeSearches":false}}}"#,
            ApplyTests.request(2, "apply", #"{"source":"p","sections":[{"id":"list","items":[\#(items)]}]}"#),
            #"{"jsonrpc":"2.0","id":3,"method":"search","params":{"source":"p","query":"12","mode":"fuzzy","limit":5}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"search","params":{"source":"p","query":"123","mode":"fuzzy","limit":5}}"#,
        ])
        let lines = Array(output.lines.dropFirst())
        let ranked = try #require(lines[safe: 1])
        #expect(ranked.contains(#""shown":5"#))
        #expect(ranked.count < 4_000, "payload bounded by the limit, not the list")
        let narrowed = try #require(lines[safe: 2])
        #expect(narrowed.contains(#""search":{"query":"123","#))
        #expect(narrowed.count < 4_000)
    }
}
