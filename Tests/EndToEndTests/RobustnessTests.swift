import Foundation
import Testing

/// What a real frontend meets at the edges, through the binary: launcher
/// flags, an editor that dies, stdout that fails, corrupt frames, traces
/// replayed for bug reports, progress and cancellation of running work.
@Suite(.serialized) struct RobustnessTests {
    static let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#
    static let probe = #"{"jsonrpc":"2.0","id":2,"method":"sources"}"#

    @Test func launcherFlagsAreAccepted() throws {
        let output = try DaemonProcess.run(DaemonProcess.lspFramed([Self.initialize, Self.probe]),
                                           arguments: ["--stdio", "--clientProcessId=\(getpid())"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try DaemonProcess.lspBodies(output.stdout).last == #"{"jsonrpc":"2.0","id":2,"result":{"sources":[]}}"#)
    }

    @Test(arguments: [
        "Content-Length: -5\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"sources\"}",
        "Content-Type: application/json\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"sources\"}",
        "Content-Length 44\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"sources\"}",
        "Content-Length: 41\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"sources\"}",
        "Content-Length: 47\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"sources\"}",
    ])
    func theProbeAfterACorruptFrameIsAnswered(_ corruption: String) throws {
        var input = DaemonProcess.lspFramed([Self.initialize])
        input += Array(corruption.utf8)
        input += DaemonProcess.lspFramed([Self.probe])
        let bodies = try DaemonProcess.lspBodies(try DaemonProcess.run(input).stdout)
        #expect(bodies.last == #"{"jsonrpc":"2.0","id":2,"result":{"sources":[]}}"#, "\(bodies)")
        #expect(bodies.contains { $0.contains(#""id":null,"error":{"code":-32700"#) }, "the corrupt frame is reported")
    }

    @Test func aFailingStdoutEndsTheProcessAndSaysSo() throws {
        let binary = try #require(DaemonProcess.binary)
        let process = Process()
        process.executableURL = binary
        let stdin = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data((Self.initialize + "\n" + Self.probe + "\n").utf8))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 3)
        #expect(message.contains("cannot write to stdout"), "\(message)")
    }

    /// The editor dies without `shutdown`: the daemon, whose stdin is still
    /// open, exits by itself within a second.
    @Test func theDaemonExitsWhenTheEditorIsGone() throws {
        let editor = Process()
        editor.executableURL = URL(fileURLWithPath: "/bin/sleep")
        editor.arguments = ["30"]
        try editor.run()
        let daemon = try Interactive()
        daemon.send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":\#(editor.processIdentifier)}}"#)
        _ = try daemon.readLine()
        kill(editor.processIdentifier, SIGKILL)
        editor.waitUntilExit()
        let gone = Date()
        #expect(daemon.waitForExit(timeout: 3) == 1)
        #expect(Date().timeIntervalSince(gone) < 1.5)
        #expect(daemon.stderrText().contains("client process"))
    }

    @Test func aTraceReplaysToTheSameResponses() throws {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("diffable-\(UUID()).trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let session = [
            Self.initialize,
            #"{"jsonrpc":"2.0","id":2,"method":"apply","params":{"source":"p","sections":[{"id":"a","items":[{"id":"g","content":{"text":"Grace"}},{"id":"l","content":{"text":"Liam"}}]}]}}"#,
            "not json",
            #"{"jsonrpc":"2.0","id":3,"method":"search","params":{"source":"p","query":"gr","form":"steps"}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"edit","params":{"source":"p","ops":[{"op":"deleteItems","ids":["nope"]}]}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"shutdown"}"#, #"{"jsonrpc":"2.0","method":"exit"}"#,
        ]
        let run = try DaemonProcess.run(lines: session, arguments: ["--trace", trace.path])
        #expect(run.status == 0)
        let recorded = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
        #expect(recorded.count == session.count + 6, "every message, both directions (6 answers)")
        let replay = try DaemonProcess.run([], arguments: ["replay", trace.path])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdoutText.contains("6 responses matched"), "\(replay.stdoutText)")

