import Foundation
import Testing

/// Runs the clients' and tools' own test suites in protocol/ against the
/// built binary: Python, JavaScript, Neovim and Vim clients (each with a
/// random session checked against `snapshot`), the whole-message schema
/// checks, the interop checks with real JSON-RPC libraries, and the seed
/// screens' terminal (tmux) and web (headless Chromium) demos.
struct ClientTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The first executable named `name` on PATH.
    static func tool(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static let python3 = tool("python3")

    struct Result {
        var status: Int32
        var output: String
    }

    /// Runs a tool from the repository root with stdin closed, collecting
    /// stdout and stderr together; kills it after `timeout` seconds.
    /// Runs `executable` in `directory` (the checkout) with stdin closed,
    /// collecting stdout and stderr together; `environment` is added to this
    /// process's, or is the whole environment when `inheriting` is false.
    /// `timeout` only detects a hang.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                    in directory: URL = root, inheriting: Bool = true, timeout: TimeInterval = 20) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = inheriting ? ProcessInfo.processInfo.environment.merging(environment) { $1 } : environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let box = OutputBox()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            box.set(pipe.fileHandleForReading.readDataToEndOfFile())
            done.signal()
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            process.waitUntilExit()
            return Result(status: -1, output: "timed out after \(Int(timeout)) s")
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: box.data, as: UTF8.self))
    }

    static func requireBinary() throws -> URL {
        try #require(DaemonProcess.binary, "the diffable binary was not found next to the tests")
    }

    static func requirePython() throws -> URL {
        try #require(python3, "python3 is not on PATH; the Python client and the schema check need it")
    }

    /// Each client's and tool's own test runner (see protocol/clients/README.md),
    /// against the binary these tests built. A runner whose tool is missing
    /// fails (protocol/tools/install-test-tools installs them); none skips.
    static let suites: [String] = [
        "protocol/clients/python/run-tests",
        "protocol/clients/js/run-tests",
        "protocol/clients/nvim/run-tests",
        "protocol/clients/vim/run-tests",
        "protocol/tools/run-schema-tests",
        "protocol/tools/run-interop-tests",
        "protocol/examples/tui/run-tests",
        "protocol/examples/web/run-tests",
    ]

    @Test(arguments: suites)
    func suitePasses(_ runner: String) throws {
        let binary = try Self.requireBinary()
        let bash = try #require(Self.tool("bash"), "bash is not on PATH")
        let result = try Self.run(bash, [runner], environment: ["DIFFABLE_BIN": binary.path], timeout: 300)
        let summary = result.output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(result.status == 0, "\(runner) failed (status \(result.status)):\n\(result.output.suffix(6000))")
        #expect(summary.contains("passed") && summary.contains(" 0 failed"), "\(runner) ended with: \(summary)")
    }

    /// The clients' generated tables (method params, error codes, value sets)
    /// are what protocol/tools/generate-contract writes from protocol/schemas:
    /// a schema changed without rerunning it fails here, naming the stale file.
    @Test func generatedContractIsCurrent() throws {
        let python3 = try Self.requirePython()
        let result = try Self.run(python3, ["protocol/tools/generate-contract", "--check"])
        #expect(result.status == 0, "generated files are stale; run protocol/tools/generate-contract:\n\(result.output)")
    }

    /// The shared replay cases (protocol/cases/, which every client's suite
    /// and the engine's tests replay) are what this daemon answers: a change
    /// of the daemon's diffs fails here until they are recorded again.
    @Test func sharedCasesAreWhatTheDaemonAnswers() throws {
        let binary = try Self.requireBinary(), python3 = try Self.requirePython()
        let result = try Self.run(python3, ["protocol/tools/record-cases", binary.path, "--check"], timeout: 120)
        #expect(result.status == 0, "protocol/cases differ from the daemon's answers; review, then run protocol/tools/record-cases BINARY:\n\(result.output)")
    }

    @Test func pythonClientRunsTheExample() throws {
        let binary = try Self.requireBinary(), python3 = try Self.requirePython()
        let result = try Self.run(python3, ["protocol/clients/python/diffable_client.py", binary.path])
        #expect(result.status == 0, "diffable_client.py (example) failed:\n\(result.output)")
        #expect(result.output.contains("closed: {\"text\": \"We're sorry!"), "the example's last change was not rendered:\n\(result.output)")
    }
}

private final class OutputBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = Data()
    var data: Data { lock.lock(); defer { lock.unlock() }; return stored }
    func set(_ d: Data) { lock.lock(); stored = d; lock.unlock() }
}
