import Foundation
import Testing

/// Runs the reference clients and the schema checker in protocol/ against the
/// built binary: the Python client's randomized replay self-test, the schema
/// check of every transcript, and the Vim client's headless self-test (when
/// `vim` is installed; python3 is assumed present and is required).
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
    static let vim = tool("vim")
    static let hasJSONSchema: Bool = {
        guard let python3, let result = try? run(python3, ["-c", "import jsonschema, referencing"]) else { return false }
        return result.status == 0
    }()

    struct Result {
        var status: Int32
        var output: String
    }

    /// Runs a tool from the repository root with stdin closed, collecting
    /// stdout and stderr together; kills it after `timeout` seconds.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                    timeout: TimeInterval = 20) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = root
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
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

    @Test func pythonClientSelfTest() throws {
        let binary = try Self.requireBinary(), python3 = try Self.requirePython()
        let result = try Self.run(python3, ["protocol/clients/python/diffable_client.py", "--selftest", binary.path])
        #expect(result.status == 0, "diffable_client.py --selftest failed:\n\(result.output)")
    }

    @Test func pythonClientRunsTheExample() throws {
        let binary = try Self.requireBinary(), python3 = try Self.requirePython()
        let result = try Self.run(python3, ["protocol/clients/python/diffable_client.py", binary.path])
        #expect(result.status == 0, "diffable_client.py (example) failed:\n\(result.output)")
        #expect(result.output.contains("closed: {\"text\": \"We're sorry!"), "the example's last change was not rendered:\n\(result.output)")
    }

    @Test(.enabled(if: hasJSONSchema, "the Python package jsonschema is not installed (pip install jsonschema)"))
    func transcriptsMatchTheSchemas() throws {
        let python3 = try Self.requirePython()
        let result = try Self.run(python3, ["protocol/tools/check-schemas.py"])
        #expect(result.status == 0, "check-schemas.py reported violations:\n\(result.output)")
    }

    @Test(.enabled(if: vim != nil, "vim is not on PATH"))
    func vimClientSelfTest() throws {
        let binary = try Self.requireBinary(), vim = try #require(Self.vim)
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("diffable-vim-selftest-\(ProcessInfo.processInfo.processIdentifier).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let result = try Self.run(vim, ["-Nu", "NONE", "-es", "-S", "protocol/clients/vim/selftest.vim"],
                                  environment: ["DIFFABLE_BIN": binary.path, "DIFFABLE_VIM_LOG": log.path])
        let report = (try? String(contentsOf: log, encoding: .utf8)) ?? "(no report written)"
        #expect(result.status == 0, "vim self-test failed (status \(result.status)):\n\(report)\n\(result.output)")
        #expect(report.hasPrefix("PASS"), "vim self-test report:\n\(report)")
    }
}

private final class OutputBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = Data()
    var data: Data { lock.lock(); defer { lock.unlock() }; return stored }
    func set(_ d: Data) { lock.lock(); stored = d; lock.unlock() }
}