        // A daemon that answered differently is caught, with the line.
        let tampered = try String(contentsOf: trace, encoding: .utf8).replacingOccurrences(of: #""version":2"#, with: #""version":9"#)
        try tampered.write(to: trace, atomically: true, encoding: .utf8)
        let caught = try DaemonProcess.run([], arguments: ["replay", trace.path])
        #expect(caught.status == 1)
        #expect(caught.stderr.contains("differs from the recording"), "\(caught.stderr)")
    }

    static func bigApply(id: Int, count: Int, token: Bool) -> String {
        let items = (0..<count).map { #"{"id":"path/to/item-\#($0)","content":{"text":"item number \#($0)"}}"# }
        let tokenMember = token ? #","workDoneToken":"t\#(id)""# : ""
        return #"{"jsonrpc":"2.0","id":\#(id),"method":"apply","params":{"source":"big","sections":[{"id":"s","items":[\#(items.joined(separator: ","))]}]\#(tokenMember)}}"#
    }

    @Test func aLongApplyReportsProgress() throws {
        let output = try DaemonProcess.run(lines: [Self.initialize, Self.bigApply(id: 2, count: 300_000, token: true)])
        let progress = output.lines.filter { $0.contains(#""method":"$/progress""#) }
        #expect(progress.first?.contains(#""kind":"begin""#) == true)
        #expect(progress.last?.contains(#""kind":"end""#) == true)
        #expect(progress.contains { $0.contains(#""kind":"report""#) }, "a debug-build apply of 300k items runs well over 100 ms")
        let reply = try #require(output.lines.last)
        #expect(reply.hasPrefix(#"{"jsonrpc":"2.0","id":2,"result":"#))
    }

    /// A `$/cancelRequest` sent while the apply runs, or the editor's cancel
    /// button for its progress, stops it: -32800 and the source as it was.
    @Test(arguments: [#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"#,
                      #"{"jsonrpc":"2.0","method":"window/workDoneProgress/cancel","params":{"token":"t2"}}"#])
    func cancellingARunningApplyChangesNothing(_ cancel: String) throws {
        let daemon = try Interactive()
        daemon.send(Self.initialize)
        _ = try daemon.readLine()
        daemon.send(Self.bigApply(id: 2, count: 400_000, token: true))
        // Cancel once the apply has begun (its progress `begin` is out).
        while try !daemon.readLine().contains(#""kind":"begin""#) {}
        daemon.send(cancel)
        var answer = ""
        while !answer.contains(#""id":2"#) { answer = try daemon.readLine() }
        #expect(answer.contains(#""code":-32800"#), "\(answer.prefix(300))")
        daemon.send(#"{"jsonrpc":"2.0","id":3,"method":"sources"}"#)
        var sources = ""
        while !sources.contains(#""id":3"#) { sources = try daemon.readLine() }
        #expect(sources == #"{"jsonrpc":"2.0","id":3,"result":{"sources":[]}}"#)
        daemon.close()
    }
}

/// The binary on a pipe, written to and read from line by line (NDJSON).
final class Interactive: @unchecked Sendable {
    let process = Process()
    private let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    private var buffer: [UInt8] = []

    init(arguments: [String] = []) throws {
        guard let binary = DaemonProcess.binary else { throw DaemonError.binaryNotFound }
        process.executableURL = binary
        process.arguments = arguments
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
    }

    func send(_ line: String) {
        stdin.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// The next line of stdout; throws at end of output.
    func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let chunk = stdout.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw DaemonError.timedOut }
            buffer += chunk
        }
    }

    /// Writes `bytes` as they are (no newline added).
    func send(bytes: [UInt8]) {
        stdin.fileHandleForWriting.write(Data(bytes))
    }

    /// The next `count` bytes of stdout; throws at end of output.
    func read(count: Int) throws -> [UInt8] {
        while buffer.count < count {
            let chunk = stdout.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw DaemonError.timedOut }
            buffer += chunk
        }
        defer { buffer.removeSubrange(..<count) }
        return Array(buffer[..<count])
    }

    /// The exit status, or nil when still running after `timeout` seconds.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }

    func stderrText() -> String {
        String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    func close() {
        try? stdin.fileHandleForWriting.close()
        _ = waitForExit(timeout: 10)
    }
}
