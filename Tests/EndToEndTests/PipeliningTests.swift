import Foundation
import Testing

/// Requests sent back to back (pipelined) are answered whole, in arrival
/// order, in the framing they came in; replies that share a write never
/// wait for input: a request with nothing behind it is answered while the
/// client still holds stdin open and sends nothing more.
@Suite struct PipeliningTests {
    static let initialize = #"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#
    static let apply = #"{"jsonrpc":"2.0","id":"apply","method":"apply","params":{"source":"s","sections":[{"id":"a","items":["x","y"]}]}}"#

    /// The tiny requests an editor sends on every cursor move.
    static func tiny(_ id: Int) -> String {
        id % 2 == 0
            ? #"{"jsonrpc":"2.0","id":\#(id),"method":"sources"}"#
            : #"{"jsonrpc":"2.0","id":\#(id),"method":"selection","params":{"source":"s"}}"#
    }

    static func expectedReply(_ id: Int) -> String {
        id % 2 == 0
            ? #"{"jsonrpc":"2.0","id":\#(id),"result":{"sources":[{"source":"s","version":1,"sections":1,"items":2}]}}"#
            : #"{"jsonrpc":"2.0","id":\#(id),"result":{"source":"s","version":1,"selected":[],"policies":{}}}"#
    }

    static let count = 5_000

    @Test func pipelinedRepliesArriveWholeAndInOrderOnePerLine() throws {
        let output = try DaemonProcess.run(lines: [Self.initialize, Self.apply] + (1...Self.count).map(Self.tiny))
        #expect(output.status == 0)
        let replies = Array(output.lines.dropFirst(2))
        #expect(replies.count == Self.count)
        #expect(replies == (1...Self.count).map(Self.expectedReply))
    }

    @Test func pipelinedRepliesArriveWholeAndInOrderWithContentLength() throws {
        let output = try DaemonProcess.run(DaemonProcess.lspFramed([Self.initialize, Self.apply] + (1...Self.count).map(Self.tiny)))
        #expect(output.status == 0)
        let replies = Array(try DaemonProcess.lspBodies(output.stdout).dropFirst(2))
        #expect(replies.count == Self.count)
        #expect(replies == (1...Self.count).map(Self.expectedReply))
    }

    /// Notifications in between answer nothing and delay nothing: the
    /// requests around them are answered in order.
    @Test func notificationsBetweenPipelinedRequestsKeepTheOrder() throws {
        var lines = [Self.initialize, Self.apply]
        for id in 1...1_000 {
            lines.append(Self.tiny(id))
            lines.append(#"{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"off"}}"#)
        }
        let output = try DaemonProcess.run(lines: lines)
        #expect(Array(output.lines.dropFirst(2)) == (1...1_000).map(Self.expectedReply))
    }

    /// Each read below would block forever if a reply waited for more
    /// input; stdin stays open throughout.
    @Test func aLoneRequestIsAnsweredWithoutFurtherInput() throws {
        let daemon = try Interactive()
        defer { daemon.close() }
        daemon.send(Self.initialize)
        _ = try daemon.readLine()
        daemon.send(Self.apply)
        _ = try daemon.readLine()
        for id in 1...20 {
            daemon.send(Self.tiny(id))
            #expect(try daemon.readLine() == Self.expectedReply(id))
        }
        // A burst, then a lone request once the burst is answered.
        daemon.send((21...520).map(Self.tiny).joined(separator: "\n"))
        for id in 21...520 { #expect(try daemon.readLine() == Self.expectedReply(id)) }
        daemon.send(Self.tiny(521))
        #expect(try daemon.readLine() == Self.expectedReply(521))
    }

    @Test func aLoneRequestIsAnsweredWithoutFurtherInputWithContentLength() throws {
        let daemon = try Interactive()
        defer { daemon.close() }
        func reply() throws -> String {
            // `Content-Length: N\r\n\r\n`, then N bytes.
            var header: [UInt8] = []
            while !header.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) { header += try daemon.read(count: 1) }
            let text = String(decoding: header, as: UTF8.self)
            let length = try #require(Int(text.dropFirst("Content-Length: ".count).prefix { $0.isNumber }))
            return String(decoding: try daemon.read(count: length), as: UTF8.self)
        }
        daemon.send(bytes: DaemonProcess.lspFramed([Self.initialize]))
        _ = try reply()
        daemon.send(bytes: DaemonProcess.lspFramed([Self.apply]))
        _ = try reply()
        for id in 1...20 {
            daemon.send(bytes: DaemonProcess.lspFramed([Self.tiny(id)]))
            #expect(try reply() == Self.expectedReply(id))
        }
        daemon.send(bytes: DaemonProcess.lspFramed((21...520).map(Self.tiny)))
        for id in 21...520 { #expect(try reply() == Self.expectedReply(id)) }
        daemon.send(bytes: DaemonProcess.lspFramed([Self.tiny(521)]))
        #expect(try reply() == Self.expectedReply(521))
    }

    /// A `$/cancelRequest` queued behind its request, in the middle of a
    /// pipelined stream, still answers that request -32800 without running
    /// it (the look-ahead is taken as the request is popped).
    @Test func aQueuedCancelStillStopsItsRequestInAStream() throws {
        var lines = [Self.initialize, Self.apply]
        // A long request first, so that what follows is queued behind it.
        var items: [String] = []
        for i in 0..<200_000 { items.append(#""i\#(i)""#) }
        lines.append(#"{"jsonrpc":"2.0","id":"big","method":"apply","params":{"source":"big","sections":[{"id":"a","items":[\#(items.joined(separator: ","))]}]}}"#)
        lines.append(#"{"jsonrpc":"2.0","id":"doomed","method":"drop","params":{"source":"s"}}"#)
        lines.append(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"doomed"}}"#)
        // `selection` of "s" (odd ids): answered only while "s" exists.
        let after = (1...100).map { 2 * $0 - 1 }
        lines += after.map(Self.tiny)
        let output = try DaemonProcess.run(lines: lines)
        let doomed = try #require(output.lines.first { $0.contains(#""id":"doomed""#) })
        #expect(output.lines.count == 4 + after.count)
        // Normally still queued when its cancel is read; either way the
        // answers after it must agree with what happened to it.
        if doomed.contains(#""code":-32800"#) {
            #expect(Array(output.lines.suffix(after.count)) == after.map(Self.expectedReply))
        } else {
            #expect(output.lines.suffix(after.count).allSatisfy { $0.contains(#""error""#) })
        }
    }
}
