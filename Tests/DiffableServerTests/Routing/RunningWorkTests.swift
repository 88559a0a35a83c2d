import Testing
@testable import DiffableServer
@testable import DiffableProtocol
import DiffableTestSupport

/// Progress notifications, cancellation of running work, and which queued
/// search may supersede another.
@Suite struct RunningWorkTests {
    static func items(_ count: Int) -> String {
        (0..<count).map { #"{"id":"item-\#($0)","content":{"text":"row \#($0)"}}"# }.joined(separator: ",")
    }

    static func apply(_ count: Int, id: Int = 1, token: String? = #""tok""#) -> [UInt8] {
        let tokenMember = token.map { #","workDoneToken":\#($0)"# } ?? ""
        return utf8(#"{"jsonrpc":"2.0","id":\#(id),"method":"apply","params":{"source":"s","sections":[{"id":"a","items":[\#(items(count))]}]\#(tokenMember)}}"#)
    }

    static func initialized() -> (Server, Box) {
        let server = Server()
        let box = Box()
        server.notificationSink = { box.messages.append(String(decoding: JSONWriter.bytes($0), as: UTF8.self)) }
        _ = server.handle(body: utf8(#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#))
        return (server, box)
    }

    final class Box: @unchecked Sendable { var messages: [String] = [] }

    @Test(arguments: [Int.max, 0])
    func progressBeginsAndEndsWithTheToken(lazyFrom: Int) {
        let (server, box) = Self.initialized()
        _ = server.handle(body: Self.apply(20_000, token: "17"), lazyFrom: lazyFrom)
        #expect(box.messages.first?.contains(#""token":17,"value":{"kind":"begin","title":"apply""#) == true, "\(box.messages.first ?? "")")
        #expect(box.messages.last == #"{"jsonrpc":"2.0","method":"$/progress","params":{"token":17,"value":{"kind":"end"}}}"#)
        for report in box.messages.dropFirst().dropLast() {
            #expect(report.contains(#""kind":"report","percentage":"#))
        }
    }

    @Test func noTokenNoProgress() {
        let (server, box) = Self.initialized()
        _ = server.handle(body: Self.apply(100, token: nil))
        #expect(box.messages.isEmpty)
    }

    /// A cancelled flag stops the request at its first safe point: -32800,
    /// and the source is as before (here: it does not exist).
    @Test(arguments: ["apply", "search", "edit"], [Int.max, 0])
    func cancelledWhileRunningChangesNothing(method: String, lazyFrom: Int) {
        let (server, _) = Self.initialized()
        _ = server.handle(body: Self.apply(3000, id: 1, token: nil))
        let flag = CancellationFlag()
        flag.cancel()
        server.cancellation = flag
        let body: [UInt8]
        switch method {
        case "apply": body = Self.apply(5000, id: 2)
        case "search": body = utf8(#"{"jsonrpc":"2.0","id":2,"method":"search","params":{"source":"s","query":"row 1"}}"#)
        default: body = utf8(#"{"jsonrpc":"2.0","id":2,"method":"edit","params":{"source":"s","ops":[{"op":"deleteItems","ids":["item-1"]}]}}"#)
        }
        let answer = server.handle(body: body, lazyFrom: lazyFrom).map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(answer.contains(#""code":-32800"#), "\(answer)")
        // Read once: two `#expect`s each reading `server.sources["s"]?…`
        // left a dynamic-exclusivity record behind in debug builds once
        // `DataSource` grew (the next access to `server.sources` spun in
        // the runtime's access set; ASan found no memory error, and the
        // same reads outside the macro are fine).
        let stored = server.sources["s"]
        #expect(stored?.version == 1)
        #expect(stored?.snapshot.itemCount == 3000)
        #expect(server.cancellation == nil, "the flag belongs to one request")
    }

    static func queued(_ bodies: [String]) -> ArraySlice<IncomingEvent> {
        bodies.compactMap { try? JSONParser.parse(utf8($0)) }.map { IncomingEvent.message($0) }[...]
    }

    static let searchAl = #"{"jsonrpc":"2.0","id":10,"method":"search","params":{"source":"s","query":"al"}}"#

    @Test(arguments: [
        (#"{"jsonrpc":"2.0","id":11,"method":"search","params":{"source":"s","query":"ali"}}"#, true),
        (#"{"jsonrpc":"2.0","id":11,"method":"search","params":{"source":"s","query":"ali","limit":-1}}"#, false),
        (#"{"jsonrpc":"2.0","id":11,"method":"search","params":{"source":"s","query":"ali","limt":5}}"#, false),
        (#"{"jsonrpc":"2.0","id":11,"method":"search","params":{"source":"s","query":"ali","sections":["nope"]}}"#, false),
        (#"{"jsonrpc":"2.0","id":11,"method":"search","params":{"source":"s","query":"ali","baseVersion":7}}"#, false),
        (#"{"jsonrpc":"2.0","id":11,"method":"search","params":{"source":"t","query":"ali"}}"#, false),
    ])
    func onlyASearchThatWillApplySupersedes(_ later: String, _ supersedes: Bool) throws {
        let (server, _) = Self.initialized()
        _ = server.handle(body: Self.apply(10, token: nil))
        let older = try JSONParser.parse(utf8(Self.searchAl))
        let answer = server.cancellation(for: older, pendingLater: Self.queued([later]), hasCancels: false)
        #expect((answer != nil) == supersedes, "\(later)")
    }

    @Test func aCancelledNewerSearchDoesNotSupersede() throws {
        let (server, _) = Self.initialized()
        _ = server.handle(body: Self.apply(10, token: nil))
        let older = try JSONParser.parse(utf8(Self.searchAl))
        let pending = Self.queued([
            #"{"jsonrpc":"2.0","id":11,"method":"search","params":{"source":"s","query":"ali"}}"#,
            #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":11}}"#,
        ])
        #expect(server.cancellation(for: older, pendingLater: pending, hasCancels: true) == nil)
    }

    /// The newer search that superseded an older one was decoded to decide
    /// so; it is answered from that decoding (the message is not decoded
    /// again), and only when it is the very next request handled.
    @Test func aSupersedingSearchIsDecodedOnce() throws {
        let (server, _) = Self.initialized()
        _ = server.handle(body: Self.apply(10, token: nil))
        let older = try JSONParser.parse(utf8(Self.searchAl))
        let later = #"{"jsonrpc":"2.0","id":11,"method":"search","params":{"source":"s","query":"ali"}}"#
        #expect(server.cancellation(for: older, pendingLater: Self.queued([later]), hasCancels: false) != nil)
        // The same id with other params shows which decoding answered.
        let answer = server.handle(body: utf8(#"{"jsonrpc":"2.0","id":11,"method":"search","params":{"source":"s","query":"bo"}}"#))
        #expect(answer.map { String(decoding: $0, as: UTF8.self) }?.contains(#""query":"ali""#) == true)
        // Kept for one request only: another id decodes its own params and
        // drops what was kept.
        #expect(server.cancellation(for: older, pendingLater: Self.queued([later]), hasCancels: false) != nil)
        let other = server.handle(body: utf8(#"{"jsonrpc":"2.0","id":12,"method":"search","params":{"source":"s","query":"bo"}}"#))
        #expect(other.map { String(decoding: $0, as: UTF8.self) }?.contains(#""query":"bo""#) == true)
        let again = server.handle(body: utf8(#"{"jsonrpc":"2.0","id":11,"method":"search","params":{"source":"s","query":"bo"}}"#))
        #expect(again.map { String(decoding: $0, as: UTF8.self) }?.contains(#""query":"bo""#) == true)
    }

    /// A search kept for its turn but answered by a `$/cancelRequest` before
    /// it ran is dropped: a later request that reuses its id (allowed once
    /// it was answered) is decoded from its own params.
    @Test func aKeptSearchCancelledBeforeItsTurnIsDropped() throws {
        let (server, _) = Self.initialized()
        _ = server.handle(body: Self.apply(10, token: nil))
        let older = try JSONParser.parse(utf8(Self.searchAl))
        let later = #"{"jsonrpc":"2.0","id":11,"method":"search","params":{"source":"s","query":"ali"}}"#
        #expect(server.cancellation(for: older, pendingLater: Self.queued([later]), hasCancels: false) != nil)
        let kept = try JSONParser.parse(utf8(later))
        let cancel = #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":11}}"#
        #expect(server.cancellation(for: kept, pendingLater: Self.queued([cancel]), hasCancels: true) != nil)
        let reused = server.handle(body: utf8(#"{"jsonrpc":"2.0","id":11,"method":"search","params":{"source":"s","query":"bo"}}"#))
        #expect(reused.map { String(decoding: $0, as: UTF8.self) }?.contains(#""query":"bo""#) == true)
    }
}
