import Foundation
import Testing

/// `edit` through the binary: every op, errors, atomicity.
struct EditTests: WritesRequests {
    static func edit(_ id: Int, _ ops: String, extra: String = "") -> String {
        request(id, "edit", #"{"source":"s","ops":\#(ops)\#(extra)}"#)
    }

    static func run(_ requests: [String]) throws -> [String] {
        let output = try DaemonProcess.run(lines: [#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#] + requests)
        return Array(output.lines.dropFirst())
    }

    static let start = request(1, "apply", #"{"source":"s","sections":[{"id":"a","items":["x","y"]},{"id":"b","items":["z"]}]}"#)

    static func result(_ id: Int, _ version: Int, _ batch: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"result":{"source":"s","version":\#(version),"batch":\#(batch)}}"#
    }

    @Test func everyOp() throws {
        let lines = try Self.run([
            Self.start,
            Self.edit(2, #"[{"op":"appendItems","items":["w"]}]"#),
            Self.edit(3, #"[{"op":"insertItems","items":[{"id":"v","content":1}],"before":"x"}]"#),
            Self.edit(4, #"[{"op":"deleteItems","ids":["y"]}]"#),
            Self.edit(5, #"[{"op":"moveItem","id":"z","after":"v"}]"#),
            Self.edit(6, #"[{"op":"reloadItems","ids":["x"]},{"op":"reconfigureItems","ids":["w"]}]"#),
            Self.edit(7, #"[{"op":"setContent","items":[{"id":"v","content":2}]}]"#),
            Self.edit(8, #"[{"op":"appendSections","sections":[{"id":"c","items":["u"]}]},{"op":"insertSections","sections":[{"id":"d"}],"before":"a"}]"#),
            Self.edit(9, #"[{"op":"moveSection","id":"d","after":"c"},{"op":"reloadSections","ids":["a"]},{"op":"setHeaders","sections":[{"id":"b","header":"B"}]}]"#),
            Self.edit(10, #"[{"op":"deleteSections","ids":["c"]}]"#),
            Self.edit(11, #"[{"op":"deleteAllItems"}]"#),
            Self.request(12, "snapshot", #"{"source":"s"}"#),
        ])
        #expect(lines.count == 12)
        #expect(lines[safe: 1] == Self.result(2, 2, #"{"items":{"insert":[{"section":1,"at":1,"items":[{"id":"w"}]}]}}"#))
        #expect(lines[safe: 2] == Self.result(3, 3, #"{"items":{"insert":[{"section":0,"at":0,"items":[{"id":"v","content":1}]}]}}"#))
        #expect(lines[safe: 3] == Self.result(4, 4, #"{"items":{"delete":[{"section":0,"ranges":[[2,1]]}]}}"#))
        #expect(lines[safe: 4] == Self.result(5, 5, #"{"items":{"move":[{"from":[1,0],"to":[0,1]}]}}"#))
        #expect(lines[safe: 5] == Self.result(6, 6, #"{"items":{"reload":[{"section":0,"at":2,"items":[{"id":"x"}]}],"reconfigure":[{"section":1,"at":0,"items":[{"id":"w"}]}]}}"#))
        #expect(lines[safe: 6] == Self.result(7, 7, #"{"items":{"reload":[{"section":0,"at":0,"items":[{"id":"v","content":2}]}]}}"#))
        #expect(lines[safe: 7] == Self.result(8, 8, #"{"sections":{"insert":[{"at":0,"sections":[{"id":"d","items":[]}]},{"at":3,"sections":[{"id":"c","items":[{"id":"u"}]}]}]}}"#))
        #expect(lines[safe: 8] == Self.result(9, 9, #"{"sections":{"move":[{"from":0,"to":3}],"reload":[{"at":1,"header":null},{"at":2,"header":"B"}]}}"#))
        #expect(lines[safe: 9] == Self.result(10, 10, #"{"sections":{"delete":[[2,1]]}}"#))
        #expect(lines[safe: 10] == Self.result(11, 11, #"{"items":{"delete":[{"section":0,"ranges":[[0,3]]},{"section":1,"ranges":[[0,1]]}]}}"#))
        #expect(lines[safe: 11] == #"{"jsonrpc":"2.0","id":12,"result":{"source":"s","version":11,"sections":[{"id":"a","items":[]},{"id":"b","header":"B","items":[]},{"id":"d","items":[]}],"selected":[]}}"#)
    }

    @Test func stepsForm() throws {
        let lines = try Self.run([
            Self.start,
            Self.edit(2, #"[{"op":"moveItem","id":"x","after":"z"},{"op":"appendItems","items":["q"],"section":"a"}]"#, extra: #","form":"steps""#),
        ])
        #expect(lines[safe: 1] == #"{"jsonrpc":"2.0","id":2,"result":{"source":"s","version":2,"steps":[{"op":"moveItem","from":[0,0],"to":[1,1]},{"op":"insertItems","section":0,"at":1,"items":[{"id":"q"}]}]}}"#)
    }

    /// A failing third op: same version, same snapshot, and later edits work.
    @Test func failingOpChangesNothing() throws {
        let lines = try Self.run([
            Self.start,
            Self.edit(2, #"[{"op":"deleteItems","ids":["x"]},{"op":"appendSections","sections":[{"id":"c"}]},{"op":"moveItem","id":"y","before":"missing"}]"#),
            Self.request(3, "snapshot", #"{"source":"s"}"#),
            Self.edit(4, #"[{"op":"deleteItems","ids":["x"]}]"#, extra: #","baseVersion":1"#),
        ])
        #expect(lines[safe: 1] == #"{"jsonrpc":"2.0","id":2,"error":{"code":1004,"message":"Edit rejected: op 2 (moveItem): no item \"missing\". Nothing was changed.","data":{"op":2,"reason":"unknownItem","ids":["missing"]}}}"#)
        #expect(lines[safe: 2] == #"{"jsonrpc":"2.0","id":3,"result":{"source":"s","version":1,"sections":[{"id":"a","items":[{"id":"x"},{"id":"y"}]},{"id":"b","items":[{"id":"z"}]}],"selected":[]}}"#)
        #expect(lines[safe: 3] == Self.result(4, 2, #"{"items":{"delete":[{"section":0,"ranges":[[0,1]]}]}}"#))
    }

    @Test func errors() throws {
        let lines = try Self.run([
            Self.request(1, "edit", #"{"source":"nope","ops":[]}"#),
            Self.start,
            Self.edit(3, #"[]"#, extra: #","baseVersion":7"#),
            Self.edit(4, #"[{"op":"deleteAllItems"},{"op":"insertItems","items":["k"]}]"#),
            Self.edit(5, #"[{"op":"moveSection","id":"a","after":"a"}]"#),
            Self.edit(6, #"[{"op":"insertItems","items":["x"],"after":"z"}]"#),
            Self.request(7, "edit", #"{"source":"s"}"#),
            Self.request(8, "snapshot", #"{"source":"s"}"#),
        ])
        #expect(lines[safe: 0]?.contains(#""code":1001"#) == true)
        #expect(lines[safe: 2]?.contains(#""code":1002"#) == true)
        #expect(lines[safe: 2]?.contains(#""data":{"source":"s","baseVersion":7,"currentVersion":1}"#) == true)
        #expect(lines[safe: 3]?.contains(#""code":-32602"#) == true)
        #expect(lines[safe: 3]?.contains(#""data":{"path":"params.ops[1].before"}"#) == true)
        #expect(lines[safe: 4]?.contains(#""data":{"op":0,"reason":"relativeToItself","ids":["a"]}"#) == true)
        #expect(lines[safe: 5]?.contains(#""data":{"op":0,"reason":"duplicateItem","ids":["x"]}"#) == true)
        #expect(lines[safe: 6]?.contains(#""data":{"path":"params.ops"}"#) == true)
        #expect(lines[safe: 7]?.contains(#""version":1,"#) == true)
    }
}
