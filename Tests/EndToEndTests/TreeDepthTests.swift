import Foundation
import Testing

/// Deep trees through the binary: an edit that chains items one under the
/// other costs per op, not per tree walk; the deepest tree a request can
/// carry (level 253) is built, sent back by `snapshot {full: true}` and
/// accepted again by `apply`; one level more is refused as `tooDeep`.
struct TreeDepthTests {
    static func request(_ id: Int, _ method: String, _ params: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
    }

    @Test func theDeepestTreeIsBuiltByEditsAndSentBackWhole() throws {
        let chain = (1..<253).map { #"{"op":"appendItems","parent":"n\#($0)","items":["n\#($0 + 1)"]}"# }
        let output = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#,
            Self.request(1, "apply", #"{"source":"s","sections":[{"id":"A","items":[{"id":"n0","children":["n1"]}]}]}"#),
            Self.request(2, "edit", #"{"source":"s","ops":[\#(chain.joined(separator: ","))]}"#),
            Self.request(3, "edit", #"{"source":"s","ops":[{"op":"appendItems","parent":"n253","items":["n254"]}]}"#),
            Self.request(4, "edit", #"{"source":"s","ops":[{"op":"moveItem","id":"n2","parent":"n253"}]}"#),
            Self.request(5, "outline", #"{"source":"s","id":"n253"}"#),
            Self.request(6, "snapshot", #"{"source":"s","full":true}"#),
        ])
        let lines = Array(output.lines.dropFirst())
        #expect(lines.count == 6)
        #expect(lines[safe: 1] == #"{"jsonrpc":"2.0","id":2,"result":{"source":"s","version":2,"batch":{}}}"#)
        #expect(lines[safe: 2]?.contains(#""reason":"tooDeep","ids":["n253"]"#) == true)
        #expect(lines[safe: 3]?.contains(#""reason":"cycle""#) == true)
        #expect(lines[safe: 4]?.contains(#""level":253"#) == true)
        // The full tree, nested 253 levels, goes back into an apply.
        guard let full = lines[safe: 5], let start = full.range(of: #""sections":"#)?.upperBound,
              let end = full.range(of: #","selected":"#, options: .backwards)?.lowerBound else {
            Issue.record("no snapshot")
            return
        }
        let sections = String(full[start..<end])
        let again = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#,
            Self.request(1, "apply", #"{"source":"t","sections":\#(sections)}"#),
            Self.request(2, "outline", #"{"source":"t","id":"n253"}"#),
        ])
        #expect(again.lines[safe: 1]?.contains(#""result":{"source":"t","version":1"#) == true)
        #expect(again.lines[safe: 2]?.contains(#""level":253"#) == true)
    }
}
