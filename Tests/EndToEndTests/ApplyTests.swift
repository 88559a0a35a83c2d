import Foundation
import Testing

/// `apply`, `snapshot`, `sources`, `drop` and their errors, through the binary.
struct ApplyTests: WritesRequests {
    static let initialize = #"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#

    static func run(_ requests: [String]) throws -> [String] {
        let output = try DaemonProcess.run(lines: [initialize] + requests)
        return Array(output.lines.dropFirst())
    }

    static let fruit = #"{"source":"fruit","sections":[{"id":"apples","header":"Apples","items":[{"id":"gala","content":{"text":"Gala"}},"fuji"]},{"id":"oranges","items":["navel"]}]}"#

    @Test func applySnapshotSourcesDrop() throws {
        let lines = try Self.run([
            Self.request(1, "apply", Self.fruit),
            Self.request(2, "snapshot", #"{"source":"fruit"}"#),
            Self.request(3, "sources", "{}"),
            Self.request(4, "apply", Self.fruit),
            Self.request(5, "drop", #"{"source":"fruit"}"#),
            Self.request(6, "sources", "{}"),
            Self.request(7, "snapshot", #"{"source":"fruit"}"#),
        ])
        #expect(lines.count == 7)
        #expect(lines[safe: 0] == #"{"jsonrpc":"2.0","id":1,"result":{"source":"fruit","version":1,"batch":{"sections":{"insert":[{"at":0,"sections":[{"id":"apples","header":"Apples","items":[{"id":"gala","content":{"text":"Gala"}},{"id":"fuji"}]},{"id":"oranges","items":[{"id":"navel"}]}]}]}}}}"#)
        #expect(lines[safe: 1] == #"{"jsonrpc":"2.0","id":2,"result":{"source":"fruit","version":1,"sections":[{"id":"apples","header":"Apples","items":[{"id":"gala","content":{"text":"Gala"}},{"id":"fuji"}]},{"id":"oranges","items":[{"id":"navel"}]}],"selected":[]}}"#)
        #expect(lines[safe: 2] == #"{"jsonrpc":"2.0","id":3,"result":{"sources":[{"source":"fruit","version":1,"sections":2,"items":3}]}}"#)
        #expect(lines[safe: 3] == #"{"jsonrpc":"2.0","id":4,"result":{"source":"fruit","version":2,"batch":{}}}"#, "identical snapshot: empty diff, version still bumps")
        #expect(lines[safe: 4] == #"{"jsonrpc":"2.0","id":5,"result":{"source":"fruit","dropped":true}}"#)
        #expect(lines[safe: 5] == #"{"jsonrpc":"2.0","id":6,"result":{"sources":[]}}"#)
        #expect(lines[safe: 6]?.hasPrefix(#"{"jsonrpc":"2.0","id":7,"error":{"code":1001,"#) == true)
    }

    @Test func invalidSnapshotsAreRejectedAndChangeNothing() throws {
        let lines = try Self.run([
            Self.request(1, "apply", Self.fruit),
            // duplicate item id across sections
            Self.request(2, "apply", #"{"source":"fruit","sections":[{"id":"a","items":["x"]},{"id":"b","items":["y","x"]}]}"#),
            // duplicate section id
            Self.request(3, "apply", #"{"source":"fruit","sections":[{"id":"a"},{"id":"a"}]}"#),
            // missing item id, wrong types
            Self.request(4, "apply", #"{"source":"fruit","sections":[{"id":"a","items":[{"content":1},7]},{"items":[]}]}"#),
            Self.request(5, "apply", #"{"source":"fruit","sections":{"id":"a"}}"#),
            Self.request(6, "apply", #"{"source":"","sections":[]}"#),
            Self.request(7, "snapshot", #"{"source":"fruit"}"#),
        ])
        #expect(lines.count == 7)
        #expect(lines[safe: 1]?.contains(#""code":-32602"#) == true)
        #expect(lines[safe: 1]?.contains(#""id":"x","paths":["params.sections[0].items[0].id","params.sections[1].items[1].id"]"#) == true)
        #expect(lines[safe: 2]?.contains(#""id":"a","paths":["params.sections[0].id","params.sections[1].id"]"#) == true)
        #expect(lines[safe: 3]?.contains(#""path":"params.sections[0].items[0].id""#) == true)
        #expect(lines[safe: 3]?.contains(#""path":"params.sections[0].items[1]""#) == true)
        #expect(lines[safe: 3]?.contains(#""path":"params.sections[1].id""#) == true)
        #expect(lines[safe: 4]?.contains(#""path":"params.sections""#) == true)
        #expect(lines[safe: 5]?.contains(#""path":"params.source""#) == true)
        #expect(lines[safe: 6]?.hasPrefix(#"{"jsonrpc":"2.0","id":7,"result":{"source":"fruit","version":1,"#) == true, "state untouched")
    }

    @Test func baseVersionConflict() throws {
        let withBase = { (base: Int) in
            #"{"source":"s","baseVersion":\#(base),"sections":[{"id":"a","items":["x"]}]}"#
        }
        let lines = try Self.run([
            Self.request(1, "apply", withBase(0)),
            Self.request(2, "apply", withBase(0)),
            Self.request(3, "apply", withBase(1)),
        ])
        #expect(lines[safe: 0]?.contains(#""version":1"#) == true)
        #expect(lines[safe: 1] == #"{"jsonrpc":"2.0","id":2,"error":{"code":1002,"message":"Version conflict on \"s\": baseVersion is 0 but the source is at version 1. Fetch `snapshot` and retry; nothing was changed.","data":{"source":"s","baseVersion":0,"currentVersion":1}}}"#)
        #expect(lines[safe: 2]?.contains(#""version":2"#) == true)
    }

    @Test func stepsFormPerRequestAndPerSession() throws {
        let move = #"{"source":"p","form":"steps","sections":[{"id":"added","items":["grace"]},{"id":"list","items":["liam"]}]}"#
        let lines = try Self.run([
            Self.request(1, "apply", #"{"source":"p","sections":[{"id":"added"},{"id":"list","items":["grace","liam"]}]}"#),
            Self.request(2, "apply", move),
        ])
        #expect(lines[safe: 1] == #"{"jsonrpc":"2.0","id":2,"result":{"source":"p","version":2,"steps":[{"op":"moveItem","from":[1,0],"to":[0,0]}]}}"#)

        let session = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"initializationOptions":{"form":"steps"}}}"#,
            Self.request(1, "apply", #"{"source":"p","sections":[{"id":"s","items":["a","b"]}]}"#),
            Self.request(2, "apply", #"{"source":"p","form":"batch","sections":[{"id":"s","items":["b"]}]}"#),
        ])
        #expect(session.lines[safe: 1] == #"{"jsonrpc":"2.0","id":1,"result":{"source":"p","version":1,"steps":[{"op":"insertSections","at":0,"sections":[{"id":"s","items":[{"id":"a"},{"id":"b"}]}]}]}}"#)
        #expect(session.lines[safe: 2] == #"{"jsonrpc":"2.0","id":2,"result":{"source":"p","version":2,"batch":{"items":{"delete":[{"section":0,"ranges":[[0,1]]}]}}}}"#)
    }

    /// The first reply echoes 40k items (~2 MB): the daemon writes it in
    /// pieces as it serializes, under a Content-Length measured first.
    @Test func largeApplyOverContentLength() throws {
        let items = (0..<40_000).map { #"{"id":"i\#($0)","content":{"text":"Person \#($0)"}}"# }.joined(separator: ",")
        let next = (0..<40_000).filter { $0 % 100 != 0 }.map { #"{"id":"i\#($0)","content":{"text":"Person \#($0)"}}"# }.joined(separator: ",")
        let input = DaemonProcess.lspFramed([
            Self.initialize,
            Self.request(1, "apply", #"{"source":"big","sections":[{"id":"s","items":[\#(items)]}]}"#),
            Self.request(2, "apply", #"{"source":"big","sections":[{"id":"s","items":[\#(next)]}]}"#),
        ])
        let bodies = try DaemonProcess.lspBodies(try DaemonProcess.run(input).stdout)
        #expect(bodies.count == 3)
        #expect((bodies[safe: 1]?.utf8.count ?? 0) > 1 << 20)
        #expect(bodies[safe: 1]?.components(separatedBy: #"{"id":"i"#).count == 40_001)
        #expect(bodies[safe: 1]?.hasSuffix(#"{"id":"i39999","content":{"text":"Person 39999"}}]}]}]}}}}"#) == true)
        let ranges = (0..<400).map { "[\($0 * 100),1]" }.joined(separator: ",")
        #expect(bodies[safe: 2] == #"{"jsonrpc":"2.0","id":2,"result":{"source":"big","version":2,"batch":{"items":{"delete":[{"section":0,"ranges":[\#(ranges)]}]}}}}"#)
    }
}

/// A large `apply` gives its request's bytes back while it reads them,
/// through the real binary: the framer hands the bytes over (no copy is
/// made to write them), the reply is right, and the debug log says how
/// much went back. In both framings, re-sent items reused or not.
struct ReleasingApplyTests {
    /// `count` items in the daemon's written form, the `changed`th with
    /// other content.
    static func apply(_ id: Int, count: Int, changed: Int = -1) -> String {
        let items = (0..<count).map { k in
            #"{"id":"f0e1d2c3-\#(k)-4b5a-9687-a1b2c3d4e5f6","content":{"text":"Name \#(k == changed ? "changed" : "\(k)")"}}"#
        }
        return ApplyTests.request(id, "apply", #"{"source":"big","sections":[{"id":"all","items":[\#(items.joined(separator: ","))]}]}"#)
    }

    static func givenBack(_ log: String) -> [Int] {
        log.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: "giving back ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    @Test(arguments: [false, true])
    func aLargeApplyGivesItsBytesBackWhileRead(lspFraming: Bool) throws {
        // 450k items, ~37 MB per request: over the 32 MiB from which pages go back.
        let bodies = [ApplyTests.initialize, Self.apply(1, count: 450_000), Self.apply(2, count: 450_000, changed: 17),
                      ApplyTests.request(3, "sources", "{}")]
        // Two 37 MB applies take a debug build tens of seconds on a busy
        // machine: the timeout only detects a hang.
        let output = lspFraming
            ? try DaemonProcess.run(DaemonProcess.lspFramed(bodies), arguments: ["--log-level", "debug"], timeout: 900)
            : try DaemonProcess.run(lines: bodies, arguments: ["--log-level", "debug"], timeout: 900)
        let replies = lspFraming ? try DaemonProcess.lspBodies(output.stdout) : output.lines
        #expect(replies.count == 4)
        #expect(replies[safe: 1]?.contains(#""version":1"#) == true)
        #expect(replies[safe: 2] == (#"{"jsonrpc":"2.0","id":2,"result":{"source":"big","version":2,"batch":{"items":{"reload":[{"section":0,"at":17,"items":[{"id":"f0e1d2c3-17-4b5a-9687-a1b2c3d4e5f6","content":{"text":"Name changed"}}]}]}}}}"#))
        #expect(replies[safe: 3] == #"{"jsonrpc":"2.0","id":3,"result":{"sources":[{"source":"big","version":2,"sections":1,"items":450000}]}}"#)
        // Whole pages inside each 1 MiB run: nearly all of the 37 MB.
        let kib = Self.givenBack(output.stderr)
        #expect(kib.count == 2 && kib.allSatisfy { $0 > 30_000 }, "\(kib)")
        #expect(!output.stderr.contains("of a copy"))
    }
}
