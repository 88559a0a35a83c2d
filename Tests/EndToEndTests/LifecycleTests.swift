import Foundation
import Testing

/// Lifecycle, framing and JSON-RPC rules, through the real binary.
struct LifecycleTests {
    static let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#
    static let shutdown = #"{"jsonrpc":"2.0","id":99,"method":"shutdown"}"#
    static let exit = #"{"jsonrpc":"2.0","method":"exit"}"#

    @Test func shutdownThenExitExitsZero() throws {
        let output = try DaemonProcess.run(lines: [Self.initialize, Self.shutdown, Self.exit])
        #expect(output.status == 0)
        #expect(output.lines.count == 2)
        #expect(output.lines.last == #"{"jsonrpc":"2.0","id":99,"result":null}"#)
    }

    @Test func exitWithoutShutdownExitsOne() throws {
        let output = try DaemonProcess.run(lines: [Self.initialize, Self.exit])
        #expect(output.status == 1)
    }

    @Test func endOfInputExitsCleanly() throws {
        let output = try DaemonProcess.run(lines: [Self.initialize])
        #expect(output.status == 0)
        #expect(output.lines.count == 1)
    }

    @Test func exitStopsReadingFurtherMessages() throws {
        let output = try DaemonProcess.run(lines: [
            Self.initialize, Self.shutdown, Self.exit, #"{"jsonrpc":"2.0","id":5,"method":"sources"}"#,
        ])
        #expect(output.status == 0)
        #expect(output.lines.count == 2)
    }

    @Test func initializeReportsServerInfoAndCapabilities() throws {
        let output = try DaemonProcess.run(lines: [Self.initialize])
        let line = try #require(output.lines.first)
        #expect(line.hasPrefix(#"{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"diffable","version":""#))
        for method in ["apply", "snapshot", "sources", "drop", "shutdown"] {
            #expect(line.contains("\"\(method)\""), "capabilities list \(method)")
        }
    }

