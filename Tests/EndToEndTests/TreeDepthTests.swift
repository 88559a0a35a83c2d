import Foundation
import Testing

/// Deep trees and deep JSON through the binary. The documented limits
/// (protocol/README.md, "How deep"): items at levels 0–4095, content nested
/// at most 1,000 levels, messages at most 10,000. Every tree within them is
/// built by `apply` and by `edit`, sent back by `snapshot {full: true}` and
/// read again; anything deeper is refused with an error naming it, and no
/// depth of input stops the daemon.
struct TreeDepthTests: WritesRequests {
    static let deepestLevel = 4095

    /// Items `n0` … `n(levels - 1)`, each the only child of the one before.
    static func chain(levels: Int) -> String {
        var text = ""
        for level in 0..<levels - 1 { text += #"{"id":"n\#(level)","expanded":true,"children":["# }
        text += #"{"id":"n\#(levels - 1)"}"#
        text += String(repeating: "]}", count: levels - 1)
        return text
    }

    /// The `sections` of a `snapshot` reply, as text (deeper than a
    /// general JSON reader of the test's own stack would like to parse).
    static func sections(ofSnapshot reply: String) -> String? {
        guard let start = reply.range(of: #""sections":"#)?.upperBound,
              let end = reply.range(of: #","selected":"#, options: .backwards)?.lowerBound else { return nil }
        return String(reply[start..<end])
    }

    @Test func theDeepestTreeIsBuiltByEditsAndSentBackWhole() throws {
        let deepest = Self.deepestLevel
        let ops = (1..<deepest).map { #"{"op":"appendItems","parent":"n\#($0)","items":["n\#($0 + 1)"]}"# }
        let output = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#,
            Self.request(1, "apply", #"{"source":"s","sections":[{"id":"A","items":[{"id":"n0","children":["n1"]}]}]}"#),
            Self.request(2, "edit", #"{"source":"s","ops":[\#(ops.joined(separator: ","))]}"#),
            Self.request(3, "edit", #"{"source":"s","ops":[{"op":"appendItems","parent":"n\#(deepest)","items":["x"]}]}"#),
            Self.request(4, "edit", #"{"source":"s","ops":[{"op":"moveItem","id":"n2","parent":"n\#(deepest)"}]}"#),
            Self.request(5, "outline", #"{"source":"s","id":"n\#(deepest)"}"#),
            Self.request(6, "expand", #"{"source":"s","ids":["n0"],"recursive":true}"#),
            Self.request(7, "snapshot", #"{"source":"s","full":true}"#),
            Self.request(8, "collapse", #"{"source":"s","ids":["n0"],"recursive":true}"#),
        ], timeout: 600)
        let lines = Array(output.lines.dropFirst())
        #expect(lines.count == 8, "\(output.stderr.suffix(500))")
        #expect(lines[safe: 1] == #"{"jsonrpc":"2.0","id":2,"result":{"source":"s","version":2,"batch":{}}}"#)
        #expect(lines[safe: 2]?.contains(#""reason":"tooDeep","ids":["n\#(deepest)"]"#) == true)
        #expect(lines[safe: 2]?.contains("4,096 levels") == true)
        #expect(lines[safe: 3]?.contains(#""reason":"cycle""#) == true)
        #expect(lines[safe: 4]?.contains(#""level":\#(deepest)"#) == true)
        // Items are collapsed until expanded: the recursive expand shows
        // the whole chain under n0, and the collapse hides it again.
        #expect(lines[safe: 5]?.contains(#""result":{"source":"s","version":3"#) == true)
        #expect(lines[safe: 5]?.contains(#""insert":[{"section":0,"at":1,"items":[{"id":"n1","level":1"#) == true)
        #expect(lines[safe: 7]?.contains(#""delete":[{"section":0,"ranges":[[1,\#(deepest)]]}]"#) == true,
                "\(lines[safe: 7]?.prefix(300) ?? "")")
        // The full tree, nested 4,096 levels, goes back into an apply.
        guard let full = lines[safe: 6], let sections = Self.sections(ofSnapshot: full) else {
            Issue.record("no snapshot")
            return
        }
        let again = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#,
            Self.request(1, "apply", #"{"source":"t","sections":\#(sections)}"#),
            Self.request(2, "outline", #"{"source":"t","id":"n\#(deepest)"}"#),
        ], timeout: 600)
        #expect(again.lines[safe: 1]?.contains(#""result":{"source":"t","version":1"#) == true)
        #expect(again.lines[safe: 2]?.contains(#""level":\#(deepest)"#) == true)
    }

    @Test func applyTakesTheDeepestTreeAndRefusesOneLevelMoreNamingTheItem() throws {
        let deepest = Self.deepestLevel
        let output = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#,
            Self.request(1, "apply", #"{"source":"s","sections":[{"id":"A","items":[\#(Self.chain(levels: deepest + 2))]}]}"#),
            Self.request(2, "sources", "{}"),
            Self.request(3, "apply", #"{"source":"s","sections":[{"id":"A","items":[\#(Self.chain(levels: deepest + 1))]}]}"#),
            Self.request(4, "outline", #"{"source":"s","id":"n\#(deepest)"}"#),
        ], timeout: 600)
        let lines = Array(output.lines.dropFirst())
        #expect(lines.count == 4)
        let refusal = lines[safe: 0] ?? ""
        #expect(refusal.contains(#""code":-32602"#))
        #expect(refusal.contains(#"item \"n\#(deepest)\" is at level \#(deepest)"#))
        #expect(refusal.contains(".children[0].children\"") || refusal.contains(".children[0].children\","))
        #expect(lines[safe: 1]?.contains(#""sources":[]"#) == true, "nothing was applied")
        #expect(lines[safe: 2]?.contains(#""result":{"source":"s","version":1"#) == true)
        #expect(lines[safe: 3]?.contains(#""level":\#(deepest)"#) == true)
    }

    /// A client that chains items one under the other far past the limit
    /// in one edit: refused at the first op too deep, nothing changed.
    @Test func aHundredThousandLevelChainInOneEditIsRefusedWhole() throws {
        let ops = [#"{"op":"appendItems","items":["e0"]}"#]
            + (0..<100_000).map { #"{"op":"appendItems","parent":"e\#($0)","items":["e\#($0 + 1)"]}"# }
        let output = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#,
            Self.request(1, "apply", #"{"source":"s","sections":[{"id":"A"}]}"#),
            Self.request(2, "edit", #"{"source":"s","ops":[\#(ops.joined(separator: ","))]}"#),
            Self.request(3, "snapshot", #"{"source":"s"}"#),
        ], timeout: 600)
        let lines = Array(output.lines.dropFirst())
        #expect(lines[safe: 1]?.contains(#""op":\#(Self.deepestLevel + 1),"reason":"tooDeep","ids":["e\#(Self.deepestLevel)"]"#) == true,
                "\(lines[safe: 1]?.prefix(300) ?? "")")
        #expect(lines[safe: 2] == #"{"jsonrpc":"2.0","id":3,"result":{"source":"s","version":1,"sections":[{"id":"A","items":[]}],"selected":[]}}"#)
    }

    /// Messages nested to the limit are read and let go; deeper ones are
    /// parse errors; content is limited to 1,000 levels on every path in
    /// (an `apply` small or large, `setContent`). The daemon is started
    /// with a 256 KiB stack limit, as a constrained environment may do.
    @Test func deepMessagesAndContentAreAnsweredWithAnySizeOfStack() throws {
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        // Enough items that the apply is read by the large-request reader.
        let filler = (0..<4000).map { #"{"id":"f\#($0)","content":{"text":"filler row \#($0)"}}"# }.joined(separator: ",")
        func apply(_ id: Int, _ source: String, contentDepth: Int, large: Bool) -> String {
            let items = #"{"id":"deep","content":\#(nested(contentDepth))}"# + (large ? "," + filler : "")
            return Self.request(id, "apply", #"{"source":"\#(source)","sections":[{"id":"A","items":[\#(items)]}]}"#)
        }
        let output = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"sources","params":"# + nested(100_000) + "}",
            Self.request(2, "sources", #"{"deep":\#(nested(9_998))}"#),
            apply(3, "small", contentDepth: 1_000, large: false),
            apply(4, "small2", contentDepth: 1_001, large: false),
            apply(5, "large", contentDepth: 1_000, large: true),
            apply(6, "large2", contentDepth: 1_001, large: true),
            Self.request(7, "edit", #"{"source":"small","ops":[{"op":"setContent","items":[{"id":"deep","content":\#(nested(1_001))}]}]}"#),
            Self.request(8, "sources", "{}"),
        ], timeout: 600, shell: "ulimit -s 256")
        let lines = Array(output.lines.dropFirst())
        #expect(output.status == 0)
        #expect(lines.count == 8, "\(output.stderr.suffix(500))")
        #expect(lines[safe: 0]?.contains(#""code":-32700"#) == true)
        #expect(lines[safe: 0]?.contains("nesting deeper than 10000 levels") == true)
        #expect(lines[safe: 1]?.contains(#""code":-32602"#) == true)
        #expect(lines[safe: 2]?.contains(#""result":{"source":"small","version":1"#) == true)
        #expect(lines[safe: 4]?.contains(#""result":{"source":"large","version":1"#) == true)
        for refused in [lines[safe: 3], lines[safe: 5]] {
            #expect(refused?.contains(#""path":"params.sections[0].items[0].content""#) == true)
            #expect(refused?.contains("content nests deeper than 1000 levels") == true)
        }
        #expect(lines[safe: 6]?.contains(#""path":"params.ops[0].items[0].content""#) == true)
        #expect(lines[safe: 7]?.contains(#""sources":[{"#) == true)
        #expect(lines[safe: 7]?.contains("small2") == false)
        #expect(lines[safe: 7]?.contains("large2") == false)
    }
}
