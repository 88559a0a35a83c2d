import Foundation
import Testing

/// A client that spawns the daemon with stderr on a pipe it never reads
/// (Python's `subprocess.Popen(stderr=PIPE)`, several editors) must still be
/// answered: log lines never hold up a reply.
@Suite struct UnreadStderrTests {
    @Test func repliesComeWhileNobodyReadsStderr() throws {
        guard let binary = DaemonProcess.binary else { throw DaemonError.binaryNotFound }
        let process = Process()
        process.executableURL = binary
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr  // never read: the pipe fills after ~64 KiB
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // Each malformed notification is logged as a warning (~100 bytes):
        // 5,000 of them are 500 KB of log, several times what the pipe holds.
        var lines = [#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#]
        lines += Array(repeating: #"{"jsonrpc":"1.0","method":"x"}"#, count: 5_000)
        lines.append(#"{"jsonrpc":"2.0","id":2,"method":"sources"}"#)
        let input = Data((lines.joined(separator: "\n") + "\n").utf8)
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()

        let answered = DispatchSemaphore(value: 0)
        let collected = Box()
        DispatchQueue.global().async {
            collected.data = stdout.fileHandleForReading.readDataToEndOfFile()
            answered.signal()
        }
        // A hang detector, not a speed check: the answer takes milliseconds.
        let result = answered.wait(timeout: .now() + 120)
        #expect(result == .success, "no answer while stderr is unread: the daemon is blocked on its log")
        let text = String(decoding: collected.data, as: UTF8.self)
        #expect(text.contains(#""id":2,"result":{"sources":[]}"#))
        #expect(!text.contains("\"id\":null"), "malformed notifications are never answered")
    }
}

private final class Box: @unchecked Sendable {
    var data = Data()
}