    @Test func requestBeforeInitializeIsRejected() throws {
        let output = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":"early","method":"sources"}"#,
            #"{"jsonrpc":"2.0","method":"initialized"}"#,
            Self.initialize,
            #"{"jsonrpc":"2.0","id":"later","method":"sources"}"#,
        ])
        #expect(output.lines.count == 3)
        #expect(output.lines[safe: 0] == #"{"jsonrpc":"2.0","id":"early","error":{"code":-32002,"message":"Server not initialized: send `initialize` first."}}"#)
        #expect(output.lines[safe: 1]?.contains(#""serverInfo""#) == true)
        #expect(output.lines[safe: 2] == #"{"jsonrpc":"2.0","id":"later","result":{"sources":[]}}"#)
    }

    @Test func requestsAfterShutdownAreInvalid() throws {
        let output = try DaemonProcess.run(lines: [
            Self.initialize, Self.shutdown, #"{"jsonrpc":"2.0","id":7,"method":"sources"}"#,
        ])
        #expect(output.lines.last?.hasPrefix(#"{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"#) == true)
    }

    @Test func secondInitializeIsInvalid() throws {
        let output = try DaemonProcess.run(lines: [Self.initialize, #"{"jsonrpc":"2.0","id":2,"method":"initialize"}"#])
        #expect(output.lines.last?.hasPrefix(#"{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"#) == true)
    }

    @Test func idsAreEchoedWithTheirType() throws {
        let output = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":"abc-1","method":"initialize"}"#,
            #"{"jsonrpc":"2.0","id":1.50,"method":"sources"}"#,
            #"{"jsonrpc":"2.0","id":null,"method":"sources"}"#,
            #"{"jsonrpc":"2.0","id":-7,"method":"sources"}"#,
        ])
        #expect(output.lines.count == 4)
        #expect(output.lines[safe: 0]?.hasPrefix(#"{"jsonrpc":"2.0","id":"abc-1","result""#) == true)
        #expect(output.lines[safe: 1] == #"{"jsonrpc":"2.0","id":1.50,"result":{"sources":[]}}"#)
        #expect(output.lines[safe: 2] == #"{"jsonrpc":"2.0","id":null,"result":{"sources":[]}}"#)
        #expect(output.lines[safe: 3] == #"{"jsonrpc":"2.0","id":-7,"result":{"sources":[]}}"#)
    }

    @Test func malformedJSONIsAnsweredAndServiceContinues() throws {
        let output = try DaemonProcess.run(lines: [
            Self.initialize,
            #"{"jsonrpc":"2.0","id":2,"method":"apply","params":{"source":"x","sections":[}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"apply","params":{"source":"x","sections":[{"id":"s","items":["a"]}]}}"#,
        ])
        #expect(output.lines.count == 3)
        #expect(output.lines[safe: 1]?.hasPrefix(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"#) == true)
        #expect(output.lines[safe: 2]?.hasPrefix(#"{"jsonrpc":"2.0","id":3,"result":{"source":"x","version":1,"#) == true)
    }

    @Test func malformedJSONInContentLengthFramingContinues() throws {
        let input = DaemonProcess.lspFramed([
            Self.initialize, "{not json", #"{"jsonrpc":"2.0","id":3,"method":"sources"}"#,
        ])
        let bodies = try DaemonProcess.lspBodies(try DaemonProcess.run(input).stdout)
        #expect(bodies.count == 3)
        #expect(bodies[safe: 1]?.contains(#""code":-32700"#) == true)
        #expect(bodies[safe: 2] == #"{"jsonrpc":"2.0","id":3,"result":{"sources":[]}}"#)
    }

    @Test func headersInAnyCaseAndOrder() throws {
        let body = Self.initialize
        let count = body.utf8.count
        let input = "content-type: application/vscode-jsonrpc; charset=utf8\r\ncontent-LENGTH: \(count)\r\n\r\n\(body)"
        let bodies = try DaemonProcess.lspBodies(try DaemonProcess.run(Array(input.utf8)).stdout)
        #expect(bodies.count == 1)
        #expect(bodies.first?.contains(#""serverInfo""#) == true)
    }

    @Test func invalidRequestsAndUnknownMethods() throws {
        let output = try DaemonProcess.run(lines: [
            Self.initialize,
            #"{"jsonrpc":"1.0","id":2,"method":"sources"}"#,
            #"{"jsonrpc":"2.0","id":3}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"frobnicate"}"#,
            #"{"jsonrpc":"2.0","method":"frobnicate"}"#,
            #"{"jsonrpc":"2.0","id":{"a":1},"method":"sources"}"#,
            #"42"#,
            #"{"jsonrpc":"2.0","id":5,"method":"apply","params":"nope"}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"apply","params":{"sections":[]}}"#,
        ])
        let codes = output.lines.dropFirst().map { line -> String in
            guard let range = line.range(of: #""code":"#) else { return "none" }
            return String(line[range.upperBound...].prefix { $0 == "-" || $0.isNumber })
        }
        #expect(codes == ["-32600", "-32600", "-32601", "-32600", "-32600", "-32600", "-32602"])
    }

    @Test func batches() throws {
        let output = try DaemonProcess.run(lines: [
            Self.initialize,
            "[]",
            #"[{"jsonrpc":"2.0","method":"initialized"},{"jsonrpc":"2.0","method":"$/setTrace","params":{}}]"#,
            #"[{"jsonrpc":"2.0","id":"a","method":"sources"},{"jsonrpc":"2.0","method":"initialized"},{"jsonrpc":"2.0","id":"b","method":"nope"}]"#,
        ])
        #expect(output.lines.count == 3)
        #expect(output.lines[safe: 1] == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an empty batch"}}"#)
        #expect(output.lines[safe: 2]?.hasPrefix(#"[{"jsonrpc":"2.0","id":"a","result":{"sources":[]}},{"jsonrpc":"2.0","id":"b","error":{"code":-32601,"#) == true)
    }

    @Test func cancelledBeforeRunningGetsRequestCancelled() throws {
        let output = try DaemonProcess.run(lines: [
            Self.initialize,
            #"{"jsonrpc":"2.0","id":2,"method":"apply","params":{"source":"x","sections":[{"id":"s"}]}}"#,
            #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"sources"}"#,
        ])
        // The daemon parses ahead, so request 2 is normally still queued when the
        // cancel arrives; either way it must answer, and the state must agree.
        let answer = try #require(output.lines[safe: 1])
        if answer.contains(#""code":-32800"#) {
            #expect(output.lines[safe: 2] == #"{"jsonrpc":"2.0","id":3,"result":{"sources":[]}}"#)
        } else {
            #expect(output.lines[safe: 2]?.contains(#""source":"x""#) == true)
        }
    }

    @Test func commandLine() throws {
        let help = try DaemonProcess.run([], arguments: ["--help"])
        #expect(help.status == 0)
        #expect(help.stdoutText.contains("usage: diffable"))
        let version = try DaemonProcess.run([], arguments: ["--version"])
        #expect(version.status == 0)
        #expect(version.stdoutText.hasPrefix("diffable "))
        let bad = try DaemonProcess.run([], arguments: ["--bogus"])
        #expect(bad.status == 2)
        #expect(bad.stdout.isEmpty)
        #expect(bad.stderr.contains("usage: diffable"))
        let logs = try DaemonProcess.run(lines: [Self.initialize, #"{"jsonrpc":"2.0","method":"whatever"}"#], arguments: ["--log-level", "debug"])
        #expect(logs.lines.count == 1, "logs never reach stdout")
        #expect(logs.stderr.contains("whatever"))
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
