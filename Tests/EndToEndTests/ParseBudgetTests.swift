import Foundation
import Testing

/// Reading one message takes at most `JSONParser.maxFootprintPerByte` (16)
/// bytes of memory per byte of its text, beyond the text itself
/// (protocol/README.md, "Message size and memory"): the densest shapes
/// (arrays of one-digit numbers, of empty containers, of empty strings)
/// are refused with -32700 before they are built, and the daemon's peak
/// stays within the bound while it reads them. A request as clients write
/// it (an edit of items with ids and texts) is read and applied.
@Suite(.serialized) struct ParseBudgetTests {
    static let size = 4_000_000

    static func repeated(_ element: String, _ open: String, _ close: String) -> String {
        let count = size / (element.utf8.count + 1)
        return open + Array(repeating: element, count: count).joined(separator: ",") + close
    }

    static let dense: [(String, String)] = [
        ("one-digit numbers", repeated("0", "[", "]")),
        ("empty arrays", repeated("[]", "[", "]")),
        ("empty objects", repeated("{}", "[", "]")),
        ("empty strings", repeated(#""""#, "[", "]")),
        ("arrays of one number", repeated("[0]", "[", "]")),
        ("objects of one member", repeated(#"{"a":0}"#, "[", "]")),
    ]

    @Test(arguments: dense.map(\.0))
    func denseMessagesAreRefusedWithinTheBound(shape: String) throws {
        let value = try #require(Self.dense.first { $0.0 == shape }?.1)
        let message = #"{"jsonrpc":"2.0","id":2,"method":"sources","params":{"x":\#(value)}}"#
        let (answer, grown) = try Self.peakGrowth(answering: message)
        #expect(answer.contains(#""code":-32700"#), "\(answer.prefix(300))")
        #expect(answer.contains("16 bytes of memory per byte"))
        // The text is held once by the reader; everything else is the budget.
        let bound = (1 + 16) * message.utf8.count + (32 << 20)
        #expect(grown <= bound, "\(shape): grew \(grown >> 20) MiB, bound \(bound >> 20) MiB")
    }

    /// A large `apply` is read from its bytes without a tree of its items:
    /// an items array of the densest shape is refused item by item
    /// (-32602 naming the first 50), within the same bound.
    @Test func aDenseApplyIsRefusedWithinTheBound() throws {
        let message = #"{"jsonrpc":"2.0","id":2,"method":"apply","params":{"source":"s","sections":[{"id":"A","items":\#(Self.repeated("0", "[", "]"))}]}}"#
        let (answer, grown) = try Self.peakGrowth(answering: message)
        #expect(answer.hasPrefix(#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid snapshot: params.sections[0].items[0]: an item must be an object"#),
                "\(answer.prefix(300))")
        #expect(answer.contains("(and 49 more problems, see data.problems)"))
        let bound = (1 + 16) * message.utf8.count + (32 << 20)
        #expect(grown <= bound, "grew \(grown >> 20) MiB, bound \(bound >> 20) MiB")
    }

    @Test func anEditAsClientsWriteItIsRead() throws {
        let items = (0..<20_000).map { #"{"id":"row-\#($0)-5f0c","content":{"text":"/usr/share/doc/package-\#($0)/changelog.gz"}}"# }
        let message = #"{"jsonrpc":"2.0","id":2,"method":"edit","params":{"source":"s","ops":[{"op":"appendItems","items":[\#(items.joined(separator: ","))]}]}}"#
        let (answer, _) = try Self.peakGrowth(answering: message, setUp: #"{"jsonrpc":"2.0","id":1,"method":"apply","params":{"source":"s","sections":[{"id":"A"}]}}"#)
        #expect(answer.hasPrefix(#"{"jsonrpc":"2.0","id":2,"result":{"source":"s","version":2"#), "\(answer.prefix(300))")
    }

    /// Starts the daemon, sends `initialize` (and `setUp`), notes its peak
    /// resident set, sends `message` and returns the answer and how much
    /// the peak grew while reading and answering it.
    static func peakGrowth(answering message: String, setUp: String? = nil) throws -> (String, Int) {
        let binary = try #require(DaemonProcess.binary)
        let process = Process()
        process.executableURL = binary
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            try? stdin.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        var pending: [UInt8] = []
        func send(_ line: String) throws -> String {
            try stdin.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
            while true {
                if let newline = pending.firstIndex(of: 0x0A) {
                    let answer = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    return answer
                }
                let chunk = stdout.fileHandleForReading.availableData
                if chunk.isEmpty { return "" }
                pending += chunk
            }
        }
        _ = try send(#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#)
        if let setUp { _ = try send(setUp) }
        let before = try peakBytes(process.processIdentifier)
        let answer = try send(message)
        let after = try peakBytes(process.processIdentifier)
        return (answer, after - before)
    }

    /// The peak resident set of process `pid` (VmHWM), from /proc (Linux).
    static func peakBytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? ""))
        return kilobytes * 1024
    }
}
