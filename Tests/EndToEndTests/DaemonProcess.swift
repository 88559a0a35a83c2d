import Foundation
import Testing

/// Runs the built `diffable` binary with the given stdin and collects
/// everything it writes, as a frontend would see it through a pipe.
struct DaemonProcess {
    struct Output {
        var stdout: [UInt8]
        var stderr: String
        var status: Int32

        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        /// stdout split into lines (newline-delimited framing).
        var lines: [String] { stdoutText.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    /// The daemon binary, built by `swift test` next to the test bundle.
    static let binary: URL? = {
        if let explicit = ProcessInfo.processInfo.environment["DIFFABLE_BIN"] {
            return URL(fileURLWithPath: explicit)
        }
        let fm = FileManager.default
        var candidates: [URL] = []
        let argv0 = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        candidates.append(argv0.deletingLastPathComponent().appendingPathComponent("diffable"))
        candidates.append(argv0.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("diffable"))
        let bundle = Bundle.main.bundleURL
        candidates.append(bundle.appendingPathComponent("diffable"))
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("diffable"))
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            candidates.append(directory.appendingPathComponent(".build/debug/diffable"))
            directory.deleteLastPathComponent()
        }
        return candidates.first { fm.isExecutableFile(atPath: $0.path) && !$0.hasDirectoryPath }
    }()

    /// Feeds `input` on stdin, closes it, and waits for the process to end.
    /// `shell`: a shell command run before the daemon replaces the shell
    /// (`ulimit -s 256`, to start it as a constrained environment would).
    static func run(_ input: [UInt8], arguments: [String] = [], timeout: TimeInterval = 60,
                    shell: String? = nil) throws -> Output {
        guard let binary else {
            throw DaemonError.binaryNotFound
        }
        let process = Process()
        if let shell {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #"\#(shell) && exec "$0" "$@""#, binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()

        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let collected = Collected()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            collected.setOut(stdout.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            collected.setErr(stderr.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw DaemonError.timedOut
        }
        process.waitUntilExit()
        return Output(stdout: [UInt8](collected.out), stderr: String(decoding: collected.err, as: UTF8.self),
                      status: process.terminationStatus)
    }

    static func run(lines: [String], arguments: [String] = [], timeout: TimeInterval = 60,
                    shell: String? = nil) throws -> Output {
        try run(Array((lines.joined(separator: "\n") + "\n").utf8), arguments: arguments, timeout: timeout, shell: shell)
    }

    /// Frames each body with `Content-Length` (and optionally Vim's Content-Type first).
    static func lspFramed(_ bodies: [String], vimStyle: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        for body in bodies {
            let utf8 = Array(body.utf8)
            let header = vimStyle
                ? "Content-Type: application/vim-jsonrpc; charset=utf-8\r\nContent-Length: \(utf8.count)\r\n\r\n"
                : "Content-Length: \(utf8.count)\r\n\r\n"
            bytes += Array(header.utf8) + utf8
        }
        return bytes
    }

    /// Splits LSP-framed output into bodies, requiring the exact header form.
    static func lspBodies(_ output: [UInt8]) throws -> [String] {
        var bodies: [String] = []
        var index = 0
        let prefix = Array("Content-Length: ".utf8)
        while index < output.count {
            guard output.count - index >= prefix.count, Array(output[index..<index + prefix.count]) == prefix else {
                throw DaemonError.badFraming(String(decoding: output[index...].prefix(80), as: UTF8.self))
            }
            index += prefix.count
            var length = 0
            while index < output.count, let digit = output[index].asciiDigit {
                length = length * 10 + digit
                index += 1
            }
            guard output.count - index >= 4, Array(output[index..<index + 4]) == Array("\r\n\r\n".utf8) else {
                throw DaemonError.badFraming("header not terminated by CRLF CRLF")
            }
            index += 4
            guard output.count - index >= length else { throw DaemonError.badFraming("truncated body") }
            bodies.append(String(decoding: output[index..<index + length], as: UTF8.self))
            index += length
        }
        return bodies
    }
}

enum DaemonError: Error {
    case binaryNotFound
    case timedOut
    case badFraming(String)
}

private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var out = Data()
    private(set) var err = Data()
    func setOut(_ d: Data) { lock.lock(); out = d; lock.unlock() }
    func setErr(_ d: Data) { lock.lock(); err = d; lock.unlock() }
}

extension UInt8 {
    var asciiDigit: Int? { (48...57).contains(self) ? Int(self) - 48 : nil }
}

/// Suites that write their requests as JSON text, one message a line.
protocol WritesRequests {}

extension WritesRequests {
    /// `{"jsonrpc":"2.0","id":id,"method":method,"params":params}`, where
    /// `params` is JSON text already.
    static func request(_ id: Int, _ method: String, _ params: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
    }
}
